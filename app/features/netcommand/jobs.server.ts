/**
 * Network command jobs (looking glass §3, §4): ping and traceroute from a vantage point, created
 * by a request and run by a worker (runner.server.ts). Every state lives in PostgreSQL, so the
 * replica that answers a poll need not be the one that created or runs the job.
 *
 *   PENDING ──claim──▶ STARTED ──▶ SUCCESS (the output)
 *                        │    └──▶ FAILURE (the reason)
 *                        └──transient failure, first attempt──▶ RETRY ──claim──▶ STARTED …
 *   STARTED for longer than any command may run (its replica died) ──▶ RETRY, or FAILURE after the second attempt
 */
import { EventEmitter } from "node:events";
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { netcommandJobs, type NetcommandJobState, type NetcommandQueryType } from "~db/postgres/schema";
import { findVantagePoint as findVantagePointByName } from "~/features/routing/vantage-point-names";
import { forbiddenVantagePoints, listVantagePoints } from "~/features/routing/vantage-points.server";
import { isNetcommandType, toQueryType } from "~/lib/routing-query-types";
import type { Db } from "~/server/postgres.server";
import type { Services } from "~/server/services.server";
import { checkNetcommandLimits } from "./limits.server";
import type { CommandOutcome } from "./outcome";
import { checkNetcommandTarget, type NetcommandScope } from "./targets";

export type { NetcommandJobState, NetcommandQueryType } from "~db/postgres/schema";
export type { NetcommandScope } from "./targets";

/** A job is run at most this often: once, and once more after a transient failure. */
export const MAX_ATTEMPTS = 2;
/** Wait before a RETRY job is claimed again (a router that just refused may be back). */
export const RETRY_DELAY_MS = 3_000;
/** Longer than any command may run (SSH 90 s): a job STARTED this long ago lost its worker. */
export const STALE_AFTER_MS = 5 * 60 * 1000;

/**
 * Who a job belongs to. Logged-in callers by user id; anonymous callers by the SHA-256 of their
 * visitor cookie. The client address is kept for the per-address limits only.
 */
export type JobOwner = { userId: number | null; visitor: string | null; clientAddress: string };

export type CreateJobInput = {
  owner: JobOwner;
  /** The vantage points and target ranges the caller may use (access.server.ts). */
  scope: NetcommandScope;
  /** The vantage point key (its router name is accepted too). */
  networkElement: string;
  /** PingQuery or TracerouteQuery, or the legacy PING_QUERY / TRACEROUTE_QUERY. */
  queryType: string;
  targetAddress: string;
};

/** The poll answer: state, and the output (SUCCESS) or the reason (FAILURE); empty while running. */
export type NetcommandJobView = { state: NetcommandJobState; result: string };

export type NetcommandJobRow = typeof netcommandJobs.$inferSelect;

/** Input refused before anything is stored or run: a 400 naming the field. */
/** A vantage point outside a delegated user's routers (403). */
export class NetcommandForbiddenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NetcommandForbiddenError";
  }
}

export class NetcommandInputError extends Error {
  constructor(
    message: string,
    readonly field: "queryType" | "targetAddress" | "networkElement",
  ) {
    super(message);
    this.name = "NetcommandInputError";
  }
}

/** The caller has started too many jobs: a 429 with Retry-After. */
export class NetcommandLimitError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = "NetcommandLimitError";
  }
}

/** Tells this process's runner that a job is waiting, so it need not wait for its next poll. */
export const jobCreated = new EventEmitter();

export function toNetcommandQueryType(value: unknown): NetcommandQueryType | null {
  if (typeof value !== "string") return null;
  const type = toQueryType(value);
  return type && isNetcommandType(type) ? type : null;
}

/**
 * Validates a request and stores it as a PENDING job. Order matters: query type and target are
 * checked first, so an invalid target is refused before any row exists or any process starts.
 * Throws NetcommandInputError (400), NetcommandForbiddenError (403: a delegated user's vantage point
 * outside their routers) or NetcommandLimitError (429).
 */
export async function createNetcommandJob(stores: Pick<Services, "pg">, input: CreateJobInput): Promise<{ jobID: string }> {
  const queryType = toNetcommandQueryType(input.queryType);
  if (!queryType) throw new NetcommandInputError(`Unknown query type "${input.queryType}": use PingQuery or TracerouteQuery.`, "queryType");
  const target = checkNetcommandTarget(input.targetAddress, input.scope.allowedInternalRanges);
  if (!target.ok) throw new NetcommandInputError(target.error, "targetAddress");
  const vantagePoint = await findVantagePoint(stores, input.networkElement, input.scope);
  if (!vantagePoint) throw new NetcommandInputError(`Unknown vantage point "${input.networkElement}".`, "networkElement");

  const { owner } = input;
  const id = await stores.pg.db.transaction(async (tx) => {
    // Serialises the count and the insert per owner, so parallel requests cannot all pass the limit.
    const lockKey = owner.userId !== null ? `netcommand:user:${owner.userId}` : `netcommand:address:${owner.clientAddress}`;
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${lockKey}))`);
    const decision = await checkNetcommandLimits(tx as unknown as Db, owner);
    if (!decision.allowed) throw new NetcommandLimitError(decision.message, decision.retryAfterSeconds);
    const [row] = await tx
      .insert(netcommandJobs)
      .values({
        queryType,
        vantagePoint: vantagePoint.key,
        targetAddress: target.value,
        ownerUserId: owner.userId,
        ownerVisitor: owner.userId === null ? owner.visitor : null,
        clientAddress: owner.clientAddress,
      })
      .returning({ id: netcommandJobs.id });
    return row.id;
  });
  jobCreated.emit("job", id);
  return { jobID: id };
}

/**
 * The vantage point a name picks among those the scope may use (every one, or the public ones), by the one rule
 * of the Looking Glass (routing/vantage-point-names.ts), so api/netcommand/ and api/lookingglass/ accept the same
 * names. A delegated user's vantage point outside their routers is a 403, as in the Looking Glass.
 */
async function findVantagePoint(stores: Pick<Services, "pg">, name: string, scope: NetcommandScope) {
  if (!name.trim()) return null;
  const available = await listVantagePoints(stores, { variant: scope.vantagePoints === "all" ? "private" : "public" });
  const found = findVantagePointByName(available, name);
  if (found && forbiddenVantagePoints([found], scope.routers ?? null).length)
    throw new NetcommandForbiddenError(
      `The vantage point "${name.trim()}" is not available to your account: it may only use the vantage points of its routers.`,
    );
  return found ?? null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `owner` may read the job: the same user; for anonymous jobs the same browser (visitor
 * cookie). Never the client address: clients behind one NAT or proxy share it, and a forged
 * forwarding header could claim it.
 */
export function ownsJob(row: Pick<NetcommandJobRow, "ownerUserId" | "ownerVisitor">, owner: JobOwner): boolean {
  if (row.ownerUserId !== null) return owner.userId === row.ownerUserId;
  return row.ownerVisitor !== null && owner.visitor === row.ownerVisitor;
}

/** The job's state and result for its owner; null when there is no such job or it is someone else's (never revealed). */
export async function readNetcommandJob(stores: Pick<Services, "pg">, id: string, owner: JobOwner): Promise<NetcommandJobView | null> {
  const row = await loadJob(stores.pg.db, id);
  if (!row || !ownsJob(row, owner)) return null;
  return { state: row.state, result: row.result };
}

export async function loadJob(db: Db, id: string): Promise<NetcommandJobRow | null> {
  // Not a UUID: no such job (PostgreSQL would refuse the comparison with an error).
  if (!UUID.test(id)) return null;
  const [row] = await db.select().from(netcommandJobs).where(eq(netcommandJobs.id, id));
  return row ?? null;
}

const isFinal = (state: NetcommandJobState) => state === "SUCCESS" || state === "FAILURE";

/**
 * Waits until the job is SUCCESS or FAILURE, or `timeoutMs` passed, and returns its view then
 * (null when it does not exist). For callers that answer in one response, such as the Looking
 * Glass page without JavaScript right after creating the job; ownership is the caller's concern.
 */
export async function waitForJob(
  stores: Pick<Services, "pg">,
  id: string,
  timeoutMs: number,
  pollIntervalMs = 250,
): Promise<NetcommandJobView | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await loadJob(stores.pg.db, id);
    if (!row) return null;
    if (isFinal(row.state) || Date.now() >= deadline) return { state: row.state, result: row.result };
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollIntervalMs, Math.max(0, deadline - Date.now()))));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The worker's side

/**
 * Claims the oldest job that is waiting (PENDING, or RETRY whose delay passed) for `workerId`:
 * marks it STARTED in the same statement, and skips rows another replica is claiming right now.
 */
export async function claimNextJob(db: Db, workerId: string, now = new Date()): Promise<NetcommandJobRow | null> {
  const next = db
    .select({ id: netcommandJobs.id })
    .from(netcommandJobs)
    .where(
      or(
        eq(netcommandJobs.state, "PENDING"),
        and(eq(netcommandJobs.state, "RETRY"), or(isNull(netcommandJobs.notBefore), lte(netcommandJobs.notBefore, now))),
      ),
    )
    .orderBy(asc(netcommandJobs.createdAt))
    .limit(1)
    .for("update", { skipLocked: true });
  const [row] = await db
    .update(netcommandJobs)
    .set({ state: "STARTED", workerId, startedAt: now, attempts: sql`${netcommandJobs.attempts} + 1`, notBefore: null })
    .where(and(inArray(netcommandJobs.id, next), inArray(netcommandJobs.state, ["PENDING", "RETRY"])))
    .returning();
  return row ?? null;
}

/**
 * Stores what running the job gave: SUCCESS with the output, RETRY after a transient failure on
 * the first attempt, FAILURE with the reason otherwise. Only the worker holding the job writes:
 * a job taken over after looking stale is not overwritten by the late original.
 */
export async function finishJob(
  db: Db,
  job: Pick<NetcommandJobRow, "id" | "attempts" | "workerId">,
  outcome: CommandOutcome,
  now = new Date(),
): Promise<NetcommandJobState> {
  const mine = and(eq(netcommandJobs.id, job.id), eq(netcommandJobs.state, "STARTED"), eq(netcommandJobs.workerId, job.workerId ?? ""));
  let values: Partial<typeof netcommandJobs.$inferInsert>;
  if (outcome.ok) values = { state: "SUCCESS", result: outcome.output, finishedAt: now };
  else if (outcome.transient && job.attempts < MAX_ATTEMPTS)
    values = { state: "RETRY", result: outcome.message, notBefore: new Date(now.getTime() + RETRY_DELAY_MS) };
  else values = { state: "FAILURE", result: outcome.message, finishedAt: now };
  await db.update(netcommandJobs).set(values).where(mine);
  return values.state!;
}

export const STALE_RETRY_TEXT = "The server running this job stopped before it finished; it is run again.";
export const STALE_FAILURE_TEXT = "The server running this job stopped before it finished.";

/** Jobs STARTED longer ago than any command may run belong to a replica that died: run them again once, else fail them. */
export async function resetStaleJobs(db: Db, now = new Date()): Promise<number> {
  const stale = and(eq(netcommandJobs.state, "STARTED"), lt(netcommandJobs.startedAt, new Date(now.getTime() - STALE_AFTER_MS)));
  const retried = await db
    .update(netcommandJobs)
    .set({ state: "RETRY", result: STALE_RETRY_TEXT, notBefore: null, workerId: null })
    .where(and(stale, lt(netcommandJobs.attempts, MAX_ATTEMPTS)))
    .returning({ id: netcommandJobs.id });
  const failed = await db
    .update(netcommandJobs)
    .set({ state: "FAILURE", result: STALE_FAILURE_TEXT, finishedAt: now })
    .where(stale)
    .returning({ id: netcommandJobs.id });
  return retried.length + failed.length;
}

/** Finished jobs are kept this long (the limits look back 10 minutes; a result is read within seconds). */
export const JOB_RETENTION_MS = 24 * 60 * 60 * 1000;

export async function deleteOldJobs(db: Db, now = new Date()): Promise<void> {
  await db
    .delete(netcommandJobs)
    .where(
      and(inArray(netcommandJobs.state, ["SUCCESS", "FAILURE"]), lt(netcommandJobs.createdAt, new Date(now.getTime() - JOB_RETENTION_MS))),
    );
}
