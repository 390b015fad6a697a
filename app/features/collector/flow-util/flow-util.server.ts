/**
 * The writer of flow-derived interface utilisation: interface_util_5m rows with source 'flows'
 * (which records count for which interface: rows.ts). Readers take SNMP's row where both exist
 * (util-source.ts), so these rows serve the interfaces without SNMP, and where both exist the
 * planners compare the two (a wrong sampling rate shows as a ratio far from 1).
 *
 * It reads flows_raw, not flows_5m: the 5-minute aggregates keep only the records that count a flow
 * once (counted = 1), and leave out the records of the second and later routers a flow crosses —
 * the only ones that tell the core interface it came in by there and the interface it left by.
 * flows_raw keeps records for its retention (7 days by default), so the first run, although allowed
 * FLOWS_UTIL_BACKFILL_DAYS back, starts at the oldest raw record it finds.
 *
 * Catch-up: system_state `flows_util` holds the watermark (the end of the last interval written,
 * unix seconds). Each run rewrites from the watermark less LATE_MARGIN_SECONDS (flows exported late
 * land in intervals already written; ReplacingMergeTree(written_at) replaces the row of the same
 * router, interface, time and source) to the last closed interval, at most MAX_RUN_SECONDS of
 * intervals, so a long catch-up is many short runs, never one that stalls. Intervals before the end of
 * the demo's generated history are never written: the demo keeps its generated counters.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { systemState } from "~db/postgres/schema";
import { chInsert, chQuery } from "~/server/clickhouse/query.server";
import type { BackgroundTask } from "~/server/lifecycle.server";
import { log } from "~/server/log.server";
import { describeMetric, incrementCounter, recordDuration, setGauge } from "~/server/metrics.server";
import type { Services } from "~/server/services.server";
import { listRouters } from "~/features/inventory/inventory.server";
import { flowUtilRows, INTERVAL_SECONDS, runRange, type ExportedBytes } from "./rows";

export const FLOWS_UTIL_KEY = "flows_util";
/** Flows that arrive up to this long after their interval closed are still counted. */
export const LATE_MARGIN_SECONDS = 30 * 60;
/** At most one day of intervals per run. */
export const MAX_RUN_SECONDS = 24 * 60 * 60;
const INSERT_BATCH = 50_000;

const METRICS = {
  runs: "flowlens_flow_util_runs_total",
  failures: "flowlens_flow_util_failures_total",
  rows: "flowlens_flow_util_rows_total",
  watermark: "flowlens_flow_util_watermark_seconds",
  duration: "flowUtil.run",
} as const;
describeMetric(METRICS.runs, "Runs of the flow-derived interface utilisation writer");
describeMetric(METRICS.failures, "Runs of the flow-derived interface utilisation writer that failed");
describeMetric(METRICS.rows, "interface_util_5m rows written with source flows");
describeMetric(METRICS.watermark, "End of the last interval the flow-derived interface utilisation covers, unix seconds");

export type FlowUtilState = { through: number };

export type FlowUtilOutcome = {
  /** The intervals written, unix seconds, [from, to); from = to when there was nothing to do. */
  from: number;
  to: number;
  rows: number;
  /** The watermark after the run. */
  through: number;
  /** False when the run stopped at its bound and more closed intervals wait. */
  caughtUp: boolean;
};

const stateSchema = z.object({ through: z.number().int() });
const demoSchema = z.object({ end: z.number() });

async function readState(services: Pick<Services, "pg">, key: string) {
  const [row] = await services.pg.db.select().from(systemState).where(eq(systemState.key, key));
  return row?.value ?? null;
}

/** The watermark, or null before the first run. */
export async function flowUtilState(services: Pick<Services, "pg">): Promise<FlowUtilState | null> {
  const parsed = stateSchema.safeParse(await readState(services, FLOWS_UTIL_KEY));
  return parsed.success ? parsed.data : null;
}

const exportedSchema = z.object({
  t: z.coerce.number(),
  router: z.string(),
  interface: z.string(),
  in_bytes: z.coerce.number(),
  out_bytes: z.coerce.number(),
});

/**
 * Bytes × sampling rate per (interval, exporting router, interface of that router), in and out.
 * The out interface of a record is its out_if when it is this router's external or access
 * interface, else the core interface it left by (link_start_if; the enrichment names this router
 * link_start_router then). Interfaces the enrichment did not know are "" and still mark the router
 * as exporting in that interval. A dropped packet counts in, not out.
 */
export function exportedBytesQuery(range: { from: number; to: number }) {
  const sql = [
    "SELECT toUnixTimestamp(toStartOfFiveMinutes(time_received)) AS t, exporter_name AS router, side.1 AS interface,",
    "  toString(sumIf(toUInt64(bytes) * sampling_rate, side.2 = 0)) AS in_bytes,",
    // Packets the router dropped (forwarding status 10xxxxxx) came in and never left.
    "  toString(sumIf(toUInt64(bytes) * sampling_rate, side.2 = 1 AND bitShiftRight(forwarding_status, 6) != 2)) AS out_bytes",
    "FROM flows_raw",
    "ARRAY JOIN [",
    "  (in_if, 0),",
    "  (multiIf(out_if != '' AND egress_router = exporter_name, out_if, link_start_router = exporter_name, link_start_if, ''), 1)",
    "] AS side",
    "WHERE time_received >= toDateTime({from:UInt32}, 'UTC') AND time_received < toDateTime({to:UInt32}, 'UTC')",
    "  AND exporter_name != ''",
    "GROUP BY t, router, interface",
  ].join("\n");
  return { name: "flowUtil.exported", sql, params: { from: range.from, to: range.to } };
}

/** The start of the interval of the oldest raw record at or after `from`, or null when there is none. */
async function firstRecord(services: Pick<Services, "ch">, from: number, to: number): Promise<number | null> {
  const [row] = await chQuery(services.ch, {
    name: "flowUtil.firstRecord",
    sql: [
      "SELECT count() AS n, toUnixTimestamp(toStartOfFiveMinutes(min(time_received))) AS t FROM flows_raw",
      "WHERE time_received >= toDateTime({from:UInt32}, 'UTC') AND time_received < toDateTime({to:UInt32}, 'UTC')",
      "  AND exporter_name != ''",
    ].join("\n"),
    params: { from, to },
    schema: z.object({ n: z.coerce.number(), t: z.coerce.number() }),
  });
  return row && row.n > 0 ? row.t : null;
}

/** One run at `now`: writes the intervals due and moves the watermark. */
export async function writeFlowUtil(services: Pick<Services, "pg" | "ch" | "config">, now = new Date()): Promise<FlowUtilOutcome> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const state = await flowUtilState(services);
  const demo = demoSchema.safeParse(await readState(services, "demo"));
  let { from, to } = runRange({
    now: nowSeconds,
    watermark: state?.through ?? null,
    lateMarginSeconds: LATE_MARGIN_SECONDS,
    backfillSeconds: services.config.FLOWS_UTIL_BACKFILL_DAYS * 86_400,
    maxSeconds: MAX_RUN_SECONDS,
    demoEnd: demo.success ? demo.data.end : null,
  });
  const lastClosedEnd = Math.floor(nowSeconds / INTERVAL_SECONDS) * INTERVAL_SECONDS;
  if (from < to) {
    // Skip the stretch without records (the first run's backfill reaches past the raw retention,
    // a collector that was off): its intervals would get no rows anyway.
    const first = await firstRecord(services, from, lastClosedEnd);
    if (first === null) from = to = Math.max(from, lastClosedEnd);
    else if (first > from) ({ from, to } = { from: first, to: Math.min(lastClosedEnd, first + MAX_RUN_SECONDS) });
  }

  let written = 0;
  if (from < to) {
    const built = exportedBytesQuery({ from, to });
    const exported = await chQuery(services.ch, { ...built, schema: exportedSchema });
    const rows = flowUtilRows(
      exported.map((e): ExportedBytes => ({
        time: e.t,
        router: e.router,
        interface: e.interface,
        inBytes: e.in_bytes,
        outBytes: e.out_bytes,
      })),
      await listRouters(services),
    );
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      await chInsert(services.ch, { name: "flowUtil.interfaceUtil", table: "interface_util_5m", values: rows.slice(i, i + INSERT_BATCH) });
    }
    written = rows.length;
  }

  // The watermark never goes back (a run with nothing to do keeps it, or moves it past the demo).
  const through = Math.max(state?.through ?? to, to);
  await services.pg.db
    .insert(systemState)
    .values({ key: FLOWS_UTIL_KEY, value: { through } satisfies FlowUtilState })
    .onConflictDoUpdate({ target: systemState.key, set: { value: { through } satisfies FlowUtilState, updatedAt: now } });
  return { from, to, rows: written, through, caughtUp: to >= lastClosedEnd };
}

/** The next run starts a minute after a 5-minute boundary, when most flows of the interval just closed have arrived. */
const RUN_OFFSET_MS = 60_000;
/** While catching up, runs follow each other after this pause. */
const CATCH_UP_PAUSE_MS = 5_000;

let timer: ReturnType<typeof setTimeout> | null = null;
let running: Promise<unknown> | null = null;
let stopped = true;

function schedule(services: Services, delayMs: number) {
  if (stopped) return;
  timer = setTimeout(() => {
    timer = null;
    const started = Date.now();
    let next = nextBoundaryDelay(Date.now());
    running = writeFlowUtil(services)
      .then((o) => {
        incrementCounter(METRICS.runs);
        incrementCounter(METRICS.rows, o.rows);
        setGauge(METRICS.watermark, o.through);
        if (o.rows)
          log.debug(
            `flow utilisation: ${o.rows} rows for ${new Date(o.from * 1000).toISOString()} to ${new Date(o.to * 1000).toISOString()}`,
          );
        if (!o.caughtUp) next = CATCH_UP_PAUSE_MS;
      })
      .catch((error) => {
        incrementCounter(METRICS.failures);
        log.warn(`flow utilisation failed: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        recordDuration(METRICS.duration, Date.now() - started);
        running = null;
        schedule(services, next);
      });
  }, delayMs);
  timer.unref();
}

export function nextBoundaryDelay(nowMs: number): number {
  const period = INTERVAL_SECONDS * 1000;
  return Math.floor(nowMs / period) * period + period + RUN_OFFSET_MS - nowMs;
}

/**
 * Every 5 minutes in the process that runs the ingest components (lifecycle `where: "component
 * host"`), a minute after the boundary; off with FLOWS_UTIL=off. The first run comes a minute after
 * the start, so a collector starting beside it has written its first records.
 */
export const flowUtilTask: BackgroundTask = {
  where: "component host",
  start(services) {
    if (services.config.FLOWS_UTIL === "off" || !stopped) return;
    stopped = false;
    schedule(services, RUN_OFFSET_MS);
  },
  async stop() {
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = null;
    await running;
  },
};
