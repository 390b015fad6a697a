/**
 * PostgreSQL migration 0011 (the BMP station's bmp_router_status and bmp_unknown_sources) upgrades a
 * database of the previous release: its rows are kept as they were, the new tables are there and
 * empty, a status row follows its router (deleted with it), and migrating again changes nothing.
 */
import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PG_MIGRATIONS_DIR } from "~/server/postgres.server";
import { pgMigrationsBefore } from "../helpers/migrations";

type Pg = {
  rows: (q: string) => Promise<Record<string, unknown>[]>;
  exec: (q: string) => Promise<void>;
  migrate: (dir: string) => Promise<void>;
  close: () => Promise<void>;
};

async function openPg(): Promise<{ pg: Pg; drop: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `flowlens_t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    const db = drizzle(client);
    return {
      pg: {
        rows: async (q) => [...(await client.unsafe(q))],
        exec: async (q) => void (await client.unsafe(q)),
        migrate: (dir) => migrate(db, { migrationsFolder: dir }),
        close: () => client.end({ timeout: 5 }),
      },
      drop: async () => {
        const again = postgres(serverUrl, { max: 1, onnotice: () => {} });
        await again.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await again.end();
      },
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const client = new PGlite();
  const db = drizzle(client);
  return {
    pg: {
      rows: async (q) => (await db.execute<Record<string, unknown>>(sql.raw(q))).rows,
      exec: async (q) => void (await client.exec(q)),
      migrate: (dir) => migrate(db, { migrationsFolder: dir }),
      close: () => client.close(),
    },
    drop: async () => {},
  };
}

const snapshot = async (pg: Pg, tables: string[]) =>
  Object.fromEntries(
    await Promise.all(
      tables.map(async (t) => [t, (await pg.rows(`SELECT row_to_json(x)::text AS r FROM "${t}" x ORDER BY 1`)).map((r) => String(r.r))]),
    ),
  );

describe("PostgreSQL upgrade to the BMP station's tables", () => {
  const previous = pgMigrationsBefore('CREATE TABLE "bmp_router_status"');
  let pg: Pg;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ pg, drop } = await openPg());
    await pg.migrate(previous);
    await pg.exec(`
      INSERT INTO routers (id, name, city, country, loopback) VALUES (1, 'fra1-r1', 'Frankfurt', 'Germany', '192.0.2.1'),
                                                                     (2, 'ber1-r1', 'Berlin', 'Germany', '192.0.2.2');
      INSERT INTO router_exporters (address, router_id) VALUES ('198.51.100.1', 1);
      INSERT INTO vantage_points (key, city, country, router, ip, is_public) VALUES ('fra1', 'Frankfurt', 'Germany', 'fra1-r1', '192.0.2.1', true);
      INSERT INTO collector_listeners (component, address, host, pid) VALUES ('flows-netflow', '0.0.0.0:2055', 'collector1', 7);`);
  }, 60_000);

  afterAll(async () => {
    await pg?.close();
    await drop?.();
    rmSync(previous, { recursive: true, force: true });
  });

  it("keeps every row, adds the two tables, and a status row goes with its router", async () => {
    const tables = ["routers", "router_exporters", "vantage_points", "collector_listeners"];
    const before = await snapshot(pg, tables);
    const names = async () =>
      (
        await pg.rows(
          "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_name LIKE 'bmp_%' ORDER BY 1",
        )
      ).map((r) => r.t);
    expect(await names()).toEqual([]);
    await pg.migrate(PG_MIGRATIONS_DIR);
    expect(await names()).toEqual(["bmp_router_status", "bmp_unknown_sources"]);
    expect(await snapshot(pg, tables)).toEqual(before);
    await pg.exec(`
      INSERT INTO bmp_router_status (router_id, vantage_point, address, state, session_started_at) VALUES (2, 'ber1-r1', '192.0.2.2', 'up', now());
      INSERT INTO bmp_unknown_sources (address) VALUES ('203.0.113.9');`);
    const [row] = await pg.rows(
      "SELECT peers::text AS peers, messages::text AS messages, decode_errors, routes_withdrawn FROM bmp_router_status",
    );
    expect(row).toEqual({ peers: "[]", messages: "{}", decode_errors: expect.anything(), routes_withdrawn: false });
    expect(Number(row.decode_errors)).toBe(0);
    await pg.exec("DELETE FROM routers WHERE id = 2");
    expect(await pg.rows("SELECT router_id FROM bmp_router_status")).toEqual([]);
    // Once more: nothing to apply, nothing changes.
    const after = await snapshot(pg, [...tables, "bmp_unknown_sources"]);
    await pg.migrate(PG_MIGRATIONS_DIR);
    expect(await snapshot(pg, [...tables, "bmp_unknown_sources"])).toEqual(after);
  });
});
