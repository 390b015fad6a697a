/**
 * The daily PeeringDB sync (PEERINGDB_SYNC_URL, off when unset): on the component host, once a day,
 * the address is fetched — within SYNC_TIMEOUT_MS and MAX_PEERINGDB_UPLOAD bytes — and its JSON
 * streamed (through a temporary file, spool.server.ts) into importPeeringDb, as an upload would be (a dump with every type under its key, or
 * one type's API answer named by the address's last word, e.g. …/api/net). Every attempt, and its
 * outcome, is kept in system_state (PEERINGDB_SYNC_KEY) for the routing data page and logged; a
 * failure — unreachable, an HTTP error, too slow, too large, a bad file — changes nothing: the
 * previous import stays. An attempt is due when the last one is a day old (a restart does not
 * fetch again sooner).
 */
import { eq } from "drizzle-orm";
import { systemState } from "~db/postgres/schema";
import type { BackgroundTask } from "~/server/lifecycle.server";
import { log, logValue } from "~/server/log.server";
import { BodyProblem, limitedStream } from "~/server/request-body.server";
import type { Services } from "~/server/services.server";
import { importPeeringDb, PeeringDbFileError } from "./import.server";
import { withSpooledFile } from "./spool.server";

export const PEERINGDB_SYNC_KEY = "peeringdb_sync";
/** The whole fetch, answer and body, must be done within this. */
export const SYNC_TIMEOUT_MS = 10 * 60_000;
export const SYNC_INTERVAL_MS = 24 * 3600_000;
/** How often the task looks whether an attempt is due. */
const CHECK_MS = 3600_000;
export const SYNC_BY = "daily sync";

/** The last attempt, as kept. */
export type PeeringDbSyncAttempt = { at: string; ok: boolean; message: string };

/** The address as shown and stored: no user name or password, no query. */
export function syncSourceLabel(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}

export async function lastSyncAttempt(services: { pg: Pick<Services["pg"], "db"> }): Promise<PeeringDbSyncAttempt | null> {
  const [row] = await services.pg.db.select({ value: systemState.value }).from(systemState).where(eq(systemState.key, PEERINGDB_SYNC_KEY));
  return (row?.value as PeeringDbSyncAttempt | undefined) ?? null;
}

async function remember(services: { pg: Pick<Services["pg"], "db"> }, attempt: PeeringDbSyncAttempt) {
  await services.pg.db
    .insert(systemState)
    .values({ key: PEERINGDB_SYNC_KEY, value: attempt, updatedAt: new Date(attempt.at) })
    .onConflictDoUpdate({ target: systemState.key, set: { value: attempt, updatedAt: new Date(attempt.at) } });
}

const count = (n: number) => n.toLocaleString("en-US");

/** One attempt: fetches the address and imports it; never throws for the address's faults (they are the outcome). */
export async function syncPeeringDb(
  services: { pg: Pick<Services["pg"], "db">; config: Pick<Services["config"], "PEERINGDB_SYNC_URL" | "MAX_PEERINGDB_UPLOAD"> },
  options: { now?: Date; timeoutMs?: number } = {},
): Promise<PeeringDbSyncAttempt> {
  const url = services.config.PEERINGDB_SYNC_URL;
  if (!url) throw new Error("PEERINGDB_SYNC_URL is not set");
  const at = (options.now ?? new Date()).toISOString();
  const label = syncSourceLabel(url);
  const limit = services.config.MAX_PEERINGDB_UPLOAD;
  const tooLarge = `${label}: the answer is larger than ${count(limit)} bytes (MAX_PEERINGDB_UPLOAD)`;
  let message: string;
  let ok = false;
  try {
    // fetch() refuses an address with credentials: they go as basic authentication instead.
    const target = new URL(url);
    const headers: Record<string, string> = { Accept: "application/json" };
    if (target.username || target.password) {
      const user = decodeURIComponent(target.username);
      const password = decodeURIComponent(target.password);
      headers.Authorization = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
      target.username = "";
      target.password = "";
    }
    const response = await fetch(target, {
      signal: AbortSignal.timeout(options.timeoutMs ?? SYNC_TIMEOUT_MS),
      headers,
      redirect: "follow",
    });
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      throw new SyncProblem(`${label} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`);
    }
    const declared = Number(response.headers.get("Content-Length") ?? "");
    if (Number.isFinite(declared) && declared > limit) {
      await response.body.cancel().catch(() => undefined);
      throw new SyncProblem(tooLarge);
    }
    const body = limitedStream(response.body, limit) as unknown as AsyncIterable<Uint8Array>;
    const summary = await withSpooledFile(body, ({ chunks }) =>
      importPeeringDb(services, { sources: [{ name: label, chunks }], actor: null, by: SYNC_BY }),
    );
    ok = true;
    message =
      `${Object.entries(summary.counts)
        .map(([kind, n]) => `${count(n)} ${kind}`)
        .join(", ")} imported from ${label}` + (summary.dumpDate ? ` (dump of ${summary.dumpDate.toISOString()})` : "");
  } catch (error) {
    message = `${reason(error, label, tooLarge)}; the previous import stays`;
  }
  const attempt = { at, ok, message };
  await remember(services, attempt);
  if (ok) log.info(`PeeringDB sync: ${logValue(message)}`);
  else log.warn(`PeeringDB sync failed: ${logValue(message)}`);
  return attempt;
}

class SyncProblem extends Error {}

/** What went wrong, naming the address (the importer's problems name it already). */
function reason(error: unknown, label: string, tooLarge: string): string {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof BodyProblem) return tooLarge;
  }
  if (error instanceof SyncProblem) return error.message;
  if (error instanceof PeeringDbFileError) {
    const more = error.problemCount - Math.min(3, error.problems.length);
    const problems =
      error.problems.length > 1 || error.problems[0] !== error.message
        ? ` (${error.problems.slice(0, 3).join("; ")}${more > 0 ? ` … and ${count(more)} more` : ""})`
        : "";
    return `${error.message}${problems}`;
  }
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
    return `${label}: no complete answer within the time allowed`;
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return `${label} unreachable (${cause?.code ?? cause?.message ?? "fetch failed"})`;
  }
  return `${label}: ${error instanceof Error ? error.message : String(error)}`;
}

/** Whether an attempt is due: none yet, or the last one a day old. */
export async function syncDue(services: { pg: Pick<Services["pg"], "db"> }, now = new Date()): Promise<boolean> {
  const last = await lastSyncAttempt(services);
  return !last || now.getTime() - new Date(last.at).getTime() >= SYNC_INTERVAL_MS;
}

let timer: ReturnType<typeof setInterval> | null = null;
let running: Promise<unknown> = Promise.resolve();

/** The daily sync on the component host; does nothing without PEERINGDB_SYNC_URL. */
export const peeringDbSyncTask: BackgroundTask = {
  where: "component host",
  start: (services) => {
    if (timer || !services.config.PEERINGDB_SYNC_URL) return;
    const run = () => {
      running = running
        .then(async () => {
          if (await syncDue(services)) await syncPeeringDb(services);
        })
        .catch((error: unknown) => log.error(`PeeringDB sync failed: ${String(error)}`));
    };
    run();
    timer = setInterval(run, CHECK_MS);
    timer.unref?.();
  },
  stop: async () => {
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  },
};
