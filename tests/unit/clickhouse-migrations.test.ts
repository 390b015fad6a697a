import { describe, expect, it } from "vitest";
import { DEFAULT_LAYOUT, loadMigrations, renderMigration, splitStatements } from "~/server/clickhouse-migrations.server";

const SAMPLE = `-- a comment
CREATE TABLE IF NOT EXISTS t{{LOCAL}} {{ON_CLUSTER}} (a UInt8) ENGINE = {{REPLICATED}}MergeTree ORDER BY a
TTL x + INTERVAL {{RAW_TTL_DAYS}} DAY;
CREATE MATERIALIZED VIEW IF NOT EXISTS v{{LOCAL}} {{ON_CLUSTER}} TO t{{LOCAL}} AS SELECT 1 AS a;
-- @distributed t rand()
`;

describe("ClickHouse migrations", () => {
  it("splits statements and drops comments", () => {
    expect(splitStatements("-- x\nSELECT 1;\nSELECT 2;\n")).toEqual(["SELECT 1", "SELECT 2"]);
  });

  it("renders the single-server variant without cluster clauses", () => {
    const statements = renderMigration(SAMPLE, DEFAULT_LAYOUT);
    expect(statements).toEqual([
      "CREATE TABLE IF NOT EXISTS t  (a UInt8) ENGINE = MergeTree ORDER BY a\nTTL x + INTERVAL 7 DAY",
      "CREATE MATERIALIZED VIEW IF NOT EXISTS v  TO t AS SELECT 1 AS a",
    ]);
  });

  it("renders the cluster variant: local replicated tables plus a Distributed table", () => {
    const statements = renderMigration(SAMPLE, { ...DEFAULT_LAYOUT, cluster: "flows" });
    expect(statements).toEqual([
      "CREATE TABLE IF NOT EXISTS t_local ON CLUSTER 'flows' (a UInt8) ENGINE = ReplicatedMergeTree ORDER BY a\nTTL x + INTERVAL 7 DAY",
      "CREATE MATERIALIZED VIEW IF NOT EXISTS v_local ON CLUSTER 'flows' TO t_local AS SELECT 1 AS a",
      "CREATE TABLE IF NOT EXISTS t ON CLUSTER 'flows' AS t_local ENGINE = Distributed('flows', currentDatabase(), t_local, rand())",
    ]);
  });

  it("numbers the project's migrations and leaves no placeholder unrendered", () => {
    for (const layout of [DEFAULT_LAYOUT, { ...DEFAULT_LAYOUT, cluster: "c1" }]) {
      const migrations = loadMigrations(layout);
      expect(migrations.map((m) => m.version)).toEqual([...migrations.map((m) => m.version)].sort((a, b) => a - b));
      expect(migrations.length).toBeGreaterThanOrEqual(3);
      for (const statement of migrations.flatMap((m) => m.statements)) expect(statement).not.toMatch(/\{\{|\}\}/);
    }
  });
});
