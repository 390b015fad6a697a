/**
 * The settings of a flow collector component from its own variables (FLOWS_NETFLOW_… or
 * FLOWS_SFLOW_…): off without <PREFIX>LISTEN; every other variable has a default, and a malformed
 * value stops the start with a message naming it.
 */
import { availableParallelism } from "node:os";
import type { ComponentEnv, ListenAddress } from "~/server/components/contract.server";
import { ConfigError } from "~/server/env.server";

export type CollectorSettings = {
  listen: ListenAddress;
  /** Decoding threads. */
  workers: number;
  /** SO_RCVBUF asked for (the kernel caps it at net.core.rmem_max). */
  receiveBufferBytes: number;
  /** Beyond this difference between an exporter's clock and ours its flows are timed by arrival. */
  maxClockSkewMs: number;
  /** Rows held for the store; beyond, the oldest unsent batches are dropped. */
  queueRows: number;
  /** A batch is written when it reaches this many rows, */
  batchRows: number;
  /** or after this long. */
  flushMs: number;
};

export const DEFAULT_RECEIVE_BUFFER_BYTES = 32 * 1024 * 1024;
export const DEFAULT_MAX_CLOCK_SKEW_SECONDS = 120;
export const DEFAULT_QUEUE_ROWS = 500_000;
export const DEFAULT_BATCH_ROWS = 50_000;
export const DEFAULT_FLUSH_SECONDS = 2;

/** min(4, cores − 1), at least 1: decoding must leave the web app a core. */
export function defaultWorkers(cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

function number(env: ComponentEnv, suffix: string, fallback: number, check: { min: number; max: number; integer?: boolean }): number {
  const raw = env.get(suffix);
  if (raw === undefined) return fallback;
  const value = Number(raw.trim());
  if (!Number.isFinite(value) || value < check.min || value > check.max || (check.integer && !Number.isInteger(value))) {
    const kind = check.integer ? "a whole number" : "a number";
    throw new ConfigError(
      `Invalid configuration:\n  ${env.prefix}${suffix}: expected ${kind} from ${check.min} to ${check.max} (got "${raw}")`,
    );
  }
  return value;
}

/** `64m`, `8M`, `1g`, `65536`: bytes with an optional k/m/g suffix (powers of 1024). */
function bytes(env: ComponentEnv, suffix: string, fallback: number): number {
  const raw = env.get(suffix);
  if (raw === undefined) return fallback;
  const match = /^(\d+)\s*([kmg]?)b?$/i.exec(raw.trim());
  const value = match ? Number(match[1]) * 1024 ** " kmg".indexOf((match[2] || " ").toLowerCase()) : NaN;
  if (!(value >= 65_536 && value <= 2 ** 31 - 1)) {
    throw new ConfigError(`Invalid configuration:\n  ${env.prefix}${suffix}: expected bytes from 64k to 2047m, e.g. 32m (got "${raw}")`);
  }
  return value;
}

export function collectorSettings(env: ComponentEnv): CollectorSettings | null {
  const listen = env.listen();
  if (!listen) return null;
  const batchRows = number(env, "BATCH_ROWS", DEFAULT_BATCH_ROWS, { min: 100, max: 1_000_000, integer: true });
  const queueRows = number(env, "QUEUE_ROWS", Math.max(DEFAULT_QUEUE_ROWS, batchRows), { min: 1_000, max: 100_000_000, integer: true });
  if (queueRows < batchRows) {
    throw new ConfigError(
      `Invalid configuration:\n  ${env.prefix}QUEUE_ROWS: must hold at least one batch, ${env.prefix}BATCH_ROWS (${batchRows}) rows (got ${queueRows})`,
    );
  }
  return {
    listen,
    workers: number(env, "WORKERS", defaultWorkers(), { min: 1, max: 64, integer: true }),
    receiveBufferBytes: bytes(env, "RECEIVE_BUFFER", DEFAULT_RECEIVE_BUFFER_BYTES),
    maxClockSkewMs: number(env, "MAX_CLOCK_SKEW", DEFAULT_MAX_CLOCK_SKEW_SECONDS, { min: 1, max: 86_400 }) * 1000,
    queueRows,
    batchRows,
    flushMs: number(env, "FLUSH_SECONDS", DEFAULT_FLUSH_SECONDS, { min: 0.1, max: 5 }) * 1000,
  };
}
