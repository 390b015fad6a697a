import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  ApiClientError,
  backoffMs,
  createApiClient,
  failedResultError,
  failureOf,
  isIdempotent,
  NETWORK_NOTICE,
  READ_POSTS,
  retryAfterMs,
  type Notice,
} from "~/lib/api-client";
import { CLIENT_RETRY } from "~/lib/constants";
import { MESSAGES } from "~/lib/messages";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
type Answer = Response | Error;

/** A fake server answering in order; an Error answer is thrown by fetch. Records when each call came. */
function fakeServer(answers: Answer[]) {
  const calls: { url: string; method: string; at: number }[] = [];
  const notices: Notice[] = [];
  const client = createApiClient({
    fetch: async (url, init) => {
      calls.push({ url, method: init.method ?? "GET", at: Date.now() });
      const next = answers.shift();
      if (!next) throw new Error("the fake server has no more answers");
      if (next instanceof Error) throw next;
      return next;
    },
    notify: (n) => notices.push(n),
  });
  return { client, calls, notices };
}

const networkError = () => new TypeError("Failed to fetch");

/** Runs the call to its end with fake timers, returning its settled outcome. */
async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  const outcome = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await vi.runAllTimersAsync();
  return outcome;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date("2026-03-02T10:00:00Z"));
});
afterEach(() => {
  vi.useRealTimers();
});

describe("which calls are retried", () => {
  it("GET and the POST reads of the spec, never a mutation", () => {
    expect(isIdempotent("GET", "api/version/")).toBe(true);
    for (const path of ["api/flows/", "/api/sankey/", "api/lookingglass/", "api/controlplane/", "api/autocomplete/"])
      expect(isIdempotent("POST", path)).toBe(true);
    for (const path of ["api/netcommand/", "api/error_report/", "auth/login/", "auth/settings/timezone/"])
      expect(isIdempotent("POST", path)).toBe(false);
    expect(isIdempotent("PUT", "api/mapping/")).toBe(false);
    expect(isIdempotent("DELETE", "api/mapping/")).toBe(false);
    expect(isIdempotent("PATCH", "auth/delegated_users/3/")).toBe(false);
    // Every listed read is a POST data call of the spec's api/ prefix.
    for (const path of READ_POSTS) expect(path).toMatch(/^api\/[a-z_/]+\/$/);
  });

  it("backs off 200 ms doubling up to 3 s", () => {
    expect([0, 1, 2, 3, 4, 5].map(backoffMs)).toEqual([200, 400, 800, 1600, 3000, 3000]);
  });

  it("reads Retry-After as seconds or an HTTP date, capped at 30 s", () => {
    const now = Date.parse("2026-03-02T10:00:00Z");
    expect(retryAfterMs("7", now)).toBe(7000);
    expect(retryAfterMs("0", now)).toBe(0);
    expect(retryAfterMs("Mon, 02 Mar 2026 10:00:12 GMT", now)).toBe(12_000);
    expect(retryAfterMs("Mon, 02 Mar 2026 09:59:00 GMT", now)).toBe(0);
    expect(retryAfterMs("3600", now)).toBe(CLIENT_RETRY.maxRetryAfterMs);
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs("soon", now)).toBeNull();
    expect(retryAfterMs("-5", now)).toBeNull();
  });
});

describe("retries", () => {
  it("retries a GET 3 times after network errors, then notifies the network text and rethrows the error unchanged", async () => {
    const errors = [networkError(), networkError(), networkError(), networkError()];
    const { client, calls, notices } = fakeServer([...errors, json(200, { never: "reached" })]);
    const { error } = await settle(client.request("api/version/"));
    expect(error).toBe(errors[3]);
    expect(calls).toHaveLength(1 + CLIENT_RETRY.maxRetries);
    const start = calls[0].at;
    expect(calls.map((c) => c.at - start)).toEqual([0, 200, 600, 1400]);
    expect(notices).toEqual([NETWORK_NOTICE]);
    expect(NETWORK_NOTICE.message).toBe("The network connection to the server was interrupted unexpectedly.");
  });

  it("succeeds on a later attempt without a notice", async () => {
    const { client, calls, notices } = fakeServer([networkError(), json(502, {}), json(200, { rows: [1] })]);
    const { value } = await settle(client.request("api/flows/", { method: "POST", body: { dimension: "AS" } }));
    expect(value).toEqual({ rows: [1] });
    expect(calls.map((c) => c.method)).toEqual(["POST", "POST", "POST"]);
    expect(notices).toEqual([]);
  });

  it("retries an idempotent 5xx at most 3 times, then handles the last answer as usual", async () => {
    const { client, calls, notices } = fakeServer([
      json(500, { detail: "a" }),
      json(503, {}),
      json(504, {}),
      json(500, { detail: "the last one" }),
      json(200, {}),
    ]);
    const { error } = await settle(client.request("api/sankey/", { method: "POST", body: {} }));
    expect(calls).toHaveLength(4);
    expect(error).toBeInstanceOf(ApiClientError);
    expect((error as ApiClientError).message).toBe("the last one");
    expect(notices).toEqual([{ kind: "danger", title: "Server error", message: "the last one" }]);
  });

  it("honours Retry-After in seconds on 429", async () => {
    const { client, calls } = fakeServer([json(429, {}, { "Retry-After": "5" }), json(200, { ok: true })]);
    const pending = client.request("api/version/");
    await vi.advanceTimersByTimeAsync(4999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await expect(pending).resolves.toEqual({ ok: true });
  });

  it("honours Retry-After as an HTTP date on 503", async () => {
    const { client, calls } = fakeServer([json(503, {}, { "Retry-After": "Mon, 02 Mar 2026 10:00:09 GMT" }), json(200, { ok: true })]);
    const { value } = await settle(client.request("api/flows/", { method: "POST", body: {} }));
    expect(value).toEqual({ ok: true });
    expect(calls[1].at - calls[0].at).toBe(9000);
  });

  it("caps a long Retry-After at 30 s and backs off without one", async () => {
    const { client, calls } = fakeServer([json(429, {}, { "Retry-After": "86400" }), json(429, {}), json(200, { ok: true })]);
    await settle(client.request("api/version/"));
    expect(calls.map((c) => c.at - calls[0].at)).toEqual([0, 30_000, 30_400]);
  });

  it("never retries a mutation: not on a network error, a 5xx or a 429", async () => {
    for (const answer of [networkError(), json(500, {}), json(429, {}, { "Retry-After": "1" }), json(503, {})]) {
      const { client, calls } = fakeServer([answer, json(200, { created: true })]);
      const { error, value } = await settle(client.request("api/netcommand/", { method: "POST", body: {} }));
      expect(value).toBeUndefined();
      expect(error).toBeDefined();
      expect(calls).toHaveLength(1);
    }
    for (const method of ["PUT", "DELETE"] as const) {
      const { client, calls } = fakeServer([json(502, {}), json(200, {})]);
      await settle(client.request("api/mapping/", { method, body: {} }));
      expect(calls).toHaveLength(1);
    }
  });

  it("does not retry a 4xx", async () => {
    for (const status of [400, 401, 403, 404, 409, 424]) {
      const { client, calls } = fakeServer([json(status, { detail: "no" }), json(200, {})]);
      await settle(client.request("api/version/"));
      expect(calls).toHaveLength(1);
    }
  });

  it("does not retry when retries are off (the second client's own rule)", async () => {
    const { client, calls } = fakeServer([networkError(), json(200, {})]);
    await settle(client.request("api/version/", { retry: false }));
    expect(calls).toHaveLength(1);
  });

  it("a call cancelled by a later one with the same id is neither retried nor notified, even while waiting", async () => {
    // The first call's fetch is cancelled through its signal.
    const calls: string[] = [];
    const notices: Notice[] = [];
    let first = true;
    const client = createApiClient({
      notify: (n) => notices.push(n),
      fetch: (url, init) => {
        calls.push(url);
        if (first) {
          first = false;
          return new Promise((_resolve, reject) =>
            init.signal?.addEventListener("abort", () => reject(new DOMException("The operation was aborted.", "AbortError"))),
          );
        }
        return Promise.resolve(json(200, { second: true }));
      },
    });
    const a = settle(client.request("api/flows/", { method: "POST", body: { n: 1 } }));
    const b = settle(client.request("api/flows/", { method: "POST", body: { n: 2 } }));
    const [outcomeA, outcomeB] = await Promise.all([a, b]);
    expect((outcomeA.error as Error).name).toBe("AbortError");
    expect(outcomeB.value).toEqual({ second: true });
    expect(calls).toHaveLength(2);
    expect(notices).toEqual([]);

    // Cancelled during the wait before a retry: no further attempt.
    const waiting = fakeServer([networkError(), json(200, { late: true }), json(200, { fresh: true })]);
    const c = waiting.client.request("api/version/");
    const cOutcome = c.then(
      () => "resolved",
      (e: Error) => e.name,
    );
    await vi.advanceTimersByTimeAsync(50);
    const d = waiting.client.request("api/version/");
    await vi.runAllTimersAsync();
    expect(await cOutcome).toBe("AbortError");
    await expect(d).resolves.toEqual({ late: true });
    expect(waiting.calls).toHaveLength(2);
    expect(waiting.notices).toEqual([]);
  });

  it("the time-out is rethrown as is, not retried", async () => {
    const calls: string[] = [];
    const client = createApiClient({
      fetch: (url, init) => {
        calls.push(url);
        return new Promise((_resolve, reject) =>
          init.signal?.addEventListener("abort", () => reject(new DOMException("The operation was aborted.", "AbortError"))),
        );
      },
    });
    const { error } = await settle(client.request("api/version/", { timeoutMs: 1000 }));
    expect((error as Error).name).toBe("AbortError");
    expect(calls).toHaveLength(1);
  });

  it("keeps network errors quiet when asked, still rethrowing them", async () => {
    const { client, notices } = fakeServer([networkError(), networkError(), networkError(), networkError()]);
    const { error } = await settle(client.request("api/max_timestamp/", { ignoreNetworkErrors: true }));
    expect(error).toBeInstanceOf(TypeError);
    expect(notices).toEqual([]);
  });
});

describe("failed results and call failures", () => {
  it("a Failed result is a user error when resolvable, otherwise an internal one", () => {
    const user = failedResultError({ status: "Failed", resolvable: true, detail: "Choose a shorter time range." });
    expect([user.kind, user.message]).toEqual(["user", "Choose a shorter time range."]);
    const internal = failedResultError({ status: "Failed", detail: "worker 3 crashed: segfault" });
    expect([internal.kind, internal.message]).toEqual(["internal", MESSAGES.serverError]);
    expect(internal.body).toEqual({ status: "Failed", detail: "worker 3 crashed: segfault" });
    // Resolvable without a reason to show cannot tell the user what to change.
    expect(failedResultError({ status: "Failed", resolvable: true }).kind).toBe("internal");
  });

  it("the second client raises those errors", async () => {
    const { client } = fakeServer([json(200, { status: "Failed", resolvable: true, detail: "Too many prefixes." })]);
    const { error } = await settle(client.requestV2("rna/"));
    expect(error).toMatchObject({ kind: "user", message: "Too many prefixes." });
  });

  it("failureOf reads each ending of a call", () => {
    expect(failureOf(new DOMException("x", "AbortError")).kind).toBe("aborted");
    expect(failureOf(new TypeError("Failed to fetch"))).toEqual({ kind: "network", message: MESSAGES.networkInterrupted, status: null });
    expect(failureOf(new ApiClientError("raw", '400 {"detail":"Invalid IP address"}', 400, { detail: "Invalid IP address" }))).toEqual({
      kind: "user",
      message: "Invalid IP address",
      status: 400,
    });
    expect(failureOf(new ApiClientError("raw", "400 <html>", 400, "<html>")).message).toBe(MESSAGES.unknownError);
    expect(failureOf(new ApiClientError("raw", "502 Bad gateway", 502, "Bad gateway"))).toEqual({
      kind: "internal",
      message: MESSAGES.serverError,
      status: 502,
    });
    expect(failureOf(new Error("something else")).kind).toBe("internal");
  });
});
