import { describe, expect, it } from "vitest";
import { ApiClientError, classifyFailure, createApiClient, type Notice } from "~/lib/api-client";
import { MESSAGES } from "~/lib/messages";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

describe("HTTP failure handling", () => {
  it("maps statuses as the spec says", () => {
    expect(classifyFailure(400, { detail: "x" })).toBeNull();
    expect(classifyFailure(424, {})).toBeNull();
    expect(classifyFailure(401, {})!.error.kind).toBe("unauthorized");
    expect(classifyFailure(403, { exception_code: "not_authenticated" })!.error.message).toBe(MESSAGES.sessionExpired);
    expect(classifyFailure(403, { detail: "no" })!.error.message).toBe("no");
    expect(classifyFailure(403, {})!.error.message).toBe("permission denied");
    expect(classifyFailure(404, {})!.notice).toEqual({ kind: "warning", title: "Not found", message: MESSAGES.noDataForSearch });
    expect(classifyFailure(500, { detail: "boom" })!.notice).toEqual({ kind: "danger", title: "Server error", message: "boom" });
    expect(classifyFailure(418, {})!.notice!.message).toBe(MESSAGES.unknownError);
  });
});

describe("api client", () => {
  it("sends the version header, passes 400 bodies through, toasts 500s and keeps the last 30 calls", async () => {
    // Mutations: one attempt each (retries of reads are in api-client-retry.test.ts).
    const notices: Notice[] = [];
    const seen: RequestInit[] = [];
    const responses = [
      json(400, { detail: "bad" }),
      json(500, { detail: "down" }),
      ...Array.from({ length: 40 }, () => json(200, { ok: true })),
    ];
    const client = createApiClient({ fetch: async (_url, init) => (seen.push(init), responses.shift()!), notify: (n) => notices.push(n) });
    expect(await client.request("api/mapping/", { method: "PUT", body: {} })).toEqual({ detail: "bad" });
    await expect(client.request("api/mapping/", { method: "PUT", body: {} })).rejects.toBeInstanceOf(ApiClientError);
    expect(notices).toEqual([{ kind: "danger", title: "Server error", message: "down" }]);
    expect((seen[0].headers as Record<string, string>).Accept).toBe("application/json; version=17");
    for (let i = 0; i < 40; i++) await client.request(`api/x${i}/`);
    expect(client.history()).toHaveLength(30);
    expect(client.history()[0].path).toBe("api/x39/");
  });

  it("cancels a pending request when one with the same id starts", async () => {
    const client = createApiClient({
      fetch: (_url, init) =>
        new Promise((resolve, reject) => {
          init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
          setTimeout(() => resolve(json(200, { ok: 1 })), 50);
        }),
    });
    const first = client.request("api/sankey/", { method: "POST", body: {} });
    const second = client.request("api/sankey/", { method: "POST", body: {} });
    await expect(first).rejects.toThrow(/aborted/);
    await expect(second).resolves.toEqual({ ok: 1 });
  });

  it("second client: retries 429 and Started with 200 ms doubling to 3 s, raises Failed, 404 = vanished", async () => {
    const waits: number[] = [];
    const responses = [
      json(429, {}),
      json(200, { status: "Started" }),
      ...Array.from({ length: 5 }, () => json(200, { status: "Started" })),
      json(200, { status: "Done", rows: [1] }),
    ];
    const client = createApiClient({ fetch: async () => responses.shift()!, sleep: async (ms) => void waits.push(ms) });
    await expect(client.requestV2("rna/")).resolves.toEqual({ status: "Done", rows: [1] });
    expect(waits).toEqual([200, 400, 800, 1600, 3000, 3000, 3000]);
    const failing = createApiClient({
      fetch: async () => json(200, { status: "Failed", resolvable: true, detail: "query too large" }),
      sleep: async () => {},
    });
    await expect(failing.requestV2("rna/")).rejects.toThrow("query too large");
    const vanished = createApiClient({ fetch: async () => json(404, {}), sleep: async () => {} });
    await expect(vanished.requestV2("rna/")).rejects.toThrow(MESSAGES.resultVanished);
  });
});
