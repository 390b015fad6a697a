/**
 * The ClickHouse door without an engine: each call is timed under its name, rows are checked
 * against the schema, the database override qualifies only the flows tables, and reads inside a
 * request run with the time limit while background work runs without one.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ClickHouseClient } from "@clickhouse/client";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { NO_OVERRIDE, qualifyFlowsTables } from "~/server/clickhouse/database-override.server";
import { inTurn } from "~/server/clickhouse/limits.server";
import { chCommand, chInsert, chQuery, chQueryUnchecked, observeQueries, openQueryDoor } from "~/server/clickhouse/query.server";
import { metricSeries, metricsSnapshot, resetMetrics } from "~/server/metrics.server";
import { runInRequestScope } from "~/server/request-scope.server";

type Call = { kind: string; query?: string; table?: string; params?: Record<string, unknown>; settings?: Record<string, unknown> };

function fakeDoor(rows: unknown[], databases = NO_OVERRIDE) {
  const calls: Call[] = [];
  const client = {
    query: async (p: { query: string; query_params?: Record<string, unknown>; clickhouse_settings?: Record<string, unknown> }) => {
      calls.push({ kind: "query", query: p.query, params: p.query_params, settings: p.clickhouse_settings });
      return { json: async () => rows };
    },
    insert: async (p: { table: string; clickhouse_settings?: Record<string, unknown> }) => {
      calls.push({ kind: "insert", table: p.table, settings: p.clickhouse_settings });
    },
    command: async (p: { query: string; clickhouse_settings?: Record<string, unknown> }) => {
      calls.push({ kind: "command", query: p.query, settings: p.clickhouse_settings });
    },
  } as unknown as ClickHouseClient;
  const limits = { global: 2, perUser: 1, queue: 4, queuePerUser: 2, maxWaitMs: 1000, maxExecutionSeconds: 7 };
  const ch = openQueryDoor({ client, kind: "chdb", database: "flowlens", close: async () => {} }, limits, {
    identify: async () => "user:1",
    databases: async () => databases,
  });
  return { ch, calls };
}

/** The tests' reader (each test asserts the values it reads), this test, and the bench that is the measurement. */
const UNCHECKED_WITHOUT_MEASUREMENT = [
  path.join("tests", "helpers", "stores.ts"),
  path.join("tests", "unit", "clickhouse-door.test.ts"),
  path.join("bench", "row-schema.ts"),
];

afterEach(() => resetMetrics());

describe("the ClickHouse door", () => {
  it("records each call's duration under ch.<name>", async () => {
    const { ch } = fakeDoor([{ n: 1 }]);
    const schema = z.object({ n: z.number() });
    await chQuery(ch, { name: "flows.count", sql: "SELECT 1 AS n", schema });
    await chQuery(ch, { name: "flows.count", sql: "SELECT 1 AS n", schema });
    await chInsert(ch, { name: "demo.rows", table: "t", values: [{ a: 1 }] });
    await chCommand(ch, { name: "demo.drop", sql: "DROP TABLE t" });
    const { durations } = metricsSnapshot();
    expect(durations["ch.flows.count"].count).toBe(2);
    expect(durations["ch.demo.rows"].count).toBe(1);
    expect(durations["ch.demo.drop"].count).toBe(1);
  });

  it("counts the reads of requests apart and tells every read to its observers until they stop", async () => {
    const { ch } = fakeDoor([]);
    const schema = z.object({});
    const seen: { name: string; inRequest: boolean }[] = [];
    const stop = observeQueries((e) => seen.push(e));
    await chQuery(ch, { name: "bg", sql: "SELECT 1", schema });
    await runInRequestScope({}, () => chQuery(ch, { name: "planners.linkFigures", sql: "SELECT 1", schema }));
    await runInRequestScope({}, () => chQuery(ch, { name: "planners.linkFigures", sql: "SELECT 1", schema }));
    await runInRequestScope({}, () => chInsert(ch, { name: "write", table: "t", values: [] }));
    stop();
    await chQuery(ch, { name: "after", sql: "SELECT 1", schema });
    expect(seen).toEqual([
      { name: "bg", inRequest: false },
      { name: "planners.linkFigures", inRequest: true },
      { name: "planners.linkFigures", inRequest: true },
    ]);
    const counted = metricSeries().counters.filter((c) => c.name === "flowlens_clickhouse_request_reads_total");
    expect(counted).toEqual([{ name: "flowlens_clickhouse_request_reads_total", labels: { query: "planners.linkFigures" }, value: 2 }]);
  });

  it("checks every row against the schema, naming the query, the row and the field", async () => {
    const { ch } = fakeDoor([{ n: "12" }]);
    expect(await chQuery(ch, { name: "ok", sql: "SELECT 1", schema: z.object({ n: z.coerce.number() }) })).toEqual([{ n: 12 }]);
    await expect(chQuery(ch, { name: "menu.tables", sql: "SELECT 1", schema: z.object({ n: z.array(z.string()) }) })).rejects.toThrow(
      /menu\.tables: row 0/,
    );
  });

  it("limits reads inside a request and nothing outside, and applies the user's override there only", async () => {
    const { ch, calls } = fakeDoor([], { flows: "archive", rawFlows: null });
    const schema = z.object({});
    await chQuery(ch, { name: "bg", sql: "SELECT count() FROM flows_5m", schema });
    await runInRequestScope({}, () => chQuery(ch, { name: "req", sql: "SELECT count() FROM flows_5m", schema }));
    await runInRequestScope({}, () => chInsert(ch, { name: "write", table: "flows_raw", values: [] }));
    expect(calls[0]).toMatchObject({ query: "SELECT count() FROM flows_5m", settings: { max_execution_time: 0 } });
    expect(calls[1]).toMatchObject({
      query: "SELECT count() FROM {flowsDatabase:Identifier}.flows_5m",
      params: { flowsDatabase: "archive" },
      settings: { max_execution_time: 7 },
    });
    expect(calls[2]).toMatchObject({ kind: "insert", table: "flows_raw", settings: { max_execution_time: 0 } });
  });
});

describe("row schemas", () => {
  it("refuses a read without a schema: a type error, and at run time for a caller that casts it away", async () => {
    const { ch, calls } = fakeDoor([{ n: 1 }]);
    // @ts-expect-error chQuery takes no read without a row schema (chQueryUnchecked is the separate, measured exception)
    await expect(chQuery(ch, { name: "flows.count", sql: "SELECT 1 AS n" })).rejects.toThrow(/flows\.count: no row schema/);
    expect(calls).toEqual([]);
  });

  it("fails on the first wrong row with the field that broke the schema", async () => {
    const { ch } = fakeDoor([{ n: 1 }, { n: "2" }]);
    await expect(chQuery(ch, { name: "flows.count", sql: "SELECT 1 AS n", schema: z.object({ n: z.number() }) })).rejects.toThrow(
      /flows\.count: row 1 does not match its schema[\s\S]*at n/,
    );
  });

  it("gives the unchecked read's rows as the engine sent them", async () => {
    const { ch } = fakeDoor([{ n: "12", extra: true }]);
    expect(await chQueryUnchecked<{ n: string }>(ch, { name: "hot", sql: "SELECT 1" })).toEqual([{ n: "12", extra: true }]);
  });

  it("calls the unchecked read only where a comment names its measurement (bench/)", () => {
    const sources = ["app", "db", "scripts", "bench", "tests"].flatMap((dir) =>
      readdirSync(dir, { recursive: true, encoding: "utf8" })
        .filter((file) => /\.tsx?$/.test(file))
        .map((file) => path.join(dir, file)),
    );
    const unmeasured: string[] = [];
    for (const file of sources) {
      if (UNCHECKED_WITHOUT_MEASUREMENT.includes(file)) continue;
      const lines = readFileSync(file, "utf8").split("\n");
      lines.forEach((line, i) => {
        if (!/chQueryUnchecked\s*[<(]/.test(line) || /function chQueryUnchecked/.test(line)) return;
        const comment = lines.slice(Math.max(0, i - 4), i).filter((l) => l.trim().startsWith("//"));
        if (!comment.some((l) => l.includes("bench/"))) unmeasured.push(`${file}:${i + 1}`);
      });
    }
    expect(unmeasured).toEqual([]);
  });
});

describe("qualifyFlowsTables", () => {
  it("qualifies the flows tables read, raw and aggregated apart, and nothing else", () => {
    const sql =
      "SELECT * FROM flows_5m JOIN flows_raw USING (x) WHERE k IN (SELECT k FROM flows_1h) AND y IN (SELECT y FROM interface_util_5m)";
    expect(qualifyFlowsTables(sql, { a: 1 }, { flows: "agg", rawFlows: null })).toEqual({
      sql: "SELECT * FROM {flowsDatabase:Identifier}.flows_5m JOIN flows_raw USING (x) WHERE k IN (SELECT k FROM {flowsDatabase:Identifier}.flows_1h) AND y IN (SELECT y FROM interface_util_5m)",
      params: { a: 1, flowsDatabase: "agg" },
    });
    expect(qualifyFlowsTables(sql, {}, { flows: null, rawFlows: "raw" }).sql).toContain("JOIN {rawFlowsDatabase:Identifier}.flows_raw");
    expect(qualifyFlowsTables("SELECT 1 FROM other.flows_5m, flows_5m_mv", {}, { flows: "agg", rawFlows: null }).sql).toBe(
      "SELECT 1 FROM other.flows_5m, flows_5m_mv",
    );
  });

  it("never puts a name that is not a database name into a statement", () => {
    expect(() => qualifyFlowsTables("SELECT 1 FROM flows_5m", {}, { flows: "x; DROP TABLE y", rawFlows: null })).toThrow();
  });
});

describe("inTurn", () => {
  /** Tasks that record how many run at once. */
  function tracked(n: number) {
    let running = 0;
    let most = 0;
    const tasks = Array.from({ length: n }, (_, i) => async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5 * (n - i)));
      running -= 1;
      return i;
    });
    return { tasks, most: () => most };
  }

  it("runs a request's reads no more at once than one user may run, results in order", async () => {
    for (const width of [1, 2, 4]) {
      const { tasks, most } = tracked(4);
      expect(await inTurn(width, ...tasks)).toEqual([0, 1, 2, 3]);
      expect(most()).toBe(width);
    }
  });

  it("rejects with the first failure", async () => {
    await expect(
      inTurn(
        1,
        async () => 1,
        async () => {
          throw new Error("refused");
        },
      ),
    ).rejects.toThrow("refused");
  });
});
