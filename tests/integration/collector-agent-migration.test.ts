/**
 * PostgreSQL migration 0013 (collector_exporters: sub_agent_id in the primary key, udp_sources)
 * upgrades a data directory of the previous release: the test writes that release's schema and
 * per-exporter rows, closes the store, starts the services on the same directory as the app does,
 * reads every row back — each old row's UDP source is its address, its sub-agent 0 —, has the
 * collector add to an old row and write two sub-agents of one agent, and starts again to show that
 * nothing changes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectorExporters } from "~db/postgres/schema";
import { ExporterStats } from "~/features/collector/runtime/exporter-stats.server";
import { emptyDelta } from "~/features/collector/runtime/messages";
import type { AppConfig } from "~/server/env.server";
import { startServices, type Services } from "~/server/services.server";
import { pgMigrationsBefore } from "../helpers/migrations";
import { openPreviousPostgres, pgSnapshot, rawPgOf, upgradeTestConfig, type RawPg } from "../helpers/previous-postgres";
import type { createThrowawayDatabase } from "../helpers/stores";

const PREVIOUS_ROWS = `
  INSERT INTO collector_exporters (address, protocol, listener, first_seen, last_seen, datagrams, flows, flows_stored,
      template_misses, decode_errors, drops, sampling_rates, unknown_if_indexes, clock_skew_ms, clock_skewed) VALUES
    ('192.0.2.1', 'netflow9', 'flows-netflow 0.0.0.0:2055', '2026-01-01T10:00:00Z', '2026-01-02T10:00:00Z', 100, 2500, 2400,
      3, '{"truncated": 2}', '{"queue_full": 100}', '{1,1000}', '{7,9}', 120, false),
    ('2001:db8::9', 'sflow5', 'flows-sflow 0.0.0.0:6343', '2026-01-01T11:00:00Z', '2026-01-02T11:00:00Z', 40, 40, 40,
      0, '{}', '{}', '{512}', '{}', NULL, false);
`;

const exporterColumns = (pg: RawPg) =>
  pg.rows(`SELECT address, protocol, datagrams::int AS datagrams, flows::int AS flows, decode_errors, sampling_rates
           FROM collector_exporters ORDER BY address, protocol`);

describe("upgrade of a data directory of the previous release (collector exporters by sFlow agent)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-upgrade-agent-"));
  const previousPg = pgMigrationsBefore('ADD COLUMN "sub_agent_id"');
  let database: Awaited<ReturnType<typeof createThrowawayDatabase>> | null = null;
  let config: AppConfig;
  let before: { snapshot: Record<string, string[]>; exporters: Record<string, unknown>[] };
  let services: Services;

  beforeAll(async () => {
    ({ config, database } = await upgradeTestConfig(dataDir));
    const pg = await openPreviousPostgres(config, previousPg);
    try {
      await pg.exec(PREVIOUS_ROWS);
      before = { snapshot: await pgSnapshot(pg), exporters: await exporterColumns(pg) };
      const columns = await pg.rows("SELECT column_name FROM information_schema.columns WHERE table_name = 'collector_exporters'");
      expect(columns.map((c) => c.column_name)).not.toContain("sub_agent_id");
    } finally {
      await pg.close();
    }
    expect(before.exporters).toHaveLength(2);
    services = await startServices(config);
  }, 180_000);

  afterAll(async () => {
    await services?.close();
    await database?.drop();
    for (const dir of [dataDir, previousPg]) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps every row and figure; each old exporter is sub-agent 0, heard from its own address", async () => {
    const after = await pgSnapshot(rawPgOf(services));
    for (const table of Object.keys(before.snapshot)) {
      if (table === "collector_exporters") continue;
      // The reference rows written at every start may add rows (a new permission or flag); none goes away.
      for (const row of before.snapshot[table]) expect([table, after[table]]).toEqual([table, expect.arrayContaining([row])]);
    }
    expect(await exporterColumns(rawPgOf(services))).toEqual(before.exporters);
    const rows = await services.pg.db.select().from(collectorExporters);
    expect(rows.map((r) => [r.address, r.protocol, r.subAgentId, r.udpSources]).sort()).toEqual([
      ["192.0.2.1", "netflow9", 0, ["192.0.2.1"]],
      ["2001:db8::9", "sflow5", 0, ["2001:db8::9"]],
    ]);
  });

  it("adds the collector's figures to an old row, and keeps two sub-agents of one agent apart", async () => {
    const stats = new ExporterStats("flows-sflow 0.0.0.0:6343");
    const delta = (address: string, subAgentId: number, udpSource: string) => ({
      ...emptyDelta(address, "sflow5", Date.parse("2026-01-03T10:00:00Z"), subAgentId),
      datagrams: 1,
      flows: 2,
      udpSources: [udpSource],
    });
    stats.record(delta("2001:db8::9", 0, "2001:db8::9"));
    stats.record(delta("2001:db8::9", 0, "198.51.100.7"));
    stats.record(delta("2001:db8::9", 3, "198.51.100.7"));
    await stats.flush(services.pg.db);
    const rows = (await services.pg.db.select().from(collectorExporters)).filter((r) => r.protocol === "sflow5");
    expect(rows.map((r) => [r.subAgentId, r.datagrams, r.flows, r.udpSources]).sort()).toEqual([
      [0, 42, 44, ["198.51.100.7", "2001:db8::9"]],
      [3, 1, 2, ["198.51.100.7"]],
    ]);
  });

  it("changes nothing when the upgraded directory starts again", async () => {
    const settled = await pgSnapshot(rawPgOf(services));
    await services.close();
    services = await startServices(config);
    expect(await pgSnapshot(rawPgOf(services))).toEqual(settled);
  }, 120_000);
});
