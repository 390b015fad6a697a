/**
 * The BMP station's figures in PostgreSQL (bmp_router_status), written by the station every few
 * seconds for the routers whose figures changed, read by the Data sources page: the counters are
 * added as deltas (messages by type, decode errors, what was skipped, sessions), the rest (session
 * state, peers, the router's names, the last error) replaced. The route counts are written apart,
 * by the station's periodic count of rib_current.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { bmpRouterStatus, bmpUnknownSources, routers, type BmpPeerStatus } from "~db/postgres/schema";
import type { Db } from "~/server/postgres.server";

export type RouterStatusUpdate = {
  routerId: number;
  vantagePoint: string;
  address: string;
  station: string;
  state: "up" | "closed";
  sysName: string;
  sysDescr: string;
  /** Sessions started since the last write. */
  sessionsStarted: number;
  sessionStartedAt: Date;
  sessionClosedAt: Date | null;
  closeReason: string | null;
  peers: BmpPeerStatus[];
  /** Counted since the last write. */
  messages: Record<string, number>;
  decodeErrors: number;
  skipped: Record<string, number>;
  /** The newest error since the last write, or null (the stored one stays). */
  lastError: { text: string; at: Date } | null;
};

/** { key: count } maps added key by key. */
const addCounts = (column: string) =>
  sql.raw(`(
  SELECT coalesce(jsonb_object_agg(key, total), '{}'::jsonb) FROM (
    SELECT key, sum(value::bigint) AS total
    FROM (SELECT * FROM jsonb_each_text(bmp_router_status.${column}) UNION ALL SELECT * FROM jsonb_each_text(excluded.${column})) s
    GROUP BY key) t)`);

export async function writeRouterStatus(db: Db, rows: RouterStatusUpdate[]): Promise<void> {
  if (!rows.length) return;
  // A router deleted from the inventory while its session ran has no status to keep (its row went with it).
  const present = new Set(
    (
      await db
        .select({ id: routers.id })
        .from(routers)
        .where(
          inArray(
            routers.id,
            rows.map((r) => r.routerId),
          ),
        )
    ).map((r) => r.id),
  );
  for (const row of rows) {
    if (!present.has(row.routerId)) continue;
    const values = {
      routerId: row.routerId,
      vantagePoint: row.vantagePoint,
      address: row.address,
      station: row.station,
      state: row.state,
      sysName: row.sysName,
      sysDescr: row.sysDescr,
      sessions: row.sessionsStarted,
      sessionStartedAt: row.sessionStartedAt,
      sessionClosedAt: row.sessionClosedAt,
      closeReason: row.closeReason,
      routesWithdrawn: false,
      peers: row.peers,
      messages: row.messages,
      decodeErrors: row.decodeErrors,
      skipped: row.skipped,
      lastError: row.lastError?.text ?? null,
      lastErrorAt: row.lastError?.at ?? null,
      updatedAt: new Date(),
    };
    await db
      .insert(bmpRouterStatus)
      .values(values)
      .onConflictDoUpdate({
        target: bmpRouterStatus.routerId,
        set: {
          vantagePoint: sql`excluded.vantage_point`,
          address: sql`excluded.address`,
          station: sql`excluded.station`,
          state: sql`excluded.state`,
          // A session that has not sent its Initiation yet keeps the names the router gave before.
          sysName: sql`coalesce(nullif(excluded.sys_name, ''), ${bmpRouterStatus.sysName})`,
          sysDescr: sql`coalesce(nullif(excluded.sys_descr, ''), ${bmpRouterStatus.sysDescr})`,
          sessions: sql`${bmpRouterStatus.sessions} + excluded.sessions`,
          sessionStartedAt: sql`excluded.session_started_at`,
          sessionClosedAt: sql`excluded.session_closed_at`,
          closeReason: sql`excluded.close_reason`,
          // A router streaming again has routes again.
          routesWithdrawn: sql`${bmpRouterStatus.routesWithdrawn} and excluded.state = 'closed'`,
          peers: sql`excluded.peers`,
          messages: addCounts("messages"),
          decodeErrors: sql`${bmpRouterStatus.decodeErrors} + excluded.decode_errors`,
          skipped: addCounts("skipped"),
          lastError: sql`coalesce(excluded.last_error, ${bmpRouterStatus.lastError})`,
          lastErrorAt: sql`coalesce(excluded.last_error_at, ${bmpRouterStatus.lastErrorAt})`,
          updatedAt: sql`excluded.updated_at`,
        },
      });
  }
}

/** The counted routes of a router: { view: n } and { peer: { view: n } }. */
export async function writeRouteCounts(
  db: Db,
  routerId: number,
  routes: Record<string, number>,
  peerRoutes: Record<string, Record<string, number>>,
  at: Date,
): Promise<void> {
  await db.update(bmpRouterStatus).set({ routes, peerRoutes, routesCountedAt: at }).where(eq(bmpRouterStatus.routerId, routerId));
}

/** The routes of a router that did not come back were withdrawn: a restart must not wait for it again. */
export async function markRoutesWithdrawn(db: Db, routerId: number): Promise<void> {
  await db
    .update(bmpRouterStatus)
    .set({ routesWithdrawn: true })
    .where(and(eq(bmpRouterStatus.routerId, routerId), eq(bmpRouterStatus.state, "closed")));
}

export type StoredRouterStatus = typeof bmpRouterStatus.$inferSelect & { router: string };

/** Every router's status with its current inventory name, by name. */
export async function bmpStatusRows(db: Db): Promise<StoredRouterStatus[]> {
  const rows = await db
    .select({ status: bmpRouterStatus, router: routers.name })
    .from(bmpRouterStatus)
    .innerJoin(routers, eq(routers.id, bmpRouterStatus.routerId))
    .orderBy(asc(routers.name));
  return rows.map((r) => ({ ...r.status, router: r.router }));
}

export type UnknownSourceRow = typeof bmpUnknownSources.$inferSelect;

/** Refused sources, the most recent first. */
export async function bmpUnknownSourceRows(db: Db): Promise<UnknownSourceRow[]> {
  const rows = await db.select().from(bmpUnknownSources);
  return rows.sort((a, b) => b.lastSeen.getTime() - a.lastSeen.getTime() || a.address.localeCompare(b.address));
}
