/**
 * Results of expensive reads kept for a while and shared between requests: the one module through
 * which a screen caches what it read from ClickHouse (the planners' figures, samples and dates).
 *
 * An entry is found by two things only:
 *   - a canonical key of the read: its name and everything it depends on (for a query: the SQL and
 *     its bound parameters, object keys sorted so the same read always gives the same key), and
 *   - the viewer's restriction scope: "unrestricted" for every account without restrictions, one
 *     scope per delegated account, plus the ClickHouse databases the request reads (an account with
 *     a database override reads other rows under the same SQL). A result is never served to a viewer
 *     of another scope, even when the key is equal.
 * Entries live until the 5-minute bucket they were computed in ends: the data changes by whole
 * 5-minute samples, so a result older than the newest bucket is the stale one. Concurrent misses of
 * one key share one computation (a page's parallel requests, a detail opened from the page).
 *
 * The entries sit in a ResultStore: by default a bounded map of this process per ClickHouse handle
 * (the least recently used go first beyond MAX_ENTRIES or MAX_CELLS; one per handle, so stores
 * opened side by side, as tests do, never answer for each other). A store shared between processes
 * can take its place (setResultStore): values are plain JSON data (rows as the door returns them),
 * and the store decides nothing about keys, scopes or freshness.
 *
 * Values are shared, not copied: callers treat what they get as read-only.
 */
import { createHash } from "node:crypto";
import type { z } from "zod";
import { chQuery, requestDatabases, type CheckedRead, type ClickhouseHandle } from "./clickhouse/query.server";
import { describeMetric, incrementCounter } from "./metrics.server";

/** Where entries are kept: this process's memory by default, a shared store later. */
export interface ResultStore {
  get(key: string, nowMs: number): Promise<unknown> | unknown;
  /** `cells`: a size estimate (values in the result), for the store's bound. */
  set(key: string, value: unknown, expiresAtMs: number, cells: number): Promise<void> | void;
  clear(): Promise<void> | void;
}

/** Entries kept at once by the process's store. */
export const MAX_ENTRIES = 256;
/**
 * Values (numbers, strings, …) kept at once: about 8–16 bytes each in memory, so this bounds the
 * store near 100 MB. One Border Planner figures result over 30 days of the demo's 72 links is about
 * a million (the quarter-hour sums of every link).
 */
export const MAX_CELLS = 8_000_000;
/** The data's step: a new 5-minute bucket makes every result computed before it stale. */
export const FRESHNESS_MS = 300_000;

type Entry = { value: unknown; expiresAtMs: number; cells: number };

/** The default store: a map in insertion order, an entry moved to the end when read (least recently used first out). */
export class MemoryResultStore implements ResultStore {
  private readonly entries = new Map<string, Entry>();
  private cells = 0;

  constructor(
    private readonly maxEntries = MAX_ENTRIES,
    private readonly maxCells = MAX_CELLS,
  ) {}

  get(key: string, nowMs: number): unknown {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.remove(key, entry);
    if (entry.expiresAtMs <= nowMs) return undefined;
    this.entries.set(key, entry);
    this.cells += entry.cells;
    return entry.value;
  }

  set(key: string, value: unknown, expiresAtMs: number, cells: number): void {
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    // A result larger than the whole bound is not kept: it would push out everything else.
    if (cells > this.maxCells) return;
    this.entries.set(key, { value, expiresAtMs, cells });
    this.cells += cells;
    for (const [k, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.cells <= this.maxCells) break;
      this.remove(k, entry);
    }
  }

  clear(): void {
    this.entries.clear();
    this.cells = 0;
  }

  /** Entries and cells held (for tests and the bench). */
  size(): { entries: number; cells: number } {
    return { entries: this.entries.size, cells: this.cells };
  }

  private remove(key: string, entry: Entry) {
    this.entries.delete(key);
    this.cells -= entry.cells;
  }
}

const ownStores = new WeakMap<ClickhouseHandle, ResultStore>();
let sharedStore: ResultStore | null = null;
/** Computations running, per store: concurrent misses of a key wait for the same one. */
const inFlight = new WeakMap<ResultStore, Map<string, Promise<unknown>>>();

/** Puts a store in place of the per-handle ones (a store shared between processes); null goes back to them. */
export function setResultStore(next: ResultStore | null): void {
  sharedStore = next;
}

/** The store of a ClickHouse handle's results. */
export function resultStore(ch: ClickhouseHandle): ResultStore {
  if (sharedStore) return sharedStore;
  let own = ownStores.get(ch);
  if (!own) ownStores.set(ch, (own = new MemoryResultStore()));
  return own;
}

describeMetric(
  "flowlens_result_cache_total",
  "Reads answered from the result cache (hit), computed (miss) or joined while computed (shared).",
);

/** A viewer's restriction scope: what they may see beyond the read's own key. */
export function restrictionScope(viewer: { userId: number; isDelegated: boolean }): string {
  return viewer.isDelegated ? `delegated:${viewer.userId}` : "unrestricted";
}

/** JSON with object keys sorted: equal inputs, equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Values in a result (array elements and object fields, nested), the store's size estimate. */
export function cellsOf(value: unknown): number {
  if (Array.isArray(value)) {
    let n = 1;
    for (const v of value) n += typeof v === "object" && v !== null ? cellsOf(v) : 1;
    return n;
  }
  if (value && typeof value === "object") {
    let n = 1;
    for (const v of Object.values(value)) n += typeof v === "object" && v !== null ? cellsOf(v) : 1;
    return n;
  }
  return 1;
}

/** When a result computed at `nowMs` stops being fresh: the end of its 5-minute bucket. */
export function freshUntil(nowMs: number): number {
  return (Math.floor(nowMs / FRESHNESS_MS) + 1) * FRESHNESS_MS;
}

/** The store's key of a read in a scope (hashed: keys hold whole parameter lists). */
export function resultKey(name: string, parts: unknown, scope: string): string {
  const digest = createHash("sha256").update(canonicalJson(parts)).update("\n").update(scope).digest("base64url");
  return `${name}:${digest}`;
}

/**
 * The value of `compute` for this read and scope: kept for the rest of the current 5-minute bucket,
 * computed once by concurrent callers. A failure is not kept (the next caller computes again).
 */
export async function cachedResult<T>(
  store: ResultStore,
  read: { name: string; parts: unknown; scope: string },
  compute: () => Promise<T>,
  nowMs: () => number = Date.now,
): Promise<T> {
  const key = resultKey(read.name, read.parts, read.scope);
  const kept = await store.get(key, nowMs());
  if (kept !== undefined) {
    incrementCounter("flowlens_result_cache_total", { read: read.name, outcome: "hit" });
    return kept as T;
  }
  let computations = inFlight.get(store);
  if (!computations) inFlight.set(store, (computations = new Map()));
  const running = computations.get(key);
  if (running) {
    incrementCounter("flowlens_result_cache_total", { read: read.name, outcome: "shared" });
    return running as Promise<T>;
  }
  incrementCounter("flowlens_result_cache_total", { read: read.name, outcome: "miss" });
  // Stamped when the computation starts: data newer than that may be missing from it.
  const startedAt = nowMs();
  const computing = (async () => {
    const value = await compute();
    await store.set(key, value, freshUntil(startedAt), cellsOf(value));
    return value;
  })();
  computations.set(key, computing);
  try {
    return await computing;
  } finally {
    if (computations.get(key) === computing) computations.delete(key);
  }
}

/**
 * Rows of a checked ClickHouse read (chQuery) through the cache: the canonical key is the
 * statement's name, SQL and parameters; the scope is the viewer's restriction scope and the
 * databases the request reads.
 */
export async function cachedQuery<S extends z.ZodType>(ch: ClickhouseHandle, query: CheckedRead<S>, scope: string): Promise<z.output<S>[]> {
  const databases = query.databases ?? (await requestDatabases(ch));
  return cachedResult(
    resultStore(ch),
    {
      name: query.name,
      parts: { sql: query.sql, params: query.params ?? {}, settings: query.settings ?? {} },
      scope: `${scope}|${canonicalJson(databases)}`,
    },
    () => chQuery(ch, query),
  );
}
