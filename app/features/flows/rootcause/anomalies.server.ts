/**
 * The week's anomalies (GET api/rootcause/anomalies/ and the analysis form's list): the largest
 * deviations from the seasonal baseline in a range over the tracked source ASes, handover ASes,
 * ingress routers and external interfaces (anomalies.ts), each classified by the root-cause
 * analysis (analysis.server.ts), newest first.
 *
 * Computed in the background, never in the request: a request for a range not yet computed queues
 * it and answers {state: "computing"}; the task "root-cause anomalies" (wiring.server.ts,
 * runInBackground) computes one range at a time. Every read goes through the query limiter at its
 * lowest priority (query.server.ts `priority: "lowest"`), in chunks of one dimension and one day of
 * flows_5m each, so an interactive query waits at most for one such chunk. The lists are kept in
 * memory per process (ANOMALY_CACHE_RANGES ranges per set of stores, forgotten when the stores
 * close): app replicas each compute their own.
 */
import { z } from "zod";
import { getDimension, othersValue, type DimensionId } from "~/features/filter/dimensions";
import { WEEK_SECONDS, SEASONAL_WEEKS } from "~/lib/forecast-seasonal";
import { invalidInput } from "~/lib/messages";
import { DATE_RANGE_PRESETS, parseInstant, presetRange, TIME_PRESETS, type TimeRange } from "~/lib/time-range";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import { chQuery, type ClickhouseHandle } from "~/server/clickhouse/query.server";
import type { BackgroundTask } from "~/server/lifecycle.server";
import { log } from "~/server/log.server";
import { outsideRequest } from "~/server/request-scope.server";
import type { Services } from "~/server/services.server";
import { dataRange } from "../data-range.server";
import { nameAll, operatorAsn } from "../service.server";
import { bucketedTable } from "../sql";
import { checkRootCauseAccess, runRootCause } from "./analysis.server";
import {
  ANOMALY_LIMIT,
  ANOMALY_MIN_CHANGE,
  ANOMALY_MIN_NETWORK_SHARE,
  ANOMALY_STEP_SECONDS,
  detectAnomalies,
  type ObjectSeries,
} from "./anomalies";
import type { Classification } from "./classify";
import { formatDuration, MAX_DURATION_SECONDS } from "./duration";
import { OBJECT_DIMENSIONS, rootCauseHref, type ObjectDimension } from "./link";

type Stores = Pick<Services, "pg" | "ch">;

/** The longest range of the list (the analysis's longest period). */
export const ANOMALY_MAX_RANGE_SECONDS = MAX_DURATION_SECONDS;
/** Ranges whose list each process keeps per set of stores (the oldest computed is dropped first). */
export const ANOMALY_CACHE_RANGES = 12;
/** The range without parameters. */
export const ANOMALY_DEFAULT_RANGE = "LAST_7_DAYS" as const;
const DAY = 86_400;
const PRESETS: readonly string[] = [...DATE_RANGE_PRESETS, ...TIME_PRESETS];

// ---------------------------------------------------------------------------------------------------------------
// Input: the spec's URL date parameters (dateRange, or start and end), read as the Flow Explorer reads them

const param = z.string().max(100).optional();

/**
 * The query of GET api/rootcause/anomalies/: dateRange (a preset of at most 7 days; default
 * LAST_7_DAYS), or start and end (unix seconds or the Flow Explorer's dates, UTC) at most 7 days
 * apart. A bad value: the spec's "{value} is not a valid {name} input".
 */
export const anomaliesQuerySchema = z
  .object({ dateRange: param, start: param, end: param })
  .transform((q, ctx): TimeRange & { preset: string | null } => {
    const fail = (name: "dateRange" | "start" | "end", value: string) => {
      ctx.addIssue({ code: "custom", path: [name], message: invalidInput(value, name) });
      return z.NEVER;
    };
    const explicit = q.dateRange === undefined || q.dateRange === "CUSTOM";
    if (explicit && (q.start !== undefined || q.end !== undefined)) {
      const start = parseInstant(q.start, "UTC", "start");
      const end = parseInstant(q.end, "UTC", "end");
      if (start === null) return fail("start", q.start ?? "");
      if (end === null || end <= start || end - start > ANOMALY_MAX_RANGE_SECONDS) return fail("end", q.end ?? "");
      return { start, end, preset: null };
    }
    const preset = q.dateRange === undefined || q.dateRange === "CUSTOM" ? ANOMALY_DEFAULT_RANGE : q.dateRange;
    if (!PRESETS.includes(preset)) return fail("dateRange", preset);
    const range = presetRange(preset as (typeof DATE_RANGE_PRESETS)[number], Math.floor(Date.now() / 1000));
    if (range.end - range.start > ANOMALY_MAX_RANGE_SECONDS) return fail("dateRange", preset);
    return { ...range, preset };
  });
export type AnomaliesRequest = z.output<typeof anomaliesQuerySchema>;

// ---------------------------------------------------------------------------------------------------------------
// Result

export type ListedAnomaly = {
  dimension: ObjectDimension;
  value: string;
  name: string;
  start: number;
  end: number;
  duration: string;
  direction: "rise" | "fall";
  fromRangeStart: boolean;
  peakTime: number;
  peakBps: number;
  peakBaselineBps: number;
  peakDeviationBps: number;
  peakShare: number | null;
  meanDeviationBps: number;
  classification: Classification;
  reason: string;
  /** The analysis of the anomaly (its object over its period, at most 7 days from its start). */
  href: string;
};

export type AnomalyList = {
  state: "ready";
  range: { start: number; end: number };
  step: number;
  computedAt: number;
  thresholds: { minChange: number; minNetworkShare: number; limit: number };
  anomalies: ListedAnomaly[];
  /** Why the list may miss anomalies (a range without a baseline). */
  notes: string[];
};

/** The note of a range whose (first) buckets have no seasonal baseline. */
export const NO_BASELINE_NOTE = "Part of the range has no seasonal baseline: the flow data start less than a week before it.";

export type AnomaliesAnswer = { state: "computing" } | AnomalyList;

// ---------------------------------------------------------------------------------------------------------------
// Background computation and cache

type Job = { key: string; stores: Stores; user: UserContext; range: TimeRange; cancelled: boolean };
type Entry = { state: "computing"; job: Job } | AnomalyList;

const lists = new WeakMap<ClickhouseHandle, Map<string, Entry>>();
const queue: Job[] = [];
let started = false;
let running: { job: Job; done: Promise<void> } | null = null;

class Cancelled extends Error {}

const entriesOf = (ch: ClickhouseHandle) => {
  let map = lists.get(ch);
  if (!map) lists.set(ch, (map = new Map()));
  return map;
};

function pump(): void {
  if (!started || running) return;
  const job = queue.shift();
  if (!job) return;
  const done = outsideRequest(() => computeAnomalies(job))
    .then((list) => {
      const map = entriesOf(job.stores.ch);
      if (job.cancelled) return;
      map.set(job.key, list);
      // The oldest computed ranges beyond the cap are dropped (a Map keeps insertion order).
      const ready = [...map].filter(([, e]) => e.state === "ready");
      for (const [key] of ready.slice(0, Math.max(0, ready.length - ANOMALY_CACHE_RANGES))) map.delete(key);
    })
    .catch((error: unknown) => {
      // Not kept: the next request for the range queues it again.
      lists.get(job.stores.ch)?.delete(job.key);
      if (!(error instanceof Cancelled)) log.error(`root-cause anomalies of ${job.key} failed: ${String(error)}`);
    })
    .finally(() => {
      running = null;
      pump();
    });
  running = { job, done };
}

/** The background task (wiring.server.ts): computes the queued ranges while the process lives. */
export const rootCauseAnomaliesTask: BackgroundTask = {
  start: () => {
    started = true;
    pump();
  },
  stop: async () => {
    started = false;
    for (const job of queue.splice(0)) {
      job.cancelled = true;
      lists.get(job.stores.ch)?.delete(job.key);
    }
    if (running) {
      running.job.cancelled = true;
      await running.done;
    }
  },
};

/** Forgets the lists of closing stores, and stops computing for them. */
export function forgetAnomalies(stores: Stores): void {
  for (const job of [...queue, ...(running ? [running.job] : [])]) if (job.stores.ch === stores.ch) job.cancelled = true;
  for (let i = queue.length - 1; i >= 0; i--) if (queue[i].cancelled) queue.splice(i, 1);
  lists.delete(stores.ch);
}

/** The range on the detector's grid: whole hours, cut to the flow data (null: no complete hour of data in it). */
async function gridRange(stores: Stores, range: TimeRange): Promise<TimeRange | null> {
  const data = await dataRange(stores);
  if (data.minTimestamp === null || data.maxTimestamp === null) return null;
  const step = ANOMALY_STEP_SECONDS;
  const start = Math.max(Math.floor(range.start / step) * step, Math.ceil(data.minTimestamp / step) * step);
  const end = Math.min(Math.floor(range.end / step) * step, Math.floor((data.maxTimestamp + 300) / step) * step);
  return end > start ? { start, end } : null;
}

const emptyList = (range: TimeRange): AnomalyList => ({
  state: "ready",
  range,
  step: ANOMALY_STEP_SECONDS,
  computedAt: Math.floor(Date.now() / 1000),
  thresholds: { minChange: ANOMALY_MIN_CHANGE, minNetworkShare: ANOMALY_MIN_NETWORK_SHARE, limit: ANOMALY_LIMIT },
  anomalies: [],
  notes: [],
});

/**
 * The list of a range: ready from the cache, or {state: "computing"} (queued now if it was not).
 * Access as the analysis: API_FLOWS_4D (the endpoint), API_FLOWS_INTERFACES, never a delegated user (403).
 */
export async function requestAnomalies(stores: Stores, user: UserContext, request: TimeRange): Promise<AnomaliesAnswer> {
  checkRootCauseAccess(user, "INTERFACE_IN");
  const range = await gridRange(stores, request);
  if (!range) return { ...emptyList({ start: request.start, end: request.end }), notes: ["There is no flow data in the range."] };
  const key = `${range.start}-${range.end}`;
  const map = entriesOf(stores.ch);
  const entry = map.get(key);
  if (entry?.state === "ready") return entry;
  if (!entry) {
    const job: Job = { key, stores, user, range, cancelled: false };
    map.set(key, { state: "computing", job });
    queue.push(job);
    pump();
  }
  return { state: "computing" };
}

// ---------------------------------------------------------------------------------------------------------------
// The computation

const rowSchema = z.object({ bucket: z.number(), value: z.string(), bps: z.number() });

/** Values that are no object of their own: Others (outside the tracked top 200), AS 0 and empty names. */
const tracked = (dimension: DimensionId, value: string) =>
  value !== "" && value !== String(othersValue(dimension)) && !(getDimension(dimension).filterKind === "AS_NUMBER" && value === "0");

async function computeAnomalies(job: Job): Promise<AnomalyList> {
  const { stores, user, range } = job;
  const step = ANOMALY_STEP_SECONDS;
  const check = () => {
    if (job.cancelled) throw new Cancelled();
  };
  const data = await dataRange(stores);
  const firstKnown = Math.floor((data.minTimestamp ?? 0) / step) * step;
  const dataEnd = range.end;
  const gridStart = range.start - SEASONAL_WEEKS * WEEK_SECONDS;
  const n = (range.end - gridStart) / step;
  const known = (i: number) => {
    const t = gridStart + i * step;
    return t >= firstKnown && t < dataEnd;
  };
  const operator = await operatorAsn(stores);
  const series = new Map<string, ObjectSeries & { values: (number | null)[] }>();
  const total = Array.from({ length: n }, (_, i) => (known(i) ? 0 : null)) as (number | null)[];
  // One chunk: one dimension over one day (at most) of flows_5m.
  for (const dimension of OBJECT_DIMENSIONS) {
    for (let from = Math.max(gridStart, firstKnown); from < range.end; from = Math.floor(from / DAY) * DAY + DAY) {
      check();
      const to = Math.min(range.end, Math.floor(from / DAY) * DAY + DAY);
      const inner = bucketedTable([dimension], { range: { start: from, end: to }, window: step, table: "flows_5m", operatorAsn: operator });
      const rows = await chQuery(stores.ch, {
        name: "rootcause.anomalies",
        sql: `SELECT bucket, toString(${dimension}) AS value, bps FROM (${inner.sql})`,
        params: inner.params,
        priority: "lowest",
        schema: rowSchema,
      });
      for (const r of rows) {
        const i = (r.bucket - gridStart) / step;
        if (!Number.isInteger(i) || i < 0 || i >= n || !known(i)) continue;
        // The network's ingress: every router's traffic together.
        if (dimension === "ROUTER_IN") total[i] = (total[i] ?? 0) + r.bps;
        if (!tracked(dimension, r.value)) continue;
        const id = `${dimension}\u0000${r.value}`;
        let s = series.get(id);
        if (!s) {
          s = { dimension, value: r.value, values: Array.from({ length: n }, (_, k) => (known(k) ? 0 : null)) };
          series.set(id, s);
        }
        s.values[i] = (s.values[i] ?? 0) + r.bps;
      }
    }
  }
  const detected = detectAnomalies({ gridStart, step, rangeStart: range.start, rangeEnd: range.end, total, objects: [...series.values()] });

  const label = await nameAll(
    stores,
    user,
    detected.map((a) => ({ dimension: a.dimension, key: a.value })),
  );
  const anomalies: ListedAnomaly[] = [];
  for (const a of detected) {
    check();
    const duration = Math.min(a.end - a.start, MAX_DURATION_SECONDS);
    const startText = new Date(a.start * 1000).toISOString().replace(/\.000Z$/, "Z");
    const durationText = formatDuration(duration);
    let classification: Classification = "Unknown";
    let reason: string;
    try {
      const analysis = await runRootCause(
        stores,
        user,
        { dimension: a.dimension, value: a.value, start: a.start, duration, startText, durationText },
        // Only the classification is kept: the raw records' top addresses (routing evidence) are not read.
        { priority: "lowest", topAddresses: false },
      );
      classification = analysis.classification;
      reason = analysis.reason;
    } catch (error) {
      if (!(error instanceof ApiProblem) || error.status >= 500) throw error;
      reason = error.body.errors?.map((e) => e.message).join(" ") ?? error.body.detail;
    }
    anomalies.push({
      ...a,
      name: label(a.dimension, a.value).name,
      duration: formatDuration(a.end - a.start),
      classification,
      reason,
      href: rootCauseHref({ dimension: a.dimension, value: a.value, start: startText, duration: durationText }),
    });
  }
  const notes = data.minTimestamp === null || data.minTimestamp > range.start - WEEK_SECONDS ? [NO_BASELINE_NOTE] : [];
  return { ...emptyList(range), anomalies, notes };
}
