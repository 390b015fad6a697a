/**
 * What the last PeeringDB import says of one network (api/peering_db/?asn, the AS Relations
 * neighbour detail): its declared facts, its organisation, the NOC contact, its IX and facility
 * presence, and the import's date. All from peeringdb_objects; no network access.
 */
import { rowsOf } from "~/server/postgres.server";
import { sql } from "drizzle-orm";
import { peeringDbImport } from "~db/postgres/schema";
import type { Services } from "~/server/services.server";
import { TRAFFIC_RATIOS, type TrafficRatio } from "./ratio";

type Json = Record<string, unknown>;
const text = (v: unknown): string => (typeof v === "string" ? v : "");
const numberOrNull = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

export type PeeringDbIxPresence = {
  ix_id: number;
  name: string;
  city: string;
  country: string;
  speed: number | null;
  ipaddr4: string | null;
  ipaddr6: string | null;
  is_rs_peer: boolean;
};
export type PeeringDbFacilityPresence = { fac_id: number; name: string; city: string; country: string };

export type PeeringDbNetwork = {
  asn: number;
  net_id: number;
  name: string;
  aka: string;
  website: string;
  irr_as_set: string;
  info_type: string;
  info_traffic: string;
  /** The declared ratio in the spec's words; "Not Disclosed" when PeeringDB has none. */
  info_ratio: TrafficRatio;
  info_scope: string;
  info_prefixes4: number | null;
  info_prefixes6: number | null;
  policy_general: string;
  policy_url: string;
  org: { id: number; name: string } | null;
  /** The e-mail address of the network's NOC role contact, when PeeringDB lists one. */
  noc_email: string | null;
  ix_presence: PeeringDbIxPresence[];
  facility_presence: PeeringDbFacilityPresence[];
  /** The dump's own date and when it was imported (ISO 8601). */
  dump_date: string | null;
  imported_at: string;
};

/** PeeringDB's info_ratio in the spec's six words (they are the same words; anything else or empty is Not Disclosed). */
export function declaredRatio(v: unknown): TrafficRatio {
  return (TRAFFIC_RATIOS as readonly string[]).includes(text(v)) ? (text(v) as TrafficRatio) : "Not Disclosed";
}

/** The last import's state, or null before the first. */
export async function peeringDbState(services: Pick<Services, "pg">) {
  const [row] = await services.pg.db.select().from(peeringDbImport);
  return row ?? null;
}

/** The network of that AS number in the last import, or null (also before any import). */
export async function peeringDbNetwork(services: Pick<Services, "pg">, asn: number): Promise<PeeringDbNetwork | null> {
  const state = await peeringDbState(services);
  if (!state) return null;
  const db = services.pg.db;
  const [net] = rowsOf<{ id: number; data: Json }>(
    await db.execute(sql`SELECT id, data FROM peeringdb_objects WHERE kind = 'net' AND asn = ${asn} ORDER BY id LIMIT 1`),
  );
  if (!net) return null;
  const n = net.data;
  const [org] = rowsOf<{ id: number; data: Json }>(
    await db.execute(sql`SELECT id, data FROM peeringdb_objects WHERE kind = 'org' AND id = ${numberOrNull(n.org_id) ?? -1}`),
  );
  const [noc] = rowsOf<{ email: string }>(
    await db.execute(sql`SELECT data->>'email' AS email FROM peeringdb_objects
      WHERE kind = 'poc' AND net_id = ${net.id} AND data->>'role' = 'NOC' AND coalesce(data->>'email', '') <> ''
        AND coalesce(data->>'visible', 'Public') <> 'Private'
      ORDER BY id LIMIT 1`),
  );
  const ixes = rowsOf<{ p: Json; ix_id: number | null; ix: Json | null }>(
    await db.execute(sql`SELECT p.data AS p, ix.id AS ix_id, ix.data AS ix
      FROM peeringdb_objects p
      LEFT JOIN peeringdb_objects l ON l.kind = 'ixlan' AND l.id = (p.data->>'ixlan_id')::int
      LEFT JOIN peeringdb_objects ix ON ix.kind = 'ix' AND ix.id = coalesce((p.data->>'ix_id')::int, (l.data->>'ix_id')::int)
      WHERE p.kind = 'netixlan' AND p.net_id = ${net.id}
      ORDER BY coalesce(ix.data->>'name', p.data->>'name'), p.id`),
  );
  const facs = rowsOf<{ p: Json; fac_id: number; fac: Json | null }>(
    await db.execute(sql`SELECT p.data AS p, (p.data->>'fac_id')::int AS fac_id, f.data AS fac
      FROM peeringdb_objects p
      LEFT JOIN peeringdb_objects f ON f.kind = 'fac' AND f.id = (p.data->>'fac_id')::int
      WHERE p.kind = 'netfac' AND p.net_id = ${net.id}
      ORDER BY coalesce(f.data->>'name', p.data->>'name'), p.id`),
  );
  return {
    asn,
    net_id: net.id,
    name: text(n.name),
    aka: text(n.aka),
    website: text(n.website),
    irr_as_set: text(n.irr_as_set),
    info_type: text(n.info_type),
    info_traffic: text(n.info_traffic),
    info_ratio: declaredRatio(n.info_ratio),
    info_scope: text(n.info_scope),
    info_prefixes4: numberOrNull(n.info_prefixes4),
    info_prefixes6: numberOrNull(n.info_prefixes6),
    policy_general: text(n.policy_general),
    policy_url: text(n.policy_url),
    org: org ? { id: org.id, name: text(org.data.name) } : null,
    noc_email: noc?.email ?? null,
    ix_presence: ixes.map(({ p, ix_id, ix }) => ({
      ix_id: ix_id ?? numberOrNull(p.ix_id) ?? 0,
      name: text(ix?.name) || text(p.name),
      city: text(ix?.city),
      country: text(ix?.country),
      speed: numberOrNull(p.speed),
      ipaddr4: text(p.ipaddr4) || null,
      ipaddr6: text(p.ipaddr6) || null,
      is_rs_peer: p.is_rs_peer === true,
    })),
    facility_presence: facs.map(({ p, fac_id, fac }) => ({
      fac_id,
      name: text(fac?.name) || text(p.name),
      city: text(fac?.city) || text(p.city),
      country: text(fac?.country) || text(p.country),
    })),
    dump_date: state.dumpDate?.toISOString() ?? null,
    imported_at: state.importedAt.toISOString(),
  };
}
