import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { count, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { featureFlags, permissions, siteSettings, users } from "~db/postgres/schema";
import { PERMISSIONS } from "~/lib/permissions";
import { StoreUnavailableError } from "~/server/clickhouse.server";
import { CLICKHOUSE_MIGRATIONS_DIR } from "~/server/clickhouse-migrations.server";
import { parseConfig } from "~/server/env.server";
import { checkHealth } from "~/server/health.server";
import { startServices, storesAreEmpty } from "~/server/services.server";
import { chRows, openTestStores, type TestStores } from "../helpers/stores";
import { demoTestNow } from "../helpers/clock";
import { chInsert } from "~/server/clickhouse/query.server";

describe("stores on first start", () => {
  let stores: TestStores;
  beforeAll(async () => {
    stores = await openTestStores();
  });
  afterAll(() => stores?.dispose());

  it("applies the PostgreSQL migrations and the reference rows", async () => {
    const [{ n: permissionCount }] = await stores.pg.db.select({ n: count() }).from(permissions);
    expect(Number(permissionCount)).toBe(PERMISSIONS.length);
    const [{ n: flagCount }] = await stores.pg.db.select({ n: count() }).from(featureFlags);
    expect(Number(flagCount)).toBe(5);
    const settings = await stores.pg.db.select().from(siteSettings);
    expect(settings).toHaveLength(1);
    expect(settings[0].autocompleteMinLengths).toEqual({ primary_as: 1, secondary_as: 1, application: 2, infrastructure: 2 });
  });

  it("applies the ClickHouse migrations once and records them", async () => {
    const applied = await chRows<{ version: number }>(stores, "SELECT version FROM schema_migrations ORDER BY version");
    // Every numbered file of db/clickhouse, in order (a release that adds one changes nothing here).
    const files = readdirSync(CLICKHOUSE_MIGRATIONS_DIR).filter((f) => /^\d{4}_.+\.sql$/.test(f));
    expect(files.length).toBeGreaterThanOrEqual(6);
    expect(applied.map((r) => Number(r.version))).toEqual(files.map((f) => Number(f.slice(0, 4))).sort((a, b) => a - b));
    const tables = await chRows<{ name: string }>(
      stores,
      "SELECT name FROM system.tables WHERE database = currentDatabase() ORDER BY name",
    );
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        "flows_raw",
        "flows_5m",
        "flows_5m_mv",
        "flows_1h",
        "flows_1h_mv",
        "interface_util_5m",
        "rib_entries",
        "rib_current",
        "rib_current_mv",
        "tracked_as",
      ]),
    );
  });

  it("feeds the 5-minute and 1-hour aggregates from raw flows, scaled by sampling and folded by the top-200 rule", async () => {
    const ch = stores.ch;
    await chInsert(ch, { name: "test.fixture", table: "tracked_as", values: [{ asn: 2906, rank: 1, updated_at: 1_790_000_000 }] });
    const flow = (time: number, asSrc: number, bytes: number, sampling: number) => ({
      time_received: time,
      exporter_address: "::ffff:192.0.2.1",
      exporter_name: "r1",
      sampling_rate: sampling,
      ip_version: 4,
      src_addr: "::ffff:198.18.0.1",
      dst_addr: "::ffff:203.0.113.9",
      src_prefix_len: 24,
      dst_prefix_len: 24,
      protocol: 6,
      src_port: 443,
      dst_port: 50000,
      tcp_flags: 24,
      bytes,
      packets: 1,
      vrf_name: "default",
      ingress_router: "r1",
      in_if: "xe-0/0/1",
      egress_router: "r2",
      out_if: "xe-0/0/2",
      link_start_router: "",
      link_start_if: "",
      link_end_router: "",
      link_end_if: "",
      as_src: asSrc,
      as_hnd: 3356,
      as_nxt: 64500,
      as_dst: 64500,
      application: "",
      infrastructure: "",
    });
    // hh:00:10 and hh:04:50 share a 5-minute bucket; hh:05:00 starts the next; all in one hour.
    const t0 = demoTestNow() - (demoTestNow() % 3600); // recent: older rows fall to the retention TTLs
    await chInsert(ch, {
      name: "test.fixture",
      table: "flows_raw",
      values: [flow(t0 + 10, 2906, 100, 1000), flow(t0 + 290, 2906, 50, 2000), flow(t0 + 300, 15169, 7, 1000), flow(t0 + 301, -1, 3, 1000)],
      format: "JSONEachRow",
    });
    const fiveMinute = await chRows<{ time: string; as_src: number; bytes: number; as_hnd: number }>(
      stores,
      "SELECT toUnixTimestamp(time) AS time, as_src, as_hnd, toUInt64(sum(bytes)) AS bytes FROM flows_5m GROUP BY time, as_src, as_hnd ORDER BY time, as_src",
    );
    expect(fiveMinute.map((r) => [Number(r.time), Number(r.as_src), Number(r.as_hnd), Number(r.bytes)])).toEqual([
      [t0, 2906, -101, 100 * 1000 + 50 * 2000],
      [t0 + 300, -101, -101, 7000],
      [t0 + 300, -1, -101, 3000],
    ]);
    const hourly = await chRows<{ bytes: number }>(
      stores,
      "SELECT toUInt64(sum(bytes)) AS bytes FROM flows_1h WHERE time = toDateTime({t:UInt32})",
      { t: t0 },
    );
    expect(Number(hourly[0].bytes)).toBe(100_000 + 100_000 + 7000 + 3000);
  });

  it("reports both stores healthy", async () => {
    const health = await checkHealth(stores);
    expect(health.status).toBe("ok");
    expect(health.postgres.ok).toBe(true);
    expect(health.clickhouse.ok).toBe(true);
  });
});

describe("restart", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-restart-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  // Embedded stores persist in DATA_DIR; with a PostgreSQL server the database persists by itself.
  const config = () => parseConfig({ DATA_DIR: dataDir, DEMO_DATA: "off" });

  it.skipIf(Boolean(process.env.DATABASE_URL))("keeps the data of both embedded stores and does not migrate or seed twice", async () => {
    const first = await startServices(config());
    expect(await storesAreEmpty(first)).toBe(true);
    await first.pg.db.insert(users).values({ email: "kept@example.org" });
    await chInsert(first.ch, { name: "test.fixture", table: "tracked_as", values: [{ asn: 1, rank: 1, updated_at: 1_790_000_000 }] });
    await first.close();

    const second = await startServices(config());
    try {
      const [{ n }] = await second.pg.db
        .select({ n: count() })
        .from(users)
        .where(sql`${users.email} = 'kept@example.org'`);
      expect(Number(n)).toBe(1);
      expect(await storesAreEmpty(second)).toBe(false);
      const tracked = await chRows<{ n: number }>(second, "SELECT toUInt64(count()) AS n FROM tracked_as");
      expect(Number(tracked[0].n)).toBe(1);
      const migrations = await chRows<{ n: number }>(second, "SELECT toUInt64(count()) AS n FROM schema_migrations");
      // Each migration recorded once: as many rows as files, not twice as many.
      expect(Number(migrations[0].n)).toBe(readdirSync(CLICKHOUSE_MIGRATIONS_DIR).filter((f) => /^\d{4}_.+\.sql$/.test(f)).length);
      const settings = await second.pg.db.select().from(siteSettings);
      expect(settings).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

describe("unreachable stores", () => {
  it("names PostgreSQL when DATABASE_URL points nowhere, without echoing the password", async () => {
    const config = parseConfig({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "flowlens-bad-")),
      DATABASE_URL: "postgres://flowlens:s3cret@127.0.0.1:1/flowlens",
      SESSION_SECRET: "x".repeat(40),
    });
    const attempt = startServices(config);
    await expect(attempt).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(attempt).rejects.toThrow(
      /PostgreSQL is not available: cannot connect to postgres:\/\/flowlens:\*\*\*@127\.0\.0\.1:1\/flowlens/,
    );
  });

  it("names ClickHouse when CLICKHOUSE_URL points nowhere", async () => {
    const config = parseConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "flowlens-bad-")), CLICKHOUSE_URL: "http://127.0.0.1:1" });
    await expect(startServices(config, { pglitePath: ":memory:" })).rejects.toThrow(
      /ClickHouse is not available: cannot reach http:\/\/127\.0\.0\.1:1/,
    );
  });
});
