/**
 * Reads the enrichment snapshot (snapshot.ts) from the stores: the inventory and the AS mappings
 * from PostgreSQL, the routing tables of the routers' vantage points from ClickHouse (rib_current,
 * through the query door). The collector's runtime calls it at start and whenever it refreshes, on
 * the main thread, and posts the result to its workers.
 *
 * A routing table is read in pages of PAGE_ROWS prefixes, in the table's sorting-key order (keyset
 * paging on prefix_addr, prefix_len), one best path per prefix chosen by ClickHouse, and packed into
 * typed arrays as it arrives. Memory: per prefix 13 bytes of attributes plus at most two ranges of
 * the longest-prefix match (8 bytes each for IPv4, 20 for IPv6), so a full table of 1M IPv4 and
 * 200k IPv6 prefixes takes at most about 29 MB + 11 MB = 40 MB per vantage point (nested prefixes
 * share ranges: about 30 MB in practice), in SharedArrayBuffers that the workers share. While
 * loading, one page of rows (about 20 MB of objects) and the growing arrays (up to twice their
 * final size) are held in addition. Measured with embedded chDB: 1M IPv4 + 200k IPv6 prefixes with
 * two paths each load in about 15 s into 32 MB. Each page re-reads the table from its key on, so a
 * read costs a few scans of the vantage point's rows: fine for a refresh, not for every flow.
 */
import { z } from "zod";
import { executeRows } from "~/server/postgres.server";
import { asc, eq, sql } from "drizzle-orm";
import { asInfo, asServiceMappings } from "~db/postgres/schema";
import { chQuery, chQueryUnchecked, type Statement } from "~/server/clickhouse/query.server";
import { log, logValue } from "~/server/log.server";
import type { Services } from "~/server/services.server";
import { inventoryVersion, listInventoryVantagePoints, listRouters } from "~/features/inventory/inventory.server";
import { canonicalIp } from "./address";
import { RibTableBuilder, ribTableBytes, type AsService, type EnrichmentSnapshot, type RibTable, type SnapshotRouter } from "./snapshot";

const PAGE_ROWS = 100_000;

type RibRow = { a: string; l: number; o: number; f: number; n: string };

/**
 * One page of the best paths of a table: not withdrawn, then the usual BGP preference (highest
 * local preference, shortest AS path, lowest origin, lowest MED), then the lowest peer address so
 * the choice is stable. Only routes the router accepted count: its Loc-RIB and the post-policy
 * Adj-RIB-In of its peers (a BMP station stores the pre-policy ones too, which its import policy
 * may have rejected); where one route is in several of them the choice is the same path. The origin is the last AS of the path; a path that is only an AS_SET (an
 * aggregate) takes the set's lowest AS; an empty path gives 0 (the operator's own).
 */
export function ribPageSql(options: {
  vantagePoint: string;
  routeDistinguisher: string;
  after: { address: string; length: number } | null;
  limit: number;
}): Statement {
  const after = options.after
    ? "AND (prefix_addr > {afterAddress:IPv6} OR (prefix_addr = {afterAddress:IPv6} AND prefix_len > {afterLength:UInt8}))"
    : "";
  return {
    name: "collector.ribSnapshot",
    sql: `
SELECT toString(prefix_addr) AS a, prefix_len AS l,
       if(notEmpty(as_path), as_path[-1], if(notEmpty(as_path_set), arrayMin(as_path_set), 0)) AS o,
       if(notEmpty(as_path), as_path[1], 0) AS f,
       bgp_next_hop AS n
FROM (
    SELECT prefix_addr, prefix_len, peer_ip, rib_view, path_id, is_withdrawn, as_path, as_path_set, bgp_next_hop, local_pref, med, origin
    FROM rib_current FINAL
    WHERE vantage_point = {vantagePoint:String} AND route_distinguisher = {routeDistinguisher:String} AND rib_view != 'pre-policy' ${after}
)
WHERE is_withdrawn = 0
ORDER BY prefix_addr, prefix_len, local_pref DESC, length(as_path), origin, med, peer_ip, rib_view DESC, path_id
LIMIT 1 BY prefix_addr, prefix_len
LIMIT {limit:UInt32}`.trim(),
    params: {
      vantagePoint: options.vantagePoint,
      routeDistinguisher: options.routeDistinguisher,
      limit: options.limit,
      ...(options.after ? { afterAddress: options.after.address, afterLength: options.after.length } : {}),
    },
  };
}

async function loadRibTable(
  services: Pick<Services, "ch">,
  vantagePoint: string,
  routeDistinguisher: string,
  pageRows: number,
): Promise<RibTable> {
  const builder = new RibTableBuilder(vantagePoint, routeDistinguisher);
  let after: { address: string; length: number } | null = null;
  for (;;) {
    // Unchecked: a full table is over a million rows, and checking a page of 100k takes about 280 ms
    // of the main thread, 14% of its read (bench/row-schema.ts): seconds per refresh on the event loop.
    const rows = await chQueryUnchecked<RibRow>(services.ch, ribPageSql({ vantagePoint, routeDistinguisher, after, limit: pageRows }));
    for (const row of rows) builder.addParsed(row.a, Number(row.l), Number(row.o), Number(row.f), row.n);
    if (rows.length < pageRows) break;
    const last: RibRow = rows[rows.length - 1];
    after = { address: last.a, length: Number(last.l) };
  }
  if (builder.skipped)
    log.warn(
      `collector: ${builder.skipped} routes of vantage point ${vantagePoint} (${logValue(routeDistinguisher || "global", 100)}) have no readable prefix: left out of enrichment`,
    );
  return builder.build();
}

/** Every table (one per route distinguisher) of one vantage point. */
async function loadVantagePointTables(services: Pick<Services, "ch">, vantagePoint: string, pageRows: number): Promise<RibTable[]> {
  const distinguishers = await chQuery(services.ch, {
    name: "collector.ribDistinguishers",
    sql:
      "SELECT DISTINCT route_distinguisher AS rd FROM rib_current" +
      " WHERE vantage_point = {vantagePoint:String} AND rib_view != 'pre-policy' ORDER BY rd",
    params: { vantagePoint },
    schema: z.object({ rd: z.string() }),
  });
  const tables: RibTable[] = [];
  for (const { rd } of distinguishers) tables.push(await loadRibTable(services, vantagePoint, rd, pageRows));
  return tables;
}

/**
 * The snapshot with the routing tables of `vantagePoints` read again and every other part kept as
 * it is (the inventory, the mappings, the other tables): what a live routing feed (the BMP station)
 * asks for after it changed those tables. Vantage points no router of the snapshot uses are not read.
 */
export async function reloadRoutingTables(
  services: Pick<Services, "ch">,
  snapshot: EnrichmentSnapshot,
  vantagePoints: readonly string[],
  options: { pageRows?: number } = {},
): Promise<EnrichmentSnapshot> {
  const pageRows = Math.max(1, options.pageRows ?? PAGE_ROWS);
  const used = new Set(snapshot.routers.flatMap((r) => r.vantagePoints));
  const reload = [...new Set(vantagePoints)].filter((vp) => used.has(vp)).sort();
  if (!reload.length) return snapshot;
  const fresh = new Map<string, RibTable[]>();
  for (const vantagePoint of reload) fresh.set(vantagePoint, await loadVantagePointTables(services, vantagePoint, pageRows));
  const ribs = [...snapshot.ribs.filter((t) => !fresh.has(t.vantagePoint)), ...[...fresh.values()].flat()].sort(
    (a, b) => a.vantagePoint.localeCompare(b.vantagePoint) || a.routeDistinguisher.localeCompare(b.routeDistinguisher),
  );
  return { ...snapshot, loadedAtMs: Date.now(), ribs };
}

/** `pageRows`: prefixes per read (tests make it small to cross page boundaries). */
/**
 * Changes whenever what the snapshot reads from PostgreSQL changes (the inventory, the operator's AS,
 * the AS service mappings); the routing tables are not part of it (they change all the time and are
 * reloaded on the runtime's slower schedule). Lets the runtime reload a few seconds after an
 * operator adopts an exporter or names an interface.
 */
export async function enrichmentInputsVersion(services: Pick<Services, "pg">): Promise<string> {
  const [inventory, rows] = await Promise.all([
    inventoryVersion(services),
    executeRows<{ version: string }>(
      services.pg.db,
      sql`
      SELECT md5(
        coalesce((SELECT string_agg(asn::text, ',' ORDER BY asn) FROM as_info WHERE category = 'operator'), '') || '#' ||
        coalesce((SELECT string_agg(t::text, '|' ORDER BY t.id) FROM as_service_mappings t), '')
      ) AS version`,
    ),
  ]);
  return `${inventory}/${rows[0].version}`;
}

export async function loadEnrichmentSnapshot(services: Services, options: { pageRows?: number } = {}): Promise<EnrichmentSnapshot> {
  const pageRows = Math.max(1, options.pageRows ?? PAGE_ROWS);
  const db = services.pg.db;
  const [routerViews, points, operatorRows, mappingRows] = await Promise.all([
    listRouters(services),
    listInventoryVantagePoints(services),
    db.select({ asn: asInfo.asn }).from(asInfo).where(eq(asInfo.category, "operator")).orderBy(asc(asInfo.asn)).limit(1),
    db.select().from(asServiceMappings).orderBy(asc(asServiceMappings.asn)),
  ]);

  const pointsOf = new Map<string, string[]>();
  for (const point of points) pointsOf.set(point.router, [...(pointsOf.get(point.router) ?? []), point.key]);

  const routers: SnapshotRouter[] = routerViews.map((r) => ({
    name: r.name,
    loopback: canonicalIp(r.loopback) ?? r.loopback,
    exporters: r.exporters.map((e) => canonicalIp(e) ?? e),
    vantagePoints: (pointsOf.get(r.name) ?? []).sort(),
    interfaces: r.interfaces.map((i) => ({
      ifIndex: i.ifindex,
      name: i.name,
      kind: i.kind,
      neighborAsn: i.neighbour_as,
      vrf: i.vrf,
      remoteRouter: i.remote?.router ?? null,
      remoteInterface: i.remote?.interface ?? null,
    })),
  }));

  // Only the tables a router looks flows up in: vantage points of routers in the inventory.
  const used = [...new Set(routers.flatMap((r) => r.vantagePoints))].sort();
  const ribs: RibTable[] = [];
  for (const vantagePoint of used) ribs.push(...(await loadVantagePointTables(services, vantagePoint, pageRows)));

  const byAsn = new Map<number, AsService>();
  for (const row of mappingRows) {
    const service = byAsn.get(row.asn) ?? { asn: row.asn, application: "", infrastructure: "" };
    if (row.kind === "Application") service.application = row.name;
    else service.infrastructure = row.name;
    byAsn.set(row.asn, service);
  }

  const snapshot: EnrichmentSnapshot = {
    loadedAtMs: Date.now(),
    operatorAsn: operatorRows.length ? Number(operatorRows[0].asn) : null,
    routers,
    ribs,
    asServices: [...byAsn.values()],
  };
  const prefixes = ribs.reduce((sum, t) => sum + t.ipv4.count + t.ipv6.count, 0);
  const megabytes = ribs.reduce((sum, t) => sum + ribTableBytes(t), 0) / 1e6;
  log.info(
    `collector: enrichment snapshot of ${routers.length} routers, ${ribs.length} routing tables (${prefixes} prefixes, ${megabytes.toFixed(1)} MB)`,
  );
  return snapshot;
}
