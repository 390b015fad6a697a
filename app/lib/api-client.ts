import { HTTP_TIMEOUT_MS, REQUEST_HISTORY_SIZE, SECOND_CLIENT_RETRY } from "./constants";
import { MESSAGES } from "./messages";

/**
 * The browser's JSON client for api/, auth/ and siteconfig/ calls, with the error handling of the
 * spec (shell §8, looking glass §8): what each HTTP status becomes, retries, the request history.
 * Pure apart from fetch, which is injected, so the rules are unit-tested.
 */

export type Notice = { kind: "warning" | "danger"; title: string; message: string };

export class ApiClientError extends Error {
  constructor(
    readonly kind: "unauthorized" | "session-expired" | "permission-denied" | "not-found" | "server" | "unknown" | "raw",
    message: string,
    readonly status: number,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = "ApiClientError";
  }
}

export type HistoryEntry = {
  body: unknown;
  data: unknown;
  headers: Record<string, string>;
  method: string;
  params: Record<string, string>;
  path: string;
  timestamp: number;
  uid: string;
  url: string;
  verboseName: string;
};

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
};

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

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

export function createApiClient(options: { fetch?: Fetch; notify?: (notice: Notice) => void; sleep?: (ms: number) => Promise<void> } = {}) {
  const doFetch: Fetch = options.fetch ?? ((input, init) => fetch(input, init));
  const notify = options.notify ?? (() => {});
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const pending = new Map<string, AbortController>();
  const history: HistoryEntry[] = [];
  let counter = 0;

  async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
    const method = opts.method ?? "GET";
    const url = `/${path.replace(/^\/+/, "")}${opts.params ? `?${new URLSearchParams(opts.params)}` : ""}`;
    const id = opts.requestId === undefined ? `${method} ${path}` : opts.requestId;
    if (id !== null) pending.get(id)?.abort();
    const controller = new AbortController();
    if (id !== null) pending.set(id, controller);
    const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? HTTP_TIMEOUT_MS);
    const headers: Record<string, string> = { Accept: `application/json; version=${opts.apiVersion ?? 17}` };
    if (method !== "GET") {
      headers["Content-Type"] = "application/json";
      headers["X-CSRFToken"] = readCookie("csrftoken");
    }
    try {
      const response = await doFetch(url, {
        method,
        headers,
        body: method === "GET" || opts.body === undefined ? undefined : JSON.stringify(opts.body),
        credentials: "same-origin",
        signal: controller.signal,
      });
      const data = await readJson(response);
      history.unshift({
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
      history.length = Math.min(history.length, REQUEST_HISTORY_SIZE);
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
   * result vanished.
   */
  async function requestV2<T>(path: string, opts: RequestOptions = {}): Promise<T> {
    let delay: number = SECOND_CLIENT_RETRY.initialDelayMs;
    for (;;) {
      let data: unknown;
      try {
        data = await request<unknown>(`api/v2/${path.replace(/^\/+/, "")}`, { ...opts, throwErrors: true, requestId: null });
      } catch (error) {
        if (error instanceof ApiClientError && error.status === 429) {
          await sleep(delay);
          delay = Math.min(delay * 2, SECOND_CLIENT_RETRY.maxDelayMs);
          continue;
        }
        if (error instanceof ApiClientError && error.status === 404) throw new ApiClientError("not-found", MESSAGES.resultVanished, 404);
        throw error;
      }
      const status = data && typeof data === "object" && "status" in data ? data.status : undefined;
      if (status === "Started") {
        await sleep(delay);
        delay = Math.min(delay * 2, SECOND_CLIENT_RETRY.maxDelayMs);
        continue;
      }
      if (status === "Failed") {
        const message = detailOf(data) ?? MESSAGES.serverError;
        throw new ApiClientError("server", message, 200, data);
      }
      return data as T;
    }
  }

  return { request, requestV2, history: () => [...history] };
}
