/**
 * The second client's loop with fake timers (spec §8: unlimited retries on 429 and Started, 200 ms
 * doubling to 3 s) and its cancellation (spec §7: a later call with the same id cancels the pending
 * one's polling, and only that).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApiClient } from "~/lib/api-client";
import { MESSAGES } from "~/lib/messages";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("requestV2 with the real waits", () => {
  it("asks again after 200, 400, 800, 1600, 3000, 3000 ms, on Started and on 429 alike, then returns the result", async () => {
    const answers = [
      json(200, { status: "Started", id: "a" }),
      json(429, { detail: "busy" }),
      json(200, { status: "Started", id: "a" }),
      json(200, { status: "Started", id: "a" }),
      json(200, { status: "Started", id: "a" }),
      json(200, { status: "Started", id: "a" }),
      json(200, { table: [1, 2] }),
    ];
    const at: number[] = [];
    const urls: string[] = [];
    const start = Date.now();
    const client = createApiClient({
      fetch: async (url) => {
        at.push(Date.now() - start);
        urls.push(url);
        return answers.shift()!;
      },
    });
    const result = client.requestV2("flows/", { method: "POST", body: { dimension: "AS_SRC_INGRESS" } });
    await vi.advanceTimersByTimeAsync(20_000);
    await expect(result).resolves.toEqual({ table: [1, 2] });
    expect(at).toEqual([0, 200, 600, 1400, 3000, 6000, 9000]);
    expect(new Set(urls)).toEqual(new Set(["/api/v2/flows/"]));
  });

  it("a 404 is the vanished result's text; Failed raises at once", async () => {
    const vanished = createApiClient({ fetch: async () => json(404, { detail: "Not found." }) });
    await expect(vanished.requestV2("rna/", { method: "POST" })).rejects.toThrow(MESSAGES.resultVanished);
    const failed = createApiClient({ fetch: async () => json(200, { status: "Failed", resolvable: false, detail: "crash" }) });
    await expect(failed.requestV2("rna/", { method: "POST" })).rejects.toThrow(MESSAGES.serverError);
  });

  it("a later call with the same id stops the pending one's polling, not another's", async () => {
    const calls: string[] = [];
    const client = createApiClient({
      fetch: async (_url, init) => {
        const body = String(init.body);
        calls.push(body);
        return json(200, body.includes("done") ? { ok: body } : { status: "Started", id: body });
      },
    });
    const first = client.requestV2("flows/", { method: "POST", body: { n: 1 } });
    const settled = first.catch((e: unknown) => e);
    const other = client.requestV2("sankey/", { method: "POST", body: { n: 3 } });
    const otherSettled = other.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_000);
    const asked = calls.filter((c) => c.includes('"n":1')).length;
    expect(asked).toBeGreaterThan(1);
    const second = client.requestV2("flows/", { method: "POST", body: { n: 2, done: true } });
    await expect(second).resolves.toEqual({ ok: JSON.stringify({ n: 2, done: true }) });
    expect(((await settled) as Error).name).toBe("AbortError");
    await vi.advanceTimersByTimeAsync(10_000);
    // The cancelled call asked no more; the other call kept polling.
    expect(calls.filter((c) => c.includes('"n":1')).length).toBe(asked);
    const sankeyAsks = calls.filter((c) => c.includes('"n":3')).length;
    await vi.advanceTimersByTimeAsync(6_000);
    expect(calls.filter((c) => c.includes('"n":3')).length).toBeGreaterThan(sankeyAsks);
    client.requestV2("sankey/", { method: "POST", body: { n: 4, done: true } }).catch(() => {});
    expect(((await otherSettled) as Error).name).toBe("AbortError");
  });
});
