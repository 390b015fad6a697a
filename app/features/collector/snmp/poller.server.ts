/**
 * The `snmp` ingest component: polls every inventory router with SNMP settings on a fixed grid
 * (SNMP_POLL_INTERVAL seconds, a divisor of 300; default 300), each router at its own offset
 * within the interval (from a hash of its name, so polls are spread and a router keeps its slot),
 * at most SNMP_MAX_IN_FLIGHT at a time. A router whose previous poll still runs, or still waits for
 * a slot, skips its turn. Off unless SNMP_POLL=on. One process should poll: the app on embedded
 * stores, or one `npm run worker` on server stores.
 */
import { isNotNull } from "drizzle-orm";
import { routers } from "~db/postgres/schema";
import type { ComponentContext, ComponentEnv, IngestComponent } from "~/server/components/contract.server";
import { ConfigError } from "~/server/env.server";
import type { Services } from "~/server/services.server";
import { GRID_MS } from "./accounting";
import { pollRouter, type PollSettings } from "./poll.server";

export type SnmpPollerSettings = PollSettings & { maxInFlight: number };

export const DEFAULT_POLL_SECONDS = 300;
export const DEFAULT_MAX_IN_FLIGHT = 8;
export const DEFAULT_TIMEOUT_SECONDS = 5;
export const DEFAULT_RETRIES = 1;
export const DEFAULT_MAX_INTERPOLATED = 3;
/** Rows kept for the store per router while it fails; beyond, the oldest are dropped. */
const MAX_UNWRITTEN_ROWS = 20_000;
const ROUTER_LIST_REFRESH_MS = 60_000;
const TICK_MS = 1_000;

function integer(env: ComponentEnv, suffix: string, fallback: number, min: number, max: number): number {
  const raw = env.get(suffix);
  if (raw === undefined) return fallback;
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value < min || value > max)
    throw new ConfigError(`Invalid configuration:\n  ${env.prefix}${suffix}: expected a whole number from ${min} to ${max} (got "${raw}")`);
  return value;
}

export function snmpPollerSettings(env: ComponentEnv): SnmpPollerSettings | null {
  const on = env.get("POLL");
  if (on === undefined || /^(off|false|0|no)$/i.test(on.trim())) return null;
  if (!/^(on|true|1|yes)$/i.test(on.trim()))
    throw new ConfigError(`Invalid configuration:\n  ${env.prefix}POLL: expected on or off (got "${on}")`);
  const seconds = integer(env, "POLL_INTERVAL", DEFAULT_POLL_SECONDS, 30, 300);
  if ((GRID_MS / 1000) % seconds !== 0)
    throw new ConfigError(
      `Invalid configuration:\n  ${env.prefix}POLL_INTERVAL: must divide the 5-minute grid (300 s), e.g. 60, 100, 150 or 300 (got "${seconds}")`,
    );
  return {
    pollIntervalMs: seconds * 1000,
    maxInFlight: integer(env, "MAX_IN_FLIGHT", DEFAULT_MAX_IN_FLIGHT, 1, 256),
    timeoutMs: integer(env, "TIMEOUT", DEFAULT_TIMEOUT_SECONDS, 1, 60) * 1000,
    retries: integer(env, "RETRIES", DEFAULT_RETRIES, 0, 5),
    maxInterpolatedIntervals: integer(env, "MAX_INTERPOLATED", DEFAULT_MAX_INTERPOLATED, 0, 12),
  };
}

/** The router's offset within the poll interval, ms: FNV-1a of its name, stable across restarts. */
export function pollOffsetMs(name: string, intervalMs: number): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(name, "utf8")) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return Math.floor((hash / 2 ** 32) * intervalMs);
}

/** The schedule and the bound on polls in flight, with the clock and the poll given (tests drive it). */
export class SnmpScheduler {
  private routers: string[] = [];
  private lastSlot = new Map<string, number>();
  private busy = new Set<string>();
  private waiting: (() => void)[] = [];
  private running = 0;
  private unwritten = new Map<string, Record<string, unknown>[]>();
  readonly done = new Set<Promise<void>>();
  polls = 0;
  failures = 0;

  constructor(
    private readonly settings: SnmpPollerSettings,
    private readonly poll: (
      router: string,
      pending: Record<string, unknown>[],
    ) => Promise<{ ok: boolean; unwritten: Record<string, unknown>[] }>,
    private readonly onError: (router: string, error: unknown) => void = () => {},
  ) {}

  setRouters(names: string[]): void {
    this.routers = [...names].sort();
    for (const name of [...this.lastSlot.keys()]) if (!names.includes(name)) this.lastSlot.delete(name);
  }

  /** Starts the polls due at `nowMs`: each router once per interval, at its offset. */
  tick(nowMs: number): void {
    const interval = this.settings.pollIntervalMs;
    for (const name of this.routers) {
      const offset = pollOffsetMs(name, interval);
      const slot = Math.floor((nowMs - offset) / interval);
      const last = this.lastSlot.get(name);
      if (last === undefined) {
        // First seen: wait for its offset rather than polling everyone at once.
        this.lastSlot.set(name, slot);
        continue;
      }
      if (slot <= last) continue;
      this.lastSlot.set(name, slot);
      if (this.busy.has(name)) continue;
      this.start(name);
    }
  }

  private start(name: string): void {
    this.busy.add(name);
    const run = (async () => {
      await this.slot();
      try {
        const outcome = await this.poll(name, this.unwritten.get(name) ?? []);
        this.polls += 1;
        if (!outcome.ok) this.failures += 1;
        this.unwritten.set(name, outcome.unwritten.slice(-MAX_UNWRITTEN_ROWS));
      } catch (error) {
        this.failures += 1;
        this.onError(name, error);
      } finally {
        this.release();
        this.busy.delete(name);
      }
    })();
    this.done.add(run);
    void run.finally(() => this.done.delete(run));
  }

  private async slot(): Promise<void> {
    if (this.running < this.settings.maxInFlight) {
      this.running += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }

  get inFlight(): number {
    return this.running;
  }
}

/** Names of the routers with SNMP settings. */
export async function snmpRouters(services: Pick<Services, "pg">): Promise<string[]> {
  const rows = await services.pg.db.select({ name: routers.name }).from(routers).where(isNotNull(routers.snmpVersion));
  return rows.map((r) => r.name);
}

let scheduler: SnmpScheduler | null = null;
let timer: ReturnType<typeof setInterval> | null = null;
let refreshing: Promise<void> | null = null;
let routerCount = 0;

export const snmpPoller: IngestComponent<SnmpPollerSettings> = {
  name: "snmp",
  configure: snmpPollerSettings,
  async start(services: Services, ctx: ComponentContext<SnmpPollerSettings>) {
    const s = new SnmpScheduler(
      ctx.settings,
      async (router, pending) => {
        const started = Date.now();
        const outcome = await pollRouter(services, router, ctx.settings, { pending });
        ctx.metrics.duration("poll", Date.now() - started);
        ctx.metrics.increment(outcome.ok ? "polls" : "poll_failures");
        if (outcome.ok) ctx.metrics.increment("interfaces", outcome.interfaces);
        if (!outcome.ok) ctx.log.warn(`${router}: ${outcome.kind}: ${outcome.message}`);
        return outcome;
      },
      (router, error) => ctx.log.error(`${router}: ${error instanceof Error ? error.message : String(error)}`),
    );
    const refresh = async () => {
      const names = await snmpRouters(services);
      routerCount = names.length;
      s.setRouters(names);
    };
    await refresh();
    scheduler = s;
    let lastRefresh = Date.now();
    timer = setInterval(() => {
      const now = Date.now();
      if (now - lastRefresh >= ROUTER_LIST_REFRESH_MS && !refreshing) {
        lastRefresh = now;
        refreshing = refresh()
          .catch((error) => ctx.log.warn(`router list: ${error instanceof Error ? error.message : String(error)}`))
          .finally(() => (refreshing = null));
      }
      s.tick(now);
    }, TICK_MS);
    timer.unref();
    ctx.log.info(
      `polling ${routerCount} routers every ${ctx.settings.pollIntervalMs / 1000} s, at most ${ctx.settings.maxInFlight} at a time`,
    );
  },
  async stop() {
    if (timer) clearInterval(timer);
    timer = null;
    await refreshing;
    if (scheduler) await Promise.allSettled([...scheduler.done]);
    scheduler = null;
  },
  health() {
    if (!scheduler) return { ok: false, detail: "not running" };
    return {
      ok: true,
      detail: `${routerCount} routers, ${scheduler.polls} polls (${scheduler.failures} failed), ${scheduler.inFlight} in flight`,
    };
  },
};
