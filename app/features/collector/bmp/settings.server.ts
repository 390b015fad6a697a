/**
 * The BMP station's settings from its own variables (BMP_…): off without BMP_LISTEN; every other
 * variable has a default, and a malformed value stops the start with a message naming it.
 */
import type { ComponentEnv, ListenAddress } from "~/server/components/contract.server";
import { ConfigError } from "~/server/env.server";

export type BmpSettings = {
  listen: ListenAddress;
  /** A reconnected peer's routes that its new session did not announce again are withdrawn at its End-of-RIB, or this long after its Peer Up. */
  staleAfterMs: number;
  /** A router whose session closed keeps its routes this long; if it has not come back by then, they are withdrawn. */
  keepAfterCloseMs: number;
  /** Rows per insert into rib_entries, */
  batchRows: number;
  /** or the longest a row waits for its insert. */
  flushMs: number;
  /** Rows waiting for the store above which the station stops reading its sessions (resumes below half of it). */
  queueRows: number;
};

export const DEFAULT_STALE_AFTER_MINUTES = 10;
export const DEFAULT_KEEP_AFTER_CLOSE_MINUTES = 30;
export const DEFAULT_BATCH_ROWS = 50_000;
export const DEFAULT_FLUSH_SECONDS = 1;
export const DEFAULT_QUEUE_ROWS = 200_000;

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

export function bmpSettings(env: ComponentEnv): BmpSettings | null {
  const listen = env.listen();
  if (!listen) return null;
  const batchRows = number(env, "BATCH_ROWS", DEFAULT_BATCH_ROWS, { min: 100, max: 1_000_000, integer: true });
  const queueRows = number(env, "QUEUE_ROWS", Math.max(DEFAULT_QUEUE_ROWS, 2 * batchRows), { min: 1_000, max: 10_000_000, integer: true });
  if (queueRows < 2 * batchRows)
    throw new ConfigError(
      `Invalid configuration:\n  ${env.prefix}QUEUE_ROWS: must hold at least two batches, 2 × ${env.prefix}BATCH_ROWS (${2 * batchRows}) rows (got ${queueRows})`,
    );
  return {
    listen,
    staleAfterMs: number(env, "STALE_AFTER", DEFAULT_STALE_AFTER_MINUTES, { min: 0.1, max: 1440 }) * 60_000,
    keepAfterCloseMs: number(env, "KEEP_AFTER_CLOSE", DEFAULT_KEEP_AFTER_CLOSE_MINUTES, { min: 0, max: 10_080 }) * 60_000,
    batchRows,
    flushMs: number(env, "FLUSH_SECONDS", DEFAULT_FLUSH_SECONDS, { min: 0.1, max: 5 }) * 1000,
    queueRows,
  };
}
