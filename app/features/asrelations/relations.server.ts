/**
 * AS Relations (api/asrelations/): every neighbour AS of the inventory's external links with its
 * relation (the links' peering type: Transit, Peering — the spec's two — and Customer, this
 * product's extension), connection (PNI, IX …), links and routers; what PeeringDB declares of it
 * (name, general policy, traffic ratio and level); and the ratio observed from our flows over a
 * month — the 95th of each direction on its links (hourly samples, billing rule) placed in the
 * spec's categories — with a flag where declared and observed disagree.
 */
import { asc, and, eq, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { interfaces, routers } from "~db/postgres/schema";
import { peeringDbNetwork, peeringDbState } from "~/features/routing/peeringdb/lookup.server";
import { observedRatio, ratiosDisagree, type TrafficRatio } from "~/features/routing/peeringdb/ratio";
import { chQuery } from "~/server/clickhouse/query.server";
import type { Services } from "~/server/services.server";
import { currentMonth, monthRange } from "./api";
import { flowHoursSql, neighborP95Sql } from "./sql";

const HOUR = 3600;

export type AsRelationLink = {
  router: string;
  interface: string;
  peering_type: string | null;
  connection: string | null;
  capacity_bps: number;
};

export type AsRelation = {
  asn: number;
  /** PeeringDB's name of the AS, null when the import does not know it. */
  name: string | null;
  /** The peering types of its links, each once, in the order Transit, Peering, Customer. */
  relations: string[];
  links: AsRelationLink[];
  routers: string[];
  peeringdb: { policy_general: string; info_traffic: string; info_type: string } | null;
  declared_ratio: TrafficRatio;
  observed: { outbound_p95_bps: number; inbound_p95_bps: number; ratio: TrafficRatio };
  ratio_disagrees: boolean;
};

export type AsRelations = {
  month: string;
  range: { start: number; end: number };
  /** The hours of the month with any flow: the 95th's samples. */
  samples: number;
  peeringdb: { dump_date: string | null; imported_at: string } | null;
  neighbors: AsRelation[];
};

const RELATION_ORDER = ["Transit", "Peering", "Customer"];
const rank = (type: string) => (RELATION_ORDER.includes(type) ? RELATION_ORDER.indexOf(type) : RELATION_ORDER.length);
const P95Row = z.object({ asn: z.number(), direction: z.enum(["outbound", "inbound"]), present: z.number(), p95_bytes: z.number() });

export async function asRelations(services: Pick<Services, "pg" | "ch">, month = currentMonth()): Promise<AsRelations> {
  const range = monthRange(month);
  const rows = await services.pg.db
    .select({
      asn: interfaces.neighborAsn,
      router: routers.name,
      name: interfaces.name,
      peeringType: interfaces.peeringType,
      connection: interfaces.connection,
      capacityBps: interfaces.capacityBps,
    })
    .from(interfaces)
    .innerJoin(routers, eq(routers.id, interfaces.routerId))
    .where(and(eq(interfaces.kind, "external"), isNotNull(interfaces.neighborAsn)))
    .orderBy(asc(interfaces.neighborAsn), asc(routers.name), asc(interfaces.name));
  const byAsn = new Map<number, AsRelationLink[]>();
  for (const r of rows) {
    const list = byAsn.get(r.asn!) ?? [];
    list.push({ router: r.router, interface: r.name, peering_type: r.peeringType, connection: r.connection, capacity_bps: r.capacityBps });
    byAsn.set(r.asn!, list);
  }
  const links = { keys: rows.map((r) => `${r.router}|${r.name}`), asns: rows.map((r) => r.asn!) };
  const [{ n }] = await chQuery(services.ch, { ...flowHoursSql(range), schema: z.object({ n: z.number() }) });
  const p95 = rows.length ? await chQuery(services.ch, { ...neighborP95Sql(range, links, n), schema: P95Row }) : [];
  const bps = (asn: number, direction: "outbound" | "inbound") =>
    ((p95.find((p) => p.asn === asn && p.direction === direction)?.p95_bytes ?? 0) * 8) / HOUR;
  const state = await peeringDbState(services);
  const neighbors: AsRelation[] = [];
  for (const [asn, list] of byAsn) {
    const pdb = state ? await peeringDbNetwork(services, asn) : null;
    const outbound = bps(asn, "outbound");
    const inbound = bps(asn, "inbound");
    const observed = observedRatio(outbound, inbound);
    const declared = pdb?.info_ratio ?? "Not Disclosed";
    const types = new Set(list.map((l) => l.peering_type).filter((t): t is string => !!t));
    neighbors.push({
      asn,
      name: pdb?.name ?? null,
      relations: [...types].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)),
      links: list,
      routers: [...new Set(list.map((l) => l.router))].sort(),
      peeringdb: pdb ? { policy_general: pdb.policy_general, info_traffic: pdb.info_traffic, info_type: pdb.info_type } : null,
      declared_ratio: declared,
      observed: { outbound_p95_bps: outbound, inbound_p95_bps: inbound, ratio: observed },
      ratio_disagrees: ratiosDisagree(declared, observed),
    });
  }
  return {
    month,
    range,
    samples: n,
    peeringdb: state ? { dump_date: state.dumpDate?.toISOString() ?? null, imported_at: state.importedAt.toISOString() } : null,
    neighbors,
  };
}
