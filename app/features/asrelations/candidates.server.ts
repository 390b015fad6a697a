/**
 * Reads the inputs of the peering candidates (candidates.ts): the month's transit traffic per source AS
 * (flows_1h), our own and the sources' presence at exchanges and facilities (the PeeringDB import, in
 * one query for all of them), and — when the route gives a price lookup (Revenues & Costs, for a viewer
 * who may see prices) — the transits' effective price per billed Mbit/s. Never for delegated accounts.
 */
import { rowsOf } from "~/server/postgres.server";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { operatorAsn } from "~/features/filter/operator-as.server";
import { chQuery } from "~/server/clickhouse/query.server";
import type { Services } from "~/server/services.server";
import { peeringCandidates, type CandidateNetwork, type PeeringCandidates, type Presence } from "./candidates";
import { transitSourcesSql } from "./sql";

const HOUR = 3600;
/** How many of the heaviest transit sources are looked up in PeeringDB. */
const LOOKED_UP = 500;

const SourceRow = z.object({ asn: z.coerce.number(), handover: z.coerce.number(), b: z.coerce.number() });

type Neighbour = { asn: number; relations: readonly string[] };

/** Each listed AS's network name, policy and presence (exchanges by ix id, facilities by fac id). */
async function presenceOf(services: Pick<Services, "pg">, asns: readonly number[]): Promise<Map<number, CandidateNetwork>> {
  const out = new Map<number, CandidateNetwork>();
  if (!asns.length) return out;
  const list = sql.join(
    asns.map((a) => sql`${a}`),
    sql`, `,
  );
  const nets = rowsOf<{ asn: string | number; name: string | null; policy: string | null }>(
    await services.pg.db.execute(sql`SELECT DISTINCT ON (asn) asn, data->>'name' AS name, data->>'policy_general' AS policy
      FROM peeringdb_objects WHERE kind = 'net' AND asn IN (${list}) ORDER BY asn, id`),
  );
  for (const n of nets) out.set(Number(n.asn), { name: n.name ?? "", policy: n.policy ?? "", presence: { ixes: [], facilities: [] } });
  const ixes = rowsOf<{ asn: string | number; id: number | null; name: string | null; city: string | null }>(
    await services.pg.db.execute(sql`SELECT net.asn, ix.id, ix.data->>'name' AS name, ix.data->>'city' AS city
      FROM peeringdb_objects net
      JOIN peeringdb_objects p ON p.kind = 'netixlan' AND p.net_id = net.id
      LEFT JOIN peeringdb_objects l ON l.kind = 'ixlan' AND l.id = (p.data->>'ixlan_id')::int
      JOIN peeringdb_objects ix ON ix.kind = 'ix' AND ix.id = coalesce((p.data->>'ix_id')::int, (l.data->>'ix_id')::int)
      WHERE net.kind = 'net' AND net.asn IN (${list})
      ORDER BY net.asn, ix.data->>'name', ix.id`),
  );
  for (const r of ixes) out.get(Number(r.asn))?.presence.ixes.push({ id: Number(r.id), name: r.name ?? "", city: r.city ?? "" });
  const facs = rowsOf<{ asn: string | number; id: number; name: string | null; city: string | null }>(
    await services.pg.db.execute(sql`SELECT net.asn, f.id, f.data->>'name' AS name, f.data->>'city' AS city
      FROM peeringdb_objects net
      JOIN peeringdb_objects p ON p.kind = 'netfac' AND p.net_id = net.id
      JOIN peeringdb_objects f ON f.kind = 'fac' AND f.id = (p.data->>'fac_id')::int
      WHERE net.kind = 'net' AND net.asn IN (${list})
      ORDER BY net.asn, f.data->>'name', f.id`),
  );
  for (const r of facs) out.get(Number(r.asn))?.presence.facilities.push({ id: Number(r.id), name: r.name ?? "", city: r.city ?? "" });
  return out;
}

export type CandidatesResult = (PeeringCandidates & { priced: boolean }) | { unavailable: string };

/** The transits' € per billed Mbit/s of a month, or null when the viewer may not see prices. */
export type PriceLookup = (
  year: number,
  month: number,
  partners: readonly number[],
  now?: number,
) => Promise<ReadonlyMap<number, number> | null>;

/** The month's peering candidates for a full (not delegated) viewer, or why there are none to compute. */
export async function loadPeeringCandidates(
  services: Pick<Services, "pg" | "ch">,
  prices: PriceLookup | null,
  month: { year: number; month: number; range: { start: number; end: number }; flowHours: number },
  neighbours: readonly Neighbour[],
  now = Date.now(),
): Promise<CandidatesResult> {
  const transits = neighbours.filter((n) => n.relations.includes("Transit")).map((n) => n.asn);
  if (!transits.length) return { unavailable: "No external link of the inventory is a Transit: no traffic reaches us through a transit." };
  let own: number;
  try {
    own = await operatorAsn(services);
  } catch {
    return { unavailable: "The operator's own AS is not configured yet, so its exchanges and facilities are unknown." };
  }
  const rows = await chQuery(services.ch, { ...transitSourcesSql(month.range, transits, own), schema: SourceRow });
  const sources = rows.map((r) => ({ asn: r.asn, handover: r.handover, bytes: r.b }));
  const neighbourSet = new Set(neighbours.map((n) => n.asn));
  const heaviest = new Map<number, number>();
  for (const s of sources) if (s.asn > 0 && !neighbourSet.has(s.asn)) heaviest.set(s.asn, (heaviest.get(s.asn) ?? 0) + s.bytes);
  const lookedUp = [...heaviest]
    .sort((a, b) => b[1] - a[1])
    .slice(0, LOOKED_UP)
    .map(([asn]) => asn);
  const looked = new Set(lookedUp);
  const networks = await presenceOf(services, [own, ...lookedUp]);
  const ours: Presence | undefined = networks.get(own)?.presence;
  if (!ours)
    return { unavailable: `The PeeringDB import does not list our own AS${own}, so the exchanges and facilities we share are unknown.` };
  networks.delete(own);
  const known = prices ? await prices(month.year, month.month, transits, now) : null;
  const result = peeringCandidates({
    sources: sources.filter((s) => s.asn <= 0 || looked.has(s.asn) || neighbourSet.has(s.asn)),
    seconds: month.flowHours * HOUR,
    neighbours: neighbourSet,
    ours,
    networks,
    pricePerMbps: known ?? new Map(),
  });
  // Sources beyond the looked-up ones have no PeeringDB facts read: they count as not shared.
  return { ...result, not_shared: result.not_shared + Math.max(0, heaviest.size - lookedUp.length), priced: known !== null };
}
