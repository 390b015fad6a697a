/**
 * The browser side of ping and traceroute (looking glass §4 "Network command jobs"): create the
 * job with POST api/netcommand/, then poll GET api/netcommand/{jobId}/ until SUCCESS or FAILURE.
 *
 * - Traceroute shows STARTED at once, before the request is sent; ping shows PENDING.
 * - A polling error (network, non-2xx, unreadable answer) records FAILURE with 'Request failed'.
 * - A failed creation ends the run as Failed, for the screen's notice: a user error (a 4xx: the
 *   server's reason, e.g. an invalid target or the rate limit) or an internal one (a 5xx or an
 *   unreadable answer: the server-error text), or the network text when no answer came
 *   (failureOf of the api-client).
 * - Calls never cancel each other (one run per vantage point may be pending at once).
 *
 * The polling interval is not given by the spec: 1 s, a second is well below what a ping (4 s)
 * or a traceroute takes, and keeps the requests of a screen with many vantage points modest.
 */
import { abortableSleep, failureOf, type RequestOptions } from "./api-client";
import { HTTP_TIMEOUT_MS } from "./constants";
import type { NetcommandQueryType } from "./routing-query-types";

export const NETCOMMAND_POLL_INTERVAL_MS = 1_000;
/** The FAILURE result recorded when polling fails (looking glass §4). */
export const NETCOMMAND_REQUEST_FAILED = "Request failed";

export type NetcommandJobState = "PENDING" | "STARTED" | "RETRY" | "FAILURE" | "SUCCESS";
export type NetcommandJob = { state: NetcommandJobState; result: string };
export type NetcommandQuery = { networkElement: string; queryType: NetcommandQueryType; targetAddress: string };

export type NetcommandRunOutcome =
  | { status: "Completed"; job: NetcommandJob }
  | { status: "Failed"; kind: "user" | "internal" | "network"; detail: string; httpStatus: number | null }
  | { status: "Aborted" };

/** What the api-client's `createApiClient()` provides; tests hand in one over a fake fetch. */
export type JsonRequester = { request: <T>(path: string, options?: RequestOptions) => Promise<T> };

/** A job still running: the screen shows a spinner (looking glass §2). */
export const isJobRunning = (state: string) => state === "PENDING" || state === "STARTED" || state === "RETRY";

/** The heading of one result block (looking glass §2): 'vantage point (ip) to destination'. */
export const netcommandHeading = (vantagePoint: string, ip: string, destination: string) => `${vantagePoint} (${ip}) to ${destination}`;

export type RunOptions = {
  /** Called with the state to show: first the local one, then every polled answer. */
  onUpdate?: (job: NetcommandJob) => void;
  pollIntervalMs?: number;
  /** Give up (FAILURE 'Request failed') when the job has not ended by then: the spec's HTTP time-out. */
  maxWaitMs?: number;
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
};

function creationFailure(error: unknown): NetcommandRunOutcome {
  const failure = failureOf(error);
  if (failure.kind === "aborted") return { status: "Aborted" };
  return { status: "Failed", kind: failure.kind, detail: failure.message, httpStatus: failure.status };
}

function readJob(data: unknown): NetcommandJob | null {
  if (!data || typeof data !== "object") return null;
  const { state, result } = data as { state?: unknown; result?: unknown };
  if (typeof state !== "string") return null;
  // Any state other than the running ones and FAILURE counts as success (looking glass §3).
  const known: NetcommandJobState = isJobRunning(state) || state === "FAILURE" ? (state as NetcommandJobState) : "SUCCESS";
  return { state: known, result: typeof result === "string" ? result : "" };
}

/** Runs one ping or traceroute to its end. Never throws: every ending is an outcome. */
export async function runNetcommand(
  client: JsonRequester,
  query: NetcommandQuery,
  options: RunOptions = {},
): Promise<NetcommandRunOutcome> {
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? Date.now;
  const pollIntervalMs = options.pollIntervalMs ?? NETCOMMAND_POLL_INTERVAL_MS;
  const deadline = now() + (options.maxWaitMs ?? HTTP_TIMEOUT_MS);
  const update = (job: NetcommandJob) => options.onUpdate?.(job);
  const noRequestId = { requestId: null, throwErrors: true } as const;

  update({ state: query.queryType === "TracerouteQuery" ? "STARTED" : "PENDING", result: "" });
  if (options.signal?.aborted) return { status: "Aborted" };
  let jobId: string;
  try {
    const created = await client.request<unknown>("api/netcommand/", {
      ...noRequestId,
      method: "POST",
      body: {
        networkElement: query.networkElement,
        protocol: null,
        queryType: query.queryType,
        sourceAddress: null,
        targetAddress: query.targetAddress,
      },
    });
    if (options.signal?.aborted) return { status: "Aborted" };
    const id = Array.isArray(created) ? (created[0] as { jobID?: unknown } | undefined)?.jobID : undefined;
    // An answer without a job id is the server's fault, not the user's.
    if (typeof id !== "string" || !id) return { status: "Failed", kind: "internal", detail: NETCOMMAND_REQUEST_FAILED, httpStatus: null };
    jobId = id;
  } catch (error) {
    if (options.signal?.aborted) return { status: "Aborted" };
    return creationFailure(error);
  }

  const failed = (): NetcommandRunOutcome => {
    const job: NetcommandJob = { state: "FAILURE", result: NETCOMMAND_REQUEST_FAILED };
    update(job);
    return { status: "Completed", job };
  };
  for (;;) {
    await sleep(pollIntervalMs, options.signal);
    if (options.signal?.aborted) return { status: "Aborted" };
    let job: NetcommandJob | null;
    try {
      job = readJob(await client.request<unknown>(`api/netcommand/${encodeURIComponent(jobId)}/`, noRequestId));
    } catch {
      if (options.signal?.aborted) return { status: "Aborted" };
      return failed();
    }
    if (!job) return failed();
    update(job);
    if (!isJobRunning(job.state)) return { status: "Completed", job };
    if (now() >= deadline) return failed();
  }
}
