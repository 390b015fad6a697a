/**
 * The AS Relations screen (/as-relations): the month from the URL (lenient: a bad month falls back
 * to the current one with a notice), every neighbour AS of the inventory with the figures of
 * api/asrelations/ (relations.server.ts), and — for `?asn=` — the detail of one neighbour: its
 * PeeringDB facts (NOC contact, IX and facility presence) and the prefixes it originates in the
 * current routing tables. The screen's access (AS_RELATIONS) is checked by the route's requireUser.
 */
import { parseAsnParam } from "~/features/routing/peeringdb/api";
import { peeringDbNetwork, type PeeringDbNetwork } from "~/features/routing/peeringdb/lookup.server";
import { routingStreams } from "~/features/routing/streams/streams.server";
import { formatBitsPerSecond } from "~/lib/units";
import { safeTimezone } from "~/lib/date-format";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { getUserSettings } from "~/server/settings/user-settings.server";
import { asRelationsQuerySchema, currentMonth } from "./api";
import { loadPeeringCandidates, type CandidatesResult, type PriceLookup } from "./candidates.server";
import { asRelations, type AsRelation } from "./relations.server";

/** How many originated prefixes the detail lists (the API has them all). */
export const DETAIL_PREFIXES = 50;

export type AsRelationRow = {
  asn: number;
  as_label: string;
  name: string;
  relations: string;
  connections: string;
  links: string;
  link_count: number;
  routers: string;
  policy: string;
  declared_ratio: string;
  outbound_p95_bps: number;
  inbound_p95_bps: number;
  outbound_text: string;
  inbound_text: string;
  observed_ratio: string;
  disagrees: boolean;
};

export type AsRelationDetail = {
  asn: number;
  name: string | null;
  peeringdb: PeeringDbNetwork | null;
  routing: {
    prefixes: number;
    ipv4: number;
    ipv6: number;
    vantage_points: number;
    listed: { prefix: string; vantage_points: number; paths: number }[];
  };
};

export type AsRelationsScreen = {
  month: string;
  /** The viewer's timezone, for the import's dates. */
  timezone: string;
  notices: string[];
  samples: number;
  peeringdb: { dump_date: string | null; imported_at: string } | null;
  rows: AsRelationRow[];
  detail: AsRelationDetail | null;
  /** The peering candidates of the month; null for a delegated account (never shown to one) and in exports. */
  candidates: CandidatesResult | null;
};

/** A neighbour as a table row: people's words, each figure also as a number for sorting and the '>'/'<' filters. */
export function relationRow(n: AsRelation): AsRelationRow {
  return {
    asn: n.asn,
    as_label: n.name ? `AS${n.asn} ${n.name}` : `AS${n.asn}`,
    name: n.name ?? "",
    relations: n.relations.join(", ") || "Not set",
    connections: [...new Set(n.links.map((l) => l.connection).filter(Boolean))].join(", "),
    links: n.links.map((l) => `${l.router} ${l.interface}`).join(", "),
    link_count: n.links.length,
    routers: n.routers.join(", "),
    policy: n.peeringdb ? n.peeringdb.policy_general || "Not stated" : "Not in PeeringDB",
    declared_ratio: n.declared_ratio,
    outbound_p95_bps: n.observed.outbound_p95_bps,
    inbound_p95_bps: n.observed.inbound_p95_bps,
    outbound_text: formatBitsPerSecond(n.observed.outbound_p95_bps),
    inbound_text: formatBitsPerSecond(n.observed.inbound_p95_bps),
    observed_ratio: n.observed.ratio,
    disagrees: n.ratio_disagrees,
  };
}

/** The month asked for, or the current one with a notice saying why the asked one was not applied. */
export function screenMonth(url: URL, now = new Date()): { month: string; notices: string[] } {
  const raw = url.searchParams.get("month");
  if (raw === null || raw === "") return { month: currentMonth(now), notices: [] };
  if (asRelationsQuerySchema.safeParse({ month: raw }).success) return { month: raw, notices: [] };
  return { month: currentMonth(now), notices: [`Month "${raw.slice(0, 40)}" is not a month as YYYY-MM: the current month is shown.`] };
}

/** The screen's loader: everything the view shows, from the URL. */
export async function loadAsRelationsScreen(
  services: Services,
  user: UserContext,
  url: URL,
  options: { now?: Date; prices?: PriceLookup } = {},
): Promise<AsRelationsScreen> {
  const settings = await getUserSettings(services.pg.db, user.id);
  const candidates = user.isDelegated ? undefined : { prices: options.prices ?? null };
  return asRelationsScreen(services, url, safeTimezone(settings.timezone), options.now, candidates);
}

export async function asRelationsScreen(
  services: Pick<Services, "pg" | "ch">,
  url: URL,
  timezone: string,
  now = new Date(),
  /** The peering candidates' price lookup (null: not priced); without it they are not computed (delegated accounts, exports). */
  candidatesFor?: { prices: PriceLookup | null },
): Promise<AsRelationsScreen> {
  const { month, notices } = screenMonth(url, now);
  const data = await asRelations(services, month);
  const rows = data.neighbors.map(relationRow);
  let detail: AsRelationDetail | null = null;
  const asnParam = url.searchParams.get("asn");
  if (asnParam) {
    const asn = parseAsnParam(asnParam);
    const row = asn === null ? undefined : rows.find((r) => r.asn === asn);
    if (!row) notices.push(`AS "${asnParam.slice(0, 40)}" is not a neighbour in the inventory: no detail is shown.`);
    else {
      const streams = await routingStreams(services, row.asn, DETAIL_PREFIXES);
      detail = {
        asn: row.asn,
        name: row.name || null,
        peeringdb: await peeringDbNetwork(services, row.asn),
        routing: {
          prefixes: streams.summary.prefixes,
          ipv4: streams.summary.ipv4,
          ipv6: streams.summary.ipv6,
          vantage_points: streams.summary.vantage_points,
          listed: streams.prefixes.map((p) => ({ prefix: p.prefix, vantage_points: p.vantage_points, paths: p.paths })),
        },
      };
    }
  }
  const [year, monthNumber] = month.split("-").map(Number);
  const candidates = candidatesFor
    ? await loadPeeringCandidates(
        services,
        candidatesFor.prices,
        { year, month: monthNumber, range: data.range, flowHours: data.samples },
        data.neighbors,
        now.getTime(),
      )
    : null;
  return { month, timezone, notices, samples: data.samples, peeringdb: data.peeringdb, rows, detail, candidates };
}
