/**
 * Who a BMP connection comes from: the inventory router whose loopback or one of whose flow
 * exporter addresses is the connection's source address (compared in one spelling: IPv4-mapped
 * IPv6 is plain IPv4), and the vantage point its routes are stored under. Connections from other
 * addresses are refused and recorded (bmp_unknown_sources), so the Data sources page can offer to
 * adopt them; the table keeps what that list shows (unknown-senders.ts).
 *
 * A router is a vantage point: the station uses the vantage point whose router is that router —
 * the one whose key is the router's name when there are several, else the first made — and makes
 * one when the router has none: key = the router's name when it is a valid key (letters, digits,
 * '.', '_', '-', at most 64, starting with a letter or digit) and free, else the name with every
 * other character replaced by '-' (cut to 60), followed by "-2", "-3", … until free; city, country
 * and address the router's; not public (staff decide what the public Looking Glass shows).
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import { bmpUnknownSources, routerExporters, routers, vantagePoints } from "~db/postgres/schema";
import type { Db } from "~/server/postgres.server";
import type { Services } from "~/server/services.server";
import { canonicalIp } from "../enrich/address";
import { createVantagePointOfRouter } from "~/features/inventory/inventory.server";
import { listedUnknownSenders } from "../unknown-senders";

export type BmpRouter = {
  id: number;
  name: string;
  /** The session's source address, canonical: what its rows carry in router_ip. */
  address: string;
  vantagePoint: string;
};

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The inventory router sending from `address` (loopback first, then exporter addresses), or null. */
export async function routerForSource(db: Db, address: string): Promise<{ id: number; name: string } | null> {
  const key = canonicalIp(address);
  if (!key) return null;
  const list = await db.select({ id: routers.id, name: routers.name, loopback: routers.loopback }).from(routers).orderBy(asc(routers.id));
  const byLoopback = list.find((r) => canonicalIp(r.loopback) === key);
  if (byLoopback) return { id: byLoopback.id, name: byLoopback.name };
  const exporters = await db
    .select({ id: routers.id, name: routers.name, address: routerExporters.address })
    .from(routerExporters)
    .innerJoin(routers, eq(routers.id, routerExporters.routerId));
  const byExporter = exporters.find((e) => canonicalIp(e.address) === key);
  return byExporter ? { id: byExporter.id, name: byExporter.name } : null;
}

/** The key a new vantage point of `router` gets, given the keys in use (see the module's comment). */
export function vantagePointKeyFor(router: string, taken: ReadonlySet<string>): string {
  if (KEY.test(router) && !taken.has(router)) return router;
  let base = router.replace(/[^A-Za-z0-9._-]/g, "-").slice(0, 60);
  if (!/^[A-Za-z0-9]/.test(base)) base = `r${base}`.slice(0, 60);
  if (!taken.has(base) && KEY.test(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** The vantage point of `router` (its name), made when it has none. */
export async function vantagePointOfRouter(stores: Pick<Services, "pg">, router: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const points = await stores.pg.db
      .select({ key: vantagePoints.key })
      .from(vantagePoints)
      .where(eq(vantagePoints.router, router))
      .orderBy(asc(vantagePoints.id));
    if (points.length) return (points.find((p) => p.key === router) ?? points[0]).key;
    const taken = new Set((await stores.pg.db.select({ key: vantagePoints.key }).from(vantagePoints)).map((p) => p.key));
    try {
      const made = await createVantagePointOfRouter(stores, {
        key: vantagePointKeyFor(router, taken),
        router,
        public: false,
        description: "Routing tables streamed over BMP",
      });
      return made.key;
    } catch (error) {
      // Two sessions of one router at once: the other made it first. Look again (once).
      if (attempt > 0) throw error;
    }
  }
}

/**
 * Counts a refused connection from `address` (canonical) at `at`, then forgets the sources the
 * list no longer shows (unknown-senders.ts: not heard for a week, or beyond the most recent
 * hundred), so a scan of many addresses leaves a bounded table.
 */
export async function recordUnknownSource(db: Db, address: string, at: Date): Promise<void> {
  await db
    .insert(bmpUnknownSources)
    .values({ address, firstSeen: at, lastSeen: at, attempts: 1 })
    .onConflictDoUpdate({
      target: bmpUnknownSources.address,
      set: {
        lastSeen: sql`greatest(${bmpUnknownSources.lastSeen}, excluded.last_seen)`,
        attempts: sql`${bmpUnknownSources.attempts} + 1`,
      },
    });
  const rows = await db.select({ address: bmpUnknownSources.address, lastSeen: bmpUnknownSources.lastSeen }).from(bmpUnknownSources);
  const listed = new Set(listedUnknownSenders(rows, (r) => r.address, at).map((r) => r.address));
  const forgotten = rows.filter((r) => !listed.has(r.address)).map((r) => r.address);
  if (forgotten.length) await db.delete(bmpUnknownSources).where(inArray(bmpUnknownSources.address, forgotten));
}

/** An address that streams as a known router now (adopted) leaves the list of sources to adopt. */
export async function forgetUnknownSource(db: Db, address: string): Promise<void> {
  await db.delete(bmpUnknownSources).where(eq(bmpUnknownSources.address, address));
}
