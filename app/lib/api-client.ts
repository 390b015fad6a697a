import { CLIENT_RETRY, HTTP_TIMEOUT_MS, SECOND_CLIENT_RETRY } from "./constants";
import { MESSAGES } from "./messages";
import { browserRequestHistory, type RequestHistory } from "./request-history";

/**
 * The browser's JSON client for api/, auth/ and siteconfig/ calls, with the error handling of the
 * spec (shell §8, looking glass §8): what each HTTP status becomes, retries, the request history.
 * Pure apart from fetch and the wait between attempts, which are injectable, so the rules are
 * unit-tested.
 *
 * Retries (looking glass §8 "Retry rules": "the generic client retries 3 times on network errors
 * and on idempotent 5xx and 429, honouring retry-after"): at most CLIENT_RETRY.maxRetries more
 * attempts of an idempotent call — a GET, or a POST listed in READ_POSTS — after a network error
 * (fetch's TypeError), a 5xx or a 429. A 429 or 503 with Retry-After (seconds or an HTTP date)
 * waits that long, capped at CLIENT_RETRY.maxRetryAfterMs; every other retry waits 200 ms doubling
 * up to 3 s (the second client's rule, shell §9). A mutation is never retried: it may have taken
 * effect before its answer was lost. An abort (a later call with the same id, or the 30-minute
 * time-out) is rethrown as is, neither retried nor notified.
 */

export type Notice = { kind: "warning" | "danger"; title: string; message: string };

export class ApiClientError extends Error {
  constructor(
    readonly kind:
      | "unauthorized"
      | "session-expired"
      | "permission-denied"
      | "not-found"
      | "server"
      | "unknown"
      | "raw"
      /** A Failed result the user can resolve (the server marked it resolvable): its message says what to change. */
      | "user"
      /** A Failed result nobody but the operators can resolve: the message is the server-error text. */
      | "internal",
    message: string,
    readonly status: number,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = "ApiClientError";
  }
}

export type { HistoryEntry } from "./request-history";

export type RequestOptions = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  params?: Record<string, string>;
  body?: unknown;
  apiVersion?: number;
  /** Errors as "status text" without the notices (the spec's throwErrors). */
  throwErrors?: boolean;
  /** A later request with the same id aborts the pending one (default: the path). Null: never. */
  requestId?: string | null;
  verboseName?: string;
  timeoutMs?: number;
  /** false: one attempt only (the second client has its own retry rule). */
  retry?: boolean;
  /** A network error is not toasted (the spec ignores it for api/max_timestamp/ and notification polling); still thrown. */
  ignoreNetworkErrors?: boolean;
  /** Aborts the call too (the second client's cancellation of its polling). */
  signal?: AbortSignal;
};

type Fetch = (input: string, init: RequestInit) => Promise<Response>;
type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * The data calls the spec sends as POST although they only read (looking glass §7: their bodies
 * carry the query, too large or too structured for a query string). They are idempotent, so they
 * are retried like a GET. Anything not listed here that is not a GET is a mutation and never
 * retried — notably api/netcommand/ (creates a job), api/error_report/ and every auth/ call.
 */
export const READ_POSTS: ReadonlySet<string> = new Set([
  "api/autocomplete/",
  "api/tag/values/",
  "api/linkutil/external/",
  "api/linkutil/external/summary/",
  "api/linkutil/external/timeseries/",
  "api/asflows/indirect/",
  "api/netflowstatistics/",
  "api/sankey/",
  "api/untracked_data/",
  "api/flows/",
  "api/filter/metadata/",
  "api/revenue_cost/",
  "api/lookingglass/",
  "api/controlplane/",
  "api/rna/",
  "api/rna/timeseries/",
]);

const normalPath = (path: string) => path.replace(/^\/+/, "").split("?")[0];

/** Whether a call may be sent again without changing anything: GET, or a POST read of READ_POSTS. */
export function isIdempotent(method: string, path: string): boolean {
  return method === "GET" || (method === "POST" && READ_POSTS.has(normalPath(path)));
}

/** A cancelled call: a later one with the same id, the time-out, or the caller's abort. */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

/**
 * A call that got no HTTP answer: fetch rejects with a TypeError ("Failed to fetch", "NetworkError
 * when attempting to fetch resource.", "Load failed" in Safari) when the connection fails.
 */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}

/**
 * The wait a Retry-After header asks for, in ms (null: absent or unreadable): delta-seconds or an
 * HTTP date, never negative, capped so a wrong header cannot stall a screen.
 */
export function retryAfterMs(header: string | null, now: number, capMs: number = CLIENT_RETRY.maxRetryAfterMs): number | null {
  if (!header) return null;
  const text = header.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    // An HTTP date names the day and month in words; anything else (e.g. "-5") is not one.
    const at = /[a-z]/i.test(text) ? Date.parse(text) : NaN;
    if (Number.isNaN(at)) return null;
    ms = at - now;
  }
  return Math.min(Math.max(ms, 0), capMs);
}

/** The wait before retry number `retry` (0-based) without Retry-After: 200 ms doubling up to 3 s. */
export const backoffMs = (retry: number) => Math.min(SECOND_CLIENT_RETRY.initialDelayMs * 2 ** retry, SECOND_CLIENT_RETRY.maxDelayMs);

const isRetryableStatus = (status: number) => status === 429 || status >= 500;

/** The toast of a call that failed at the network level (shell §8 'Network error'). */
export const NETWORK_NOTICE: Notice = { kind: "danger", title: MESSAGES.networkErrorTitle, message: MESSAGES.networkInterrupted };

/** Waits ms, or less when the signal aborts (the caller then sees the abort itself). */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

const abortErrorOf = (signal: AbortSignal): unknown =>
  signal.reason instanceof Error ? signal.reason : new DOMException("The request was aborted.", "AbortError");

/** The CSRF header every mutation of the browser carries: the csrftoken cookie's value (double submit). */
export function csrfHeader(): Record<string, string> {
  return { "X-CSRFToken": readCookie("csrftoken") };
}

function readCookie(name: string): string {
  if (typeof document === "undefined") return "";
  return (
    document.cookie
      .split("; ")
      .find((c) => c.startsWith(`${name}=`))
      ?.slice(name.length + 1) ?? ""
  );
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

function detailOf(body: unknown): string | undefined {
  return body && typeof body === "object" && "detail" in body && typeof body.detail === "string" ? body.detail : undefined;
}

/** What a failed status means to the user (null: hand the response to the caller silently). */
export function classifyFailure(status: number, body: unknown): { error: ApiClientError; notice: Notice | null } | null {
  const detail = detailOf(body);
  if (status === 400 || status === 424) return null;
  if (status === 401) return { error: new ApiClientError("unauthorized", detail ?? MESSAGES.wrongCredentials, status, body), notice: null };
  if (status === 403) {
    const code = body && typeof body === "object" && "exception_code" in body ? body.exception_code : undefined;
    if (code === "not_authenticated")
      return { error: new ApiClientError("session-expired", MESSAGES.sessionExpired, status, body), notice: null };
    return { error: new ApiClientError("permission-denied", detail ?? MESSAGES.permissionDeniedShort, status, body), notice: null };
  }
  if (status === 404) {
    const message = detail ?? MESSAGES.noDataForSearch;
    return { error: new ApiClientError("not-found", message, status, body), notice: { kind: "warning", title: "Not found", message } };
  }
  if (status === 500) {
    const message = detail ?? MESSAGES.serverError;
    return { error: new ApiClientError("server", message, status, body), notice: { kind: "danger", title: "Server error", message } };
  }
  return {
    error: new ApiClientError("unknown", MESSAGES.unknownError, status, body),
    notice: { kind: "danger", title: "Error", message: MESSAGES.unknownError },
  };
}

/**
 * A result with status Failed (looking glass §4 "Second client"): a user error when it is
 * resolvable, otherwise an internal one. Resolvable means the server says so (`resolvable: true`,
 * e.g. a query too large for its time range) and gives the reason in `detail`; the user error
 * carries that reason. Anything else is internal: the user reads the server-error text, the
 * answer stays on the error (`body`) for the console and the error report.
 */
export function failedResultError(data: unknown): ApiClientError {
  const resolvable = !!data && typeof data === "object" && "resolvable" in data && data.resolvable === true;
  const detail = detailOf(data);
  return resolvable && detail
    ? new ApiClientError("user", detail, 200, data)
    : new ApiClientError("internal", MESSAGES.serverError, 200, data);
}

/** How a failed call reads to the user, and whether they can do something about it. */
export type CallFailure = { kind: "user" | "internal" | "network" | "aborted"; message: string; status: number | null };

/**
 * The one reading of a failed call for the screens: aborted (say nothing), network (the
 * 'interrupted' text), user (an answer the user can act on: a 4xx with the server's reason, a
 * resolvable Failed result) or internal (a 5xx, an unreadable answer, an unresolvable Failed
 * result: the server-error or unknown-error text, never the internals).
 */
export function failureOf(error: unknown): CallFailure {
  if (isAbortError(error)) return { kind: "aborted", message: "", status: null };
  if (isNetworkError(error)) return { kind: "network", message: MESSAGES.networkInterrupted, status: null };
  if (!(error instanceof ApiClientError)) return { kind: "internal", message: MESSAGES.unknownError, status: null };
  if (error.kind === "user" || error.kind === "internal") return { kind: error.kind, message: error.message, status: error.status };
  if (error.status >= 400 && error.status < 500) {
    const message = detailOf(error.body) ?? (error.kind === "raw" ? MESSAGES.unknownError : error.message);
    return { kind: "user", message, status: error.status };
  }
  return { kind: "internal", message: error.status >= 500 ? MESSAGES.serverError : MESSAGES.unknownError, status: error.status };
}

/** Numbers the calls of the tab: the uids of the shared request history stay unique across clients. */
let counter = 0;

export function createApiClient(
  options: { fetch?: Fetch; notify?: (notice: Notice) => void; sleep?: Sleep; history?: RequestHistory } = {},
) {
  const doFetch: Fetch = options.fetch ?? ((input, init) => fetch(input, init));
  const notify = options.notify ?? (() => {});
  const sleep: Sleep = options.sleep ?? abortableSleep;
  const pending = new Map<string, AbortController>();
  // The tab's request history (shared by the clients) unless the caller gives one; credentials are dropped there.
  const history = options.history ?? browserRequestHistory;
  const pendingV2 = new Map<string, AbortController>();

  async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
    const method = opts.method ?? "GET";
    const url = `/${path.replace(/^\/+/, "")}${opts.params ? `?${new URLSearchParams(opts.params)}` : ""}`;
    const id = opts.requestId === undefined ? `${method} ${path}` : opts.requestId;
    if (id !== null) pending.get(id)?.abort();
    const controller = new AbortController();
    if (id !== null) pending.set(id, controller);
    if (opts.signal) {
      if (opts.signal.aborted) controller.abort(opts.signal.reason);
      else opts.signal.addEventListener("abort", () => controller.abort(opts.signal?.reason), { once: true });
    }
    const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? HTTP_TIMEOUT_MS);
    const headers: Record<string, string> = { Accept: `application/json; version=${opts.apiVersion ?? 17}` };
    if (method !== "GET") {
      headers["Content-Type"] = "application/json";
      Object.assign(headers, csrfHeader());
    }
    const retries = opts.retry !== false && isIdempotent(method, path) ? CLIENT_RETRY.maxRetries : 0;
    try {
      let response: Response;
      for (let attempt = 0; ; attempt++) {
        try {
          response = await doFetch(url, {
            method,
            headers,
            body: method === "GET" || opts.body === undefined ? undefined : JSON.stringify(opts.body),
            credentials: "same-origin",
            signal: controller.signal,
          });
        } catch (error) {
          // Cancelled and timed-out calls are rethrown unchanged (spec §8), never retried.
          if (controller.signal.aborted || isAbortError(error) || !isNetworkError(error)) throw error;
          if (attempt < retries) {
            await sleep(backoffMs(attempt), controller.signal);
            if (controller.signal.aborted) throw abortErrorOf(controller.signal);
            continue;
          }
          if (!opts.ignoreNetworkErrors) notify(NETWORK_NOTICE);
          throw error;
        }
        if (response.ok || attempt >= retries || !isRetryableStatus(response.status)) break;
        const asked =
          response.status === 429 || response.status === 503 ? retryAfterMs(response.headers.get("Retry-After"), Date.now()) : null;
        // The refused answer's body is not needed; release its connection before waiting.
        await response.body?.cancel().catch(() => {});
        await sleep(asked ?? backoffMs(attempt), controller.signal);
        if (controller.signal.aborted) throw abortErrorOf(controller.signal);
      }
      const data = await readJson(response);
      history.add({
        body: opts.body ?? null,
        data,
        headers,
        method,
        params: opts.params ?? {},
        path,
        timestamp: Date.now(),
        uid: `${Date.now().toString(36)}-${++counter}`,
        url,
        verboseName: opts.verboseName ?? path,
      });
      if (response.ok) return data as T;
      if (opts.throwErrors)
        throw new ApiClientError(
          "raw",
          `${response.status} ${typeof data === "string" ? data : JSON.stringify(data)}`,
          response.status,
          data,
        );
      const failure = classifyFailure(response.status, data);
      if (!failure) return data as T;
      if (failure.notice) notify(failure.notice);
      throw failure.error;
    } finally {
      clearTimeout(timer);
      if (id !== null && pending.get(id) === controller) pending.delete(id);
    }
  }

  /**
   * The second client (api/v2/): retries without limit while the result is not ready (429, or a
   * body with status Started), waiting 200 ms doubling up to 3 s; Failed raises; 404 means the
   * result vanished. A later call with the same id (default: the method and path) cancels this
   * one's polling (spec §7): only the caller stops asking; the server ends a computation nobody
   * asks for after API_V2_ABANDON_SECONDS (docs/operations.md).
   */
  async function requestV2<T>(path: string, opts: RequestOptions = {}): Promise<T> {
    const v2Path = `api/v2/${path.replace(/^\/+/, "")}`;
    const id = opts.requestId === undefined ? `v2 ${opts.method ?? "GET"} ${v2Path}` : opts.requestId;
    if (id !== null) pendingV2.get(id)?.abort();
    const controller = new AbortController();
    if (id !== null) pendingV2.set(id, controller);
    if (opts.signal) {
      if (opts.signal.aborted) controller.abort(opts.signal.reason);
      else opts.signal.addEventListener("abort", () => controller.abort(opts.signal?.reason), { once: true });
    }
    const wait = async (ms: number) => {
      await sleep(ms, controller.signal);
      if (controller.signal.aborted) throw abortErrorOf(controller.signal);
    };
    let delay: number = SECOND_CLIENT_RETRY.initialDelayMs;
    try {
      for (;;) {
        let data: unknown;
        try {
          data = await request<unknown>(v2Path, { ...opts, throwErrors: true, requestId: null, retry: false, signal: controller.signal });
        } catch (error) {
          if (controller.signal.aborted) throw abortErrorOf(controller.signal);
          if (error instanceof ApiClientError && error.status === 429) {
            await wait(delay);
            delay = Math.min(delay * 2, SECOND_CLIENT_RETRY.maxDelayMs);
            continue;
          }
          if (error instanceof ApiClientError && error.status === 404) throw new ApiClientError("not-found", MESSAGES.resultVanished, 404);
          throw error;
        }
        const status = data && typeof data === "object" && "status" in data ? data.status : undefined;
        if (status === "Started") {
          await wait(delay);
          delay = Math.min(delay * 2, SECOND_CLIENT_RETRY.maxDelayMs);
          continue;
        }
        if (status === "Failed") throw failedResultError(data);
        return data as T;
      }
    } finally {
      if (id !== null && pendingV2.get(id) === controller) pendingV2.delete(id);
    }
  }

  return { request, requestV2, history: () => [...history.list()] };
}
