/**
 * The second client's computations (api/v2/, docs/api.md "The second client"): a heavy call is
 * answered at once with {status: "Started", id} while its api/ twin's handler runs as a job, and
 * the same request sent again answers Started until the result is there, then the result.
 *
 * Results live in PostgreSQL (api_v2_results), which every web replica reads: one row per key
 * (key.server.ts, the query after resolution), so identical requests, on any replica, share one
 * computation — the unique key decides which request starts it; the others join it.
 *
 * Which process computes: the one that received the request that created the row. It runs the job
 * in the asking user's request scope (runAsJob): the analytics query limiter counts the job's reads
 * against that user, the user's database override applies, and the reads carry the job's time
 * limit (API_V2_MAX_EXECUTION_SECONDS), abort signal and, on a ClickHouse server, query ids.
 *
 * While a job runs, its process stamps the row every HEARTBEAT_MS and reads when a caller last asked
 * for it (asked_at, set by every re-sent call and poll, on any replica). A job nobody asked for
 * during API_V2_ABANDON_SECONDS is cancelled: its signal aborts, its queries are killed (KILL QUERY
 * on a server; embedded chDB cannot kill a running statement, so there the time limit ends it) and
 * the row becomes Failed (resolvable). A row whose process stopped stamping it (a restart, a crash)
 * is seen as Failed (resolvable) by the next poll after STALE_MS: never a poll that hangs.
 *
 * Bounds: at most API_V2_PENDING_PER_USER computations a user started are pending at once (more:
 * 429 with Retry-After, joining one already running is free); a finished result is kept
 * API_V2_RESULT_TTL_SECONDS; the stored results together stay under API_V2_RESULTS_MAX_BYTES (the
 * oldest finished go first; one larger than the bound is Failed, resolvable).
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { and, count, eq, inArray, lte, sql } from "drizzle-orm";
import { apiV2Results } from "~db/postgres/schema";
import { describeMetric, incrementCounter } from "~/server/metrics.server";
import { killJobQueries } from "~/server/clickhouse/query.server";
import { busyResponse } from "~/server/clickhouse/limits.server";
import { log } from "~/server/log.server";
import { runAsJob, type ScopeJob } from "~/server/request-scope.server";
import type { Services } from "~/server/services.server";

type Row = typeof apiV2Results.$inferSelect;

/** This process, as the rows name their computing process. */
export const OWNER = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

/** How often a running job's process stamps its row and looks for abandoned jobs. */
let HEARTBEAT_MS = 5_000;
/** A Started row not stamped for this long belongs to a process that stopped. */
let STALE_MS = 30_000;
/** Expired rows are deleted at most this often per process. */
const SWEEP_MS = 60_000;

/** Test hook: shorter heartbeat and staleness. */
export function setJobTimingForTests(timing: { heartbeatMs: number; staleMs: number } | null): void {
  HEARTBEAT_MS = timing?.heartbeatMs ?? 5_000;
  STALE_MS = timing?.staleMs ?? 30_000;
}

export const INTERRUPTED_DETAIL = "The computation of this result was interrupted (a server restarted). Please send the request again.";
export const abandonedDetail = (seconds: number) =>
  `Nobody asked for this result for ${seconds} seconds, so its computation was cancelled. Please send the request again.`;
export const TOO_LARGE_DETAIL = "The result is too large to keep. Please narrow the time range or add a filter.";
export const pendingLimitDetail = (n: number) => `You have ${n} results being computed. Please wait until one of them is ready.`;

describeMetric("flowlens_api_v2_total", "Second-client (api/v2/) answers by call and outcome (started, joined, result, failed, refused).");

type LocalJob = { controller: AbortController; prefix: string; services: Services };
/** The jobs this process runs, by result id. */
const local = new Map<string, LocalJob>();
let ticker: ReturnType<typeof setInterval> | null = null;
let lastSweep = 0;

const secondsFromNow = (seconds: number) => new Date(Date.now() + seconds * 1000);

/** The body of a row as the second client reads it. */
function answerOf(row: Row): Response {
  if (row.state === "Done") return Response.json(row.result, { headers: { "Cache-Control": "no-store" } });
  if (row.state === "Failed")
    return Response.json(
      { status: "Failed", id: row.id, resolvable: row.resolvable === true, detail: row.detail ?? "" },
      { headers: { "Cache-Control": "no-store" } },
    );
  return Response.json({ status: "Started", id: row.id }, { headers: { "Cache-Control": "no-store" } });
}

/** A Started row whose process stopped stamping it becomes Failed (resolvable); a caller asking for it is noted. */
async function refresh(services: Services, row: Row): Promise<Row> {
  const db = services.pg.db;
  if (row.state !== "Started") return row;
  if (row.heartbeatAt.getTime() < Date.now() - STALE_MS && !local.has(row.id)) {
    const [failed] = await db
      .update(apiV2Results)
      .set({
        state: "Failed",
        resolvable: true,
        detail: INTERRUPTED_DETAIL,
        finishedAt: new Date(),
        expiresAt: secondsFromNow(services.config.API_V2_RESULT_TTL_SECONDS),
      })
      .where(
        and(eq(apiV2Results.id, row.id), eq(apiV2Results.state, "Started"), lte(apiV2Results.heartbeatAt, new Date(Date.now() - STALE_MS))),
      )
      .returning();
    if (failed) return failed;
  }
  const [asked] = await db.update(apiV2Results).set({ askedAt: new Date() }).where(eq(apiV2Results.id, row.id)).returning();
  return asked ?? row;
}

async function findByKey(services: Services, key: string): Promise<Row | null> {
  const [row] = await services.pg.db.select().from(apiV2Results).where(eq(apiV2Results.key, key));
  return row && row.expiresAt.getTime() > Date.now() ? row : null;
}

/** A stored result by id (GET api/v2/results/{id}/), null when none has it (any form of id). */
export async function resultById(services: Services, id: string): Promise<Response | null> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return null;
  const [row] = await services.pg.db.select().from(apiV2Results).where(eq(apiV2Results.id, id));
  if (!row || row.expiresAt.getTime() <= Date.now()) return null;
  return answerOf(await refresh(services, row));
}

export type Computation = {
  services: Services;
  key: string;
  call: string;
  userId: number | null;
  /** Runs the twin's handler; its signal aborts when the job is cancelled. */
  compute: (signal: AbortSignal) => Promise<Response>;
};

/**
 * The answer to a second-client call: the result when it is there, Started while it is computed
 * (starting the computation when nobody did), Failed once (the row is then forgotten, so the next
 * request computes anew), 429 when the user has too many computations pending.
 */
export async function answerCall(c: Computation): Promise<Response> {
  const { services, key } = c;
  const db = services.pg.db;
  void sweep(services);
  let row = await findByKey(services, key);
  if (!row) {
    if (c.userId !== null) {
      const [{ pending }] = await db
        .select({ pending: count() })
        .from(apiV2Results)
        .where(and(eq(apiV2Results.userId, c.userId), eq(apiV2Results.state, "Started"), sql`${apiV2Results.expiresAt} > now()`));
      const limit = services.config.API_V2_PENDING_PER_USER;
      if (pending >= limit) {
        incrementCounter("flowlens_api_v2_total", { call: c.call, outcome: "refused" });
        return busyResponse(429, "too_many_queries", pendingLimitDetail(pending), Math.max(1, Math.ceil(HEARTBEAT_MS / 1000)));
      }
    }
    // An expired row of the key would block the new one.
    await db.delete(apiV2Results).where(and(eq(apiV2Results.key, key), lte(apiV2Results.expiresAt, new Date())));
    const config = services.config;
    const [created] = await db
      .insert(apiV2Results)
      .values({
        id: randomBytes(16).toString("base64url"),
        key,
        call: c.call,
        userId: c.userId,
        owner: OWNER,
        expiresAt: secondsFromNow(config.API_V2_MAX_EXECUTION_SECONDS + config.API_V2_ABANDON_SECONDS + config.API_V2_RESULT_TTL_SECONDS),
      })
      .onConflictDoNothing({ target: apiV2Results.key })
      .returning();
    if (created) {
      incrementCounter("flowlens_api_v2_total", { call: c.call, outcome: "started" });
      start(c, created);
      return answerOf(created);
    }
    row = await findByKey(services, key);
    // Gone between the insert and the read (finished and failed, evicted): the caller asks again.
    if (!row) return Response.json({ status: "Started", id: null }, { headers: { "Cache-Control": "no-store" } });
  }
  row = await refresh(services, row);
  incrementCounter("flowlens_api_v2_total", {
    call: c.call,
    outcome: row.state === "Started" ? "joined" : row.state === "Done" ? "result" : "failed",
  });
  if (row.state === "Failed") await db.delete(apiV2Results).where(and(eq(apiV2Results.id, row.id), eq(apiV2Results.state, "Failed")));
  return answerOf(row);
}

function start(c: Computation, row: Row) {
  const controller = new AbortController();
  const prefix = `flowlens-v2-${row.id}`;
  local.set(row.id, { controller, prefix, services: c.services });
  ensureTicker();
  const job: ScopeJob = {
    queryIdPrefix: prefix,
    reads: 0,
    maxExecutionSeconds: c.services.config.API_V2_MAX_EXECUTION_SECONDS,
    signal: controller.signal,
  };
  void runAsJob(job, async () => {
    let outcome: Partial<Row>;
    try {
      const response = await c.compute(controller.signal);
      outcome = await outcomeOf(c.services, response);
    } catch (error) {
      log.error(`api/v2/${c.call} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      outcome = { state: "Failed", resolvable: false, detail: "The application server has encountered an error." };
    }
    try {
      if (controller.signal.aborted) return;
      await c.services.pg.db
        .update(apiV2Results)
        .set({ ...outcome, finishedAt: new Date(), expiresAt: secondsFromNow(c.services.config.API_V2_RESULT_TTL_SECONDS) })
        .where(and(eq(apiV2Results.id, row.id), eq(apiV2Results.state, "Started")));
      if (outcome.state === "Done") await enforceSizeCap(c.services);
    } catch (error) {
      log.error(`api/v2/${c.call}: storing the result failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      local.delete(row.id);
    }
  });
}

/** Codes of the limiter and the query door whose text tells the user what to do (a Failed result they can resolve). */
const RESOLVABLE_CODES = new Set(["too_many_queries", "server_busy", "query_too_broad"]);

/** The row a finished handler's response makes: Done with its JSON, or Failed with its reason. */
export async function outcomeOf(services: Pick<Services, "config">, response: Response): Promise<Partial<Row>> {
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  const body = data && typeof data === "object" ? (data as Record<string, unknown>) : {};
  // A 400's reasons per field are part of what the user reads (e.g. "The window is too small for the range …").
  const reasons = Array.isArray(body.errors)
    ? body.errors.flatMap((e: unknown) =>
        e && typeof e === "object" && typeof (e as { message?: unknown }).message === "string" ? [(e as { message: string }).message] : [],
      )
    : [];
  const detail = typeof body.detail === "string" ? [body.detail, ...reasons].join(" ") : "The application server has encountered an error.";
  if (response.ok) {
    const size = Buffer.byteLength(text);
    if (size > services.config.API_V2_RESULTS_MAX_BYTES) return { state: "Failed", resolvable: true, detail: TOO_LARGE_DETAIL };
    return { state: "Done", result: data, sizeBytes: size };
  }
  const code = typeof body.exception_code === "string" ? body.exception_code : "";
  const resolvable = (response.status >= 400 && response.status < 500) || RESOLVABLE_CODES.has(code);
  return { state: "Failed", resolvable, detail: resolvable ? detail : "The application server has encountered an error." };
}

/** The stored results together under API_V2_RESULTS_MAX_BYTES: the oldest finished go first. */
async function enforceSizeCap(services: Services): Promise<void> {
  await services.pg.db.execute(sql`
    DELETE FROM api_v2_results WHERE id IN (
      SELECT id FROM (
        SELECT id, SUM(size_bytes) OVER (ORDER BY finished_at DESC NULLS LAST, id) AS total
        FROM api_v2_results WHERE state <> 'Started'
      ) kept WHERE kept.total > ${services.config.API_V2_RESULTS_MAX_BYTES}
    )`);
}

async function sweep(services: Services): Promise<void> {
  if (Date.now() - lastSweep < SWEEP_MS) return;
  lastSweep = Date.now();
  await services.pg.db
    .delete(apiV2Results)
    .where(lte(apiV2Results.expiresAt, new Date()))
    .catch(() => undefined);
}

function ensureTicker() {
  if (ticker) return;
  ticker = setInterval(() => void tick(), HEARTBEAT_MS);
  ticker.unref?.();
}

/** Stamps this process's running jobs, cancels those nobody asked for during API_V2_ABANDON_SECONDS. */
export async function tick(): Promise<void> {
  if (local.size === 0) {
    if (ticker) clearInterval(ticker);
    ticker = null;
    return;
  }
  const byServices = new Map<Services, string[]>();
  for (const [id, job] of local) byServices.set(job.services, [...(byServices.get(job.services) ?? []), id]);
  for (const [services, ids] of byServices) {
    try {
      const stamped = await services.pg.db
        .update(apiV2Results)
        .set({ heartbeatAt: new Date() })
        .where(and(inArray(apiV2Results.id, ids), eq(apiV2Results.state, "Started")))
        .returning({ id: apiV2Results.id, askedAt: apiV2Results.askedAt });
      const alive = new Map(stamped.map((r) => [r.id, r.askedAt]));
      const abandonMs = services.config.API_V2_ABANDON_SECONDS * 1000;
      for (const id of ids) {
        const askedAt = alive.get(id);
        // Gone or no longer Started (evicted, failed by another replica): nobody can read this job's result.
        if (askedAt === undefined) await cancel(services, id, null);
        else if (askedAt.getTime() < Date.now() - abandonMs)
          await cancel(services, id, abandonedDetail(services.config.API_V2_ABANDON_SECONDS));
      }
    } catch (error) {
      log.warn(`api/v2/: heartbeat failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Ends a running job: its signal aborts, its queries are killed on a server, its row says why (`detail`, null: untouched). */
async function cancel(services: Services, id: string, detail: string | null): Promise<void> {
  const job = local.get(id);
  if (!job) return;
  local.delete(id);
  job.controller.abort(new DOMException("The computation was cancelled.", "AbortError"));
  incrementCounter("flowlens_api_v2_total", { call: "-", outcome: "cancelled" });
  await killJobQueries(services.ch, job.prefix).catch((error: unknown) =>
    log.warn(`api/v2/: KILL QUERY failed: ${error instanceof Error ? error.message : String(error)}`),
  );
  if (detail !== null)
    await services.pg.db
      .update(apiV2Results)
      .set({
        state: "Failed",
        resolvable: true,
        detail,
        finishedAt: new Date(),
        expiresAt: secondsFromNow(services.config.API_V2_RESULT_TTL_SECONDS),
      })
      .where(and(eq(apiV2Results.id, id), eq(apiV2Results.state, "Started")));
}

/** Jobs this process runs now (tests, the health view). */
export function runningJobs(): number {
  return local.size;
}
