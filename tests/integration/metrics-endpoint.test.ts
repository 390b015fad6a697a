import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader } from "~/routes/metrics";
import { chQuery } from "~/server/clickhouse/query.server";
import { incrementCounter } from "~/server/metrics.server";
import { useServicesForTests } from "~/server/services.server";
import { ORIGIN } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

const TOKEN = "scrape-token-0123456789abcdef";

let stores: TestStores;
beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
});
afterAll(() => stores?.dispose());

async function scrape(headers: Record<string, string> = {}): Promise<Response> {
  return (await loader({ request: new Request(`${ORIGIN}/metrics`, { headers }), params: {}, context: {} })) as Response;
}

function withToken<T>(token: string | undefined, fn: () => Promise<T>): Promise<T> {
  const before = stores.config.METRICS_TOKEN;
  stores.config.METRICS_TOKEN = token;
  return fn().finally(() => (stores.config.METRICS_TOKEN = before));
}

describe("GET /metrics", () => {
  it("does not exist while METRICS_TOKEN is unset, whatever the request brings", async () => {
    expect(stores.config.METRICS_TOKEN).toBeUndefined();
    expect((await scrape()).status).toBe(404);
    expect((await scrape({ Authorization: `Bearer ${TOKEN}` })).status).toBe(404);
  });

  it("answers 401 without a bearer token and 403 with a wrong one", () =>
    withToken(TOKEN, async () => {
      const missing = await scrape();
      expect(missing.status).toBe(401);
      expect(missing.headers.get("WWW-Authenticate")).toBe('Bearer realm="metrics"');
      expect((await scrape({ Authorization: `Basic ${btoa(`x:${TOKEN}`)}` })).status).toBe(401);
      expect((await scrape({ Authorization: `Bearer ${TOKEN}x` })).status).toBe(403);
      expect((await scrape({ Authorization: `Bearer ${TOKEN.slice(0, -1)}` })).status).toBe(403);
      expect((await scrape({ Authorization: "Bearer " })).status).toBe(401);
    }));

  it("gives the counters, the query door's durations and the process's memory with the right token", () =>
    withToken(TOKEN, async () => {
      incrementCounter("flowlens_collector_datagrams_total", { exporter: "192.0.2.7", protocol: "netflow9" }, 3);
      await chQuery(stores.ch, { name: "test.metricsEndpoint", sql: "SELECT 1 AS one", schema: z.object({ one: z.number() }) });
      const response = await scrape({ Authorization: `Bearer ${TOKEN}` });
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("text/plain; version=0.0.4; charset=utf-8");
      expect(response.headers.get("Cache-Control")).toBe("no-store");
      const text = await response.text();
      expect(text).toContain("# TYPE flowlens_collector_datagrams_total counter\n");
      expect(text).toContain('flowlens_collector_datagrams_total{exporter="192.0.2.7",protocol="netflow9"} 3\n');
      expect(text).toMatch(/^flowlens_clickhouse_query_duration_seconds_count\{query="test\.metricsEndpoint"\} 1$/m);
      expect(text).toMatch(/^flowlens_clickhouse_query_duration_seconds_sum\{query="test\.metricsEndpoint"\} [0-9.e-]+$/m);
      const rss = Number(/^process_resident_memory_bytes (\d+)$/m.exec(text)?.[1]);
      expect(rss).toBeGreaterThan(10_000_000);
      // The scheme is case-insensitive (RFC 7235).
      expect((await scrape({ Authorization: `bearer ${TOKEN}` })).status).toBe(200);
    }));
});
