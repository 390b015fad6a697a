/**
 * The flow analysis calls: direct vs indirect traffic of ASes (api/asflows/indirect/), traffic
 * entering at a router (api/netflowstatistics/), the links between an origin and a destination
 * (api/linkleveltopology/, api/linklevelstatistics/) and the share folded into the special AS
 * values (api/untracked_data/): request schemas, and the runs on ClickHouse.
 *
 * Every run goes through the filter resolver (the user's delegation restrictions become forced, locked
 * filters) and resolveRange (the range clamped to the data), like api/flows/, so a delegated user
 * never sees traffic outside their restriction here either.
 */
import { eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { interfaces, routers } from "~db/postgres/schema";
import { invalidInput } from "~/lib/messages";
import { describePermission } from "~/lib/permission-catalogue";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import { chQuery } from "~/server/clickhouse/query.server";
import type { Services } from "~/server/services.server";
import { getUserSettings } from "~/server/settings/user-settings.server";
import {
  EMPTY_LINK_KEY,
  indirectAsQuery,
  ingressRouterQuery,
  interfaceLoadQuery,
  interfaceLoadRow,
  LINK_DIMENSIONS,
  linkPathQuery,
  untrackedQuery,
  endpointDimension,
  type LinkEndpoint,
} from "./analysis-sql";
import { getDimension, INTERFACE_SEPARATOR, isDimensionId, MAX_API_VERSION, type DimensionId } from "~/features/filter/dimensions";
import { requireAllowedDimensions } from "~/features/filter/delegation-policy.server";
import { parseAsValue, type IpVersion } from "~/features/filter/filters";
import { customRangeError, parseExplorerParams, requestedRange, unappliedParams } from "./params";
import { PRESET_LABELS } from "~/lib/time-range";
import { filterLabel } from "~/features/filter/value-labels";
import { runSankeyQuery } from "./query.server";
import { bodyIpVersion, filtersSchema, ipVersionSchema, normalizeFilters } from "./request-schema";
import { parseApiFilters, requireDimension } from "~/features/filter/filter-resolver.server";
import { apiFlowsContext, nameAll, nameKeys, resolveRange, type FlowsContext, type ResolvedRange } from "./service.server";
import type { RequestFilter } from "~/features/filter/request-filter";
import { alignRange, defaultWindow, tableForWindow, type FlowsTable } from "./aggregation-window";

type Stores = Pick<Services, "pg" | "ch">;

// ---------------------------------------------------------------------------------------------------------------
// Request schemas (also the source of the OpenAPI description)

const unixSeconds = z.number().int().min(0).max(4_294_967_295);
const unixSecondsParam = z.coerce.number().int().min(0).max(4_294_967_295);
export const MAX_AS_LIST = 50;

/** An AS number as in filters: 2906, "2906" or "AS2906" (no negation). */
const asNumber = z.union([z.number().int(), z.string()]).transform((v, ctx) => {
  const parsed = parseAsValue(String(v));
  if (!parsed || parsed.isNegation) {
    ctx.addIssue({ code: "custom", message: `${v} is not a valid AS number input` });
    return z.NEVER;
  }
  return Number(parsed.value);
});

const ordered = (startKey: string, endKey: string) => (b: Record<string, unknown>, ctx: z.core.$RefinementCtx<Record<string, unknown>>) => {
  if (Number(b[startKey]) >= Number(b[endKey]))
    ctx.addIssue({ code: "custom", path: [startKey], message: `${startKey} must be before ${endKey}.` });
};

export const asIndirectBodySchema = z
  .object({
    ASNumberList: z.array(asNumber).min(1, "At least one AS number is needed.").max(MAX_AS_LIST),
    startTime: unixSeconds,
    endTime: unixSeconds,
    filters: filtersSchema,
    ipVersion: ipVersionSchema,
  })
  .superRefine(ordered("startTime", "endTime"));

export const netflowStatisticsBodySchema = z
  .object({
    start: unixSeconds,
    end: unixSeconds,
    filters: filtersSchema,
    /** The router whose ingress traffic is split; null or absent: the whole network. */
    ingressRouter: z.string().trim().min(1).max(200).nullable().optional(),
    ipVersion: ipVersionSchema,
    targetDimension: z.string().refine(isDimensionId, { message: "Unknown dimension." }),
    limit: z.number().int().min(1).max(1000).optional(),
  })
  .superRefine(ordered("start", "end"));

/** origin / destination: an AS number (2906, AS2906) or a router name of the inventory. */
const endpointParam = z
  .string()
  .trim()
  .min(1, "Required: an AS number (e.g. AS2906) or a router name.")
  .max(200)
  .transform((v): LinkEndpoint => {
    const as = parseAsValue(v);
    return as && !as.isNegation ? { kind: "AS", asn: Number(as.value) } : { kind: "ROUTER", router: v };
  });

export const linkLevelQuerySchema = z
  .object({
    begin_timestamp: unixSecondsParam,
    end_timestamp: unixSecondsParam,
    origin: endpointParam,
    destination: endpointParam,
    ipVersion: z.enum(["all", "4", "6"]).optional(),
  })
  .superRefine(ordered("begin_timestamp", "end_timestamp"));

export const untrackedBodySchema = z
  .object({
    startTimestamp: unixSeconds,
    endTimestamp: unixSeconds,
    filters: filtersSchema,
    ipVersion: ipVersionSchema,
    /** An AS dimension; default the source AS of ingress traffic. */
    dimension: z.string().refine(isDimensionId, { message: "Unknown dimension." }).default("AS_SRC_INGRESS"),
  })
  .superRefine(ordered("startTimestamp", "endTimestamp"));

// ---------------------------------------------------------------------------------------------------------------
// Shared pieces

const badRequest = (field: string, message: string) => new ApiProblem(400, { detail: "Invalid request.", errors: [{ field, message }] });

export type PublicRange = { start: number; end: number; adjusted: ResolvedRange["adjusted"]; requested: ResolvedRange["requested"] };
const publicRange = (r: ResolvedRange): PublicRange => ({ start: r.start, end: r.end, adjusted: r.adjusted, requested: r.requested });
const publicFilters = (c: FlowsContext) =>
  c.filters.map((f) => ({ dimension: f.dimension, value: f.value, isNegation: f.isNegation, locked: f.locked ?? false }));

/** Filters and range of a run; the table and the aligned range the SQL reads. */
async function prepare(
  stores: Stores,
  user: UserContext,
  version: number,
  input: { start: number; end: number; filters: readonly RequestFilter[]; dimensions: readonly DimensionId[] },
) {
  const context = await apiFlowsContext(stores, user, parseApiFilters(user, version, input.filters));
  // What the run groups by or reads besides the filters: a delegated user may use only the policy's dimensions.
  requireAllowedDimensions(context.policy, input.dimensions);
  const range = await resolveRange(stores, input.start, input.end);
  if (!range) return { context, range: null, table: null, sqlRange: null };
  const table: FlowsTable = tableForWindow(defaultWindow(range));
  return { context, range, table, sqlRange: alignRange(range, table) };
}

const share = (part: number, total: number) => (total > 0 ? part / total : 0);

// ---------------------------------------------------------------------------------------------------------------
// api/asflows/indirect/

export type IndirectResult = {
  asn: number;
  name: string;
  total_bps: number;
  direct_bps: number;
  indirect_bps: number;
  direct_share: number;
  indirect_share: number;
  via: { asn: number; name: string; bps: number; share: number }[];
};

export async function runAsIndirect(stores: Stores, user: UserContext, version: number, body: z.infer<typeof asIndirectBodySchema>) {
  const asns = [...new Set(body.ASNumberList)];
  const { context, range, table, sqlRange } = await prepare(stores, user, version, {
    start: body.startTime,
    end: body.endTime,
    filters: normalizeFilters(body.filters),
    dimensions: ["AS_SRC_INGRESS", "AS_HND_INGRESS"],
  });
  const base = { filters: publicFilters(context), notices: context.notices };
  if (!range) return { range: null, results: [] as IndirectResult[], ...base, notes: ["No flow data."] };
  const q = indirectAsQuery(asns, {
    range: sqlRange,
    table,
    filters: context.filters,
    operatorAsn: context.operatorAsn,
    ipVersion: bodyIpVersion(body.ipVersion),
  });
  const rows = await chQuery(stores.ch, { ...q, schema: z.object({ asn: z.number(), handover: z.number(), bps: z.number() }) });
  const names = await nameKeys(stores, user, "AS_SRC_INGRESS", [...asns, ...rows.map((r) => Number(r.handover))].map(String));
  const nameOf = (asn: number) => names.get(String(asn)) ?? `AS${asn}`;
  const results = asns.map((asn): IndirectResult => {
    const mine = rows.filter((r) => Number(r.asn) === asn);
    const total = mine.reduce((a, r) => a + Number(r.bps), 0);
    const direct = mine.filter((r) => Number(r.handover) === asn).reduce((a, r) => a + Number(r.bps), 0);
    const via = mine
      .filter((r) => Number(r.handover) !== asn && Number(r.bps) > 0)
      .map((r) => ({ asn: Number(r.handover), name: nameOf(Number(r.handover)), bps: Number(r.bps), share: share(Number(r.bps), total) }));
    return {
      asn,
      name: nameOf(asn),
      total_bps: total,
      direct_bps: direct,
      indirect_bps: total - direct,
      direct_share: share(direct, total),
      indirect_share: share(total - direct, total),
      via,
    };
  });
  // An AS outside the tracked top 200 is folded into Others in the aggregates: say so instead of a silent zero.
  const notes = results
    .filter((r) => r.total_bps === 0 && r.asn > 0)
    .map((r) => `AS${r.asn}: no traffic in the range as a source AS (ASes outside the tracked top 200 are counted as Others).`);
  return { range: publicRange(range), results, ...base, notes };
}

// ---------------------------------------------------------------------------------------------------------------
// api/netflowstatistics/

export async function runNetflowStatistics(
  stores: Stores,
  user: UserContext,
  version: number,
  body: z.infer<typeof netflowStatisticsBodySchema>,
) {
  const target = requireDimension(user, version, body.targetDimension, "targetDimension");
  const router = body.ingressRouter ?? null;
  if (router !== null) requireDimension(user, version, "ROUTER_IN", "ingressRouter");
  const { context, range, table, sqlRange } = await prepare(stores, user, version, {
    start: body.start,
    end: body.end,
    filters: normalizeFilters(body.filters),
    dimensions: router !== null ? [target, "ROUTER_IN"] : [target],
  });
  const base = {
    targetDimension: { id: target, label: getDimension(target).label },
    ingressRouter: router,
    filters: publicFilters(context),
    notices: context.notices,
  };
  const empty = { total_bps: 0, network_bps: 0, router_share: 0 };
  if (!range) return { range: null, results: [], totals: empty, ...base, notes: ["No flow data."] };
  const q = ingressRouterQuery(target, router, {
    range: sqlRange,
    table,
    filters: context.filters,
    operatorAsn: context.operatorAsn,
    ipVersion: bodyIpVersion(body.ipVersion),
  });
  const rows = await chQuery(stores.ch, { ...q, schema: z.object({ value: z.string(), router_bps: z.number(), network_bps: z.number() }) });
  const total = rows.reduce((a, r) => a + Number(r.router_bps), 0);
  const network = rows.reduce((a, r) => a + Number(r.network_bps), 0);
  const shown = rows.filter((r) => Number(r.router_bps) > 0).slice(0, body.limit ?? 1000);
  const names = await nameKeys(
    stores,
    user,
    target,
    shown.map((r) => r.value),
  );
  const results = shown.map((r) => ({
    key: r.value,
    name: names.get(r.value) ?? r.value,
    bps: Number(r.router_bps),
    share: share(Number(r.router_bps), total),
    network_bps: Number(r.network_bps),
  }));
  const notes =
    router !== null && total === 0 ? [`No traffic entered at ${router} in the range with these filters (is the router name right?).`] : [];
  return {
    range: publicRange(range),
    results,
    totals: { total_bps: total, network_bps: network, router_share: share(total, network) },
    ...base,
    notes,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// api/linkleveltopology/ and api/linklevelstatistics/

export type LinkKind = "external_in" | "core" | "external_out";
export type LinkEnd = { router: string; interface: string };
export type FlowLink = { id: string; kind: LinkKind; from: LinkEnd; to: LinkEnd | null; bps: number };

const splitKey = (key: string): LinkEnd => {
  const i = key.indexOf(INTERFACE_SEPARATOR);
  return { router: key.slice(0, i), interface: key.slice(i + 1) };
};

/** The user must hold the interface and the internal-link permissions (dimensions.ts) on top of API_FLOWS_4D. */
export function requireLinkPermissions(user: UserContext) {
  const needed = [...new Set(LINK_DIMENSIONS.map((d) => getDimension(d).permission))];
  if (needed.some((p) => p !== null && !user.permissions.includes(p))) {
    throw new ApiProblem(403, {
      detail: `You do not have permission to perform this action: needs ${needed.join(" and ")}.`,
      exception_code: "permission_denied",
    });
  }
}

type LinkQuery = z.infer<typeof linkLevelQuerySchema>;

const describeEndpoint = (e: LinkEndpoint, name: string) => ({ ...e, name });

/** The links of the traffic from origin to destination, bit/s per link over the range. */
async function flowLinks(stores: Stores, user: UserContext, version: number, query: LinkQuery) {
  requireLinkPermissions(user);
  for (const [field, e] of [
    ["origin", query.origin],
    ["destination", query.destination],
  ] as const) {
    requireDimension(user, version, endpointDimension(field, e), field);
  }
  const known = await stores.pg.db.select({ name: routers.name, city: routers.city, country: routers.country }).from(routers);
  const routerInfo = new Map(known.map((r) => [r.name, r]));
  for (const [field, e] of [
    ["origin", query.origin],
    ["destination", query.destination],
  ] as const) {
    if (e.kind === "ROUTER" && !routerInfo.has(e.router))
      throw badRequest(field, `${e.router} is neither an AS number (e.g. AS2906) nor a known router.`);
  }
  const { context, range, table, sqlRange } = await prepare(stores, user, version, {
    start: query.begin_timestamp,
    end: query.end_timestamp,
    filters: [],
    dimensions: [...LINK_DIMENSIONS, endpointDimension("origin", query.origin), endpointDimension("destination", query.destination)],
  });
  const asNames = await nameKeys(
    stores,
    user,
    "AS_SRC_INGRESS",
    [query.origin, query.destination].filter((e) => e.kind === "AS").map((e) => String((e as { asn: number }).asn)),
  );
  const nameOf = (e: LinkEndpoint) => (e.kind === "AS" ? (asNames.get(String(e.asn)) ?? `AS${e.asn}`) : e.router);
  const head = {
    origin: describeEndpoint(query.origin, nameOf(query.origin)),
    destination: describeEndpoint(query.destination, nameOf(query.destination)),
    filters: publicFilters(context),
  };
  if (!range) return { ...head, range: null, links: [] as FlowLink[], routerInfo, sqlRange: null };
  const ipVersion: IpVersion = query.ipVersion === undefined || query.ipVersion === "all" ? "all" : (Number(query.ipVersion) as 4 | 6);
  const rows = await chQuery(stores.ch, {
    schema: z.object({ in_if: z.string(), link_start: z.string(), link_end: z.string(), out_if: z.string(), path_bps: z.number() }),
    ...linkPathQuery(query.origin, query.destination, {
      range: sqlRange,
      table,
      filters: context.filters,
      operatorAsn: context.operatorAsn,
      ipVersion,
    }),
  });
  const links = new Map<string, FlowLink>();
  const add = (id: string, kind: LinkKind, from: LinkEnd, to: LinkEnd | null, bps: number) => {
    const link = links.get(id) ?? { id, kind, from, to, bps: 0 };
    link.bps += bps;
    links.set(id, link);
  };
  for (const r of rows) {
    const bps = Number(r.path_bps);
    if (!(bps > 0)) continue;
    add(`in:${r.in_if}`, "external_in", splitKey(r.in_if), null, bps);
    if (r.link_start !== EMPTY_LINK_KEY)
      add(`core:${r.link_start}>${r.link_end}`, "core", splitKey(r.link_start), splitKey(r.link_end), bps);
    add(`out:${r.out_if}`, "external_out", splitKey(r.out_if), null, bps);
  }
  const order: Record<LinkKind, number> = { external_in: 0, core: 1, external_out: 2 };
  const list = [...links.values()].sort((a, b) => order[a.kind] - order[b.kind] || b.bps - a.bps || a.id.localeCompare(b.id));
  return { ...head, range: publicRange(range), links: list, routerInfo, sqlRange };
}

/** Routers and links (nodes and edges of a graph) that the traffic from origin to destination traverses. */
export async function runLinkTopology(stores: Stores, user: UserContext, version: number, query: LinkQuery) {
  const { routerInfo, sqlRange: _sqlRange, ...result } = await flowLinks(stores, user, version, query);
  const total = result.links.filter((l) => l.kind === "external_in").reduce((a, l) => a + l.bps, 0);
  const used = new Set(result.links.flatMap((l) => [l.from.router, ...(l.to ? [l.to.router] : [])]));
  const nodes = [
    { id: "origin", type: result.origin.kind, name: result.origin.name, city: null as string | null, country: null as string | null },
    ...[...used].sort().map((name) => ({
      id: `router:${name}`,
      type: "ROUTER" as const,
      name,
      city: routerInfo.get(name)?.city ?? null,
      country: routerInfo.get(name)?.country ?? null,
    })),
    {
      id: "destination",
      type: result.destination.kind,
      name: result.destination.name,
      city: null as string | null,
      country: null as string | null,
    },
  ];
  const edges = result.links.map((l) => ({
    id: l.id,
    kind: l.kind,
    source: l.kind === "external_in" ? "origin" : `router:${l.from.router}`,
    target: l.kind === "external_in" ? `router:${l.from.router}` : l.kind === "core" ? `router:${l.to!.router}` : "destination",
    interface: l.from,
    remote_interface: l.to,
    bps: l.bps,
  }));
  return { ...result, total_bps: total, nodes: result.range ? nodes : [], links: edges };
}

/** Per link of the traffic from origin to destination: its bit/s, the link's capacity and load. */
export async function runLinkStatistics(stores: Stores, user: UserContext, version: number, query: LinkQuery) {
  const { routerInfo: _routerInfo, sqlRange, ...result } = await flowLinks(stores, user, version, query);
  if (!sqlRange || !result.links.length) return { ...result, links: [] };
  const keys = [...new Set(result.links.map((l) => `${l.from.router}${INTERFACE_SEPARATOR}${l.from.interface}`))];
  const load = new Map(
    (await chQuery(stores.ch, { ...interfaceLoadQuery(keys, sqlRange), schema: interfaceLoadRow })).map((r) => [r.key, r]),
  );
  const inventory = await stores.pg.db
    .select({ router: routers.name, name: interfaces.name, capacityBps: interfaces.capacityBps, description: interfaces.description })
    .from(interfaces)
    .innerJoin(routers, eq(interfaces.routerId, routers.id))
    .where(inArray(routers.name, [...new Set(result.links.map((l) => l.from.router))]));
  const inv = new Map(inventory.map((i) => [`${i.router}${INTERFACE_SEPARATOR}${i.name}`, i]));
  const links = result.links.map((l) => {
    const key = `${l.from.router}${INTERFACE_SEPARATOR}${l.from.interface}`;
    const measured = load.get(key);
    const capacity = Number(inv.get(key)?.capacityBps ?? measured?.capacity_bps ?? 0);
    // Traffic of the external in-interface arrives (in); core and external-out traffic leaves the interface (out).
    const linkBps = measured ? Number(l.kind === "external_in" ? measured.in_bps : measured.out_bps) : null;
    return {
      ...l,
      description: inv.get(key)?.description ?? "",
      capacity_bps: capacity || null,
      utilisation_pct: capacity ? (l.bps / capacity) * 100 : null,
      link_bps: linkBps,
      link_utilisation_pct: capacity && linkBps !== null ? (linkBps / capacity) * 100 : null,
    };
  });
  return { ...result, links };
}

// ---------------------------------------------------------------------------------------------------------------
// api/untracked_data/

export async function runUntracked(stores: Stores, user: UserContext, version: number, body: z.infer<typeof untrackedBodySchema>) {
  const dimension = requireDimension(user, version, body.dimension, "dimension");
  if (getDimension(dimension).filterKind !== "AS_NUMBER")
    throw badRequest("dimension", `${dimension} is not an AS dimension; the special AS values exist only there.`);
  const { context, range } = await prepare(stores, user, version, {
    start: body.startTimestamp,
    end: body.endTimestamp,
    filters: normalizeFilters(body.filters),
    dimensions: [dimension],
  });
  const base = {
    dimension: { id: dimension, label: getDimension(dimension).label },
    filters: publicFilters(context),
    notices: context.notices,
  };
  const zero = {
    total_bps: 0,
    untracked_bps: 0,
    others_bps: 0,
    not_routable_bps: 0,
    untracked_share: 0,
    others_share: 0,
    not_routable_share: 0,
  };
  if (!range) return { range: null, window: null, buckets: [], overall: zero, ...base, notes: ["No flow data."] };
  const window = defaultWindow(range);
  const table = tableForWindow(window);
  const q = untrackedQuery(dimension, {
    range: alignRange(range, table),
    table,
    window,
    filters: context.filters,
    operatorAsn: context.operatorAsn,
    ipVersion: bodyIpVersion(body.ipVersion),
  });
  const rows = await chQuery(stores.ch, {
    ...q,
    schema: z.object({
      bucket: z.number(),
      total_bps: z.number(),
      untracked_bps: z.number(),
      others_bps: z.number(),
      not_routable_bps: z.number(),
    }),
  });
  const shares = (t: number, u: number, o: number, n: number) => ({
    total_bps: t,
    untracked_bps: u,
    others_bps: o,
    not_routable_bps: n,
    untracked_share: share(u, t),
    others_share: share(o, t),
    not_routable_share: share(n, t),
  });
  const buckets = rows.map((r) => ({
    bucket: Number(r.bucket),
    ...shares(Number(r.total_bps), Number(r.untracked_bps), Number(r.others_bps), Number(r.not_routable_bps)),
  }));
  // Overall: a bucket's bit/s times the window is its bits (a bucket cut by the range edge is divided by the full window too).
  const sqlRange = alignRange(range, table);
  const mean = (k: "total_bps" | "untracked_bps" | "others_bps" | "not_routable_bps") =>
    (buckets.reduce((a, b) => a + b[k], 0) * window) / (sqlRange.end - sqlRange.start);
  const overall = shares(mean("total_bps"), mean("untracked_bps"), mean("others_bps"), mean("not_routable_bps"));
  return { range: publicRange(range), window, buckets, overall, ...base, notes: [] as string[] };
}

// ---------------------------------------------------------------------------------------------------------------
// The AS Flows Analysis screen (/as-flows-analysis)

/** The four AS dimensions of ingress traffic, in path order: source → handover → next hop → destination. */
export const FOUR_DIMENSIONS = ["AS_SRC_INGRESS", "AS_HND_INGRESS", "AS_NXT_INGRESS", "AS_DST_INGRESS"] as const;

/** What the screen says in place of a part the user's permissions leave out. */
export const ANALYSIS_SANKEY_WITHHELD = `The Sankey chart of the four ASes needs the permission "${describePermission("SANKEY_TOPOLOGY").title}".`;
export const ANALYSIS_INDIRECT_WITHHELD = `The direct and indirect traffic figures need the permission "${describePermission("API_FLOWS_INDIRECT_KPI").title}".`;

/**
 * Everything the screen shows, computed from its URL on the server (works without JavaScript):
 * `as` (AS numbers separated by commas or spaces, repeatable), and the Flow Explorer's dateRange,
 * start, end and ipVersion parameters (params.ts). The chosen ASes are a source-AS filter of the
 * four-dimension Sankey (runSankeyQuery) and the subject of the direct/indirect split.
 */
export async function loadAsFlowsAnalysis(services: Services, user: UserContext, url: URL, options: { now?: number } = {}) {
  const params = parseExplorerParams(url.searchParams);
  const settings = await getUserSettings(services.pg.db, user.id);
  const timezone = settings.timezone || "UTC";
  const requested = requestedRange(params, options.now ?? Math.floor(Date.now() / 1000), timezone);
  const ipVersion: IpVersion = params.ipVersion === "all" ? "all" : (Number(params.ipVersion) as 4 | 6);
  const rangeError = customRangeError(params, timezone);
  const errors: string[] = unappliedParams(url.searchParams, params, {
    rangeLabel: requested.preset ? PRESET_LABELS[requested.preset] : "the custom range",
  });
  const asText = url.searchParams.getAll("as").join(",");
  const asns: number[] = [];
  for (const token of asText.split(/[\s,]+/).filter(Boolean)) {
    const parsed = parseAsValue(token);
    if (!parsed || parsed.isNegation) errors.push(invalidInput(token, "AS number"));
    else if (!asns.includes(Number(parsed.value))) asns.push(Number(parsed.value));
  }
  if (asns.length > MAX_AS_LIST) {
    errors.push(`At most ${MAX_AS_LIST} AS numbers at once; the first ${MAX_AS_LIST} are shown.`);
    asns.length = MAX_AS_LIST;
  }
  // Each part of the screen needs its own permission on top of the screen's API_FLOWS_4D; a part the
  // user may not see is left out (and said once), the rest of the screen stays.
  const parts = {
    sankey: user.permissions.includes("SANKEY_TOPOLOGY"),
    indirect: user.permissions.includes("API_FLOWS_INDIRECT_KPI"),
  };
  const withheld = [...(parts.sankey ? [] : [ANALYSIS_SANKEY_WITHHELD]), ...(parts.indirect ? [] : [ANALYSIS_INDIRECT_WITHHELD])];
  const base = {
    parts,
    withheld,
    params: {
      as: asText,
      dateRange: params.dateRange ?? null,
      start: params.start ?? null,
      end: params.end ?? null,
      ipVersion: params.ipVersion,
    },
    asns,
    requested,
    timezone,
    rangeError,
  };
  const empty = {
    ...base,
    errors,
    notices: [] as string[],
    range: null,
    sankey: null,
    indirect: null,
    filters: [] as ReturnType<typeof publicFilters>,
    lockedLabels: [] as string[],
  };
  if (!asns.length || (!parts.sankey && !parts.indirect)) return empty;
  const version = MAX_API_VERSION;
  try {
    const filters = [{ dimension: "AS_SRC_INGRESS", values: asns.map(String) }];
    const sankey = parts.sankey
      ? await runSankeyQuery(services, user, version, {
          dimensions: FOUR_DIMENSIONS,
          start: requested.start,
          end: requested.end,
          filters,
          ipVersion,
        })
      : null;
    const indirect = parts.indirect
      ? await runAsIndirect(services, user, version, {
          ASNumberList: asns,
          startTime: requested.start,
          endTime: requested.end,
          filters: [],
          ipVersion,
        })
      : null;
    // Both runs resolve the same filters and range; either one tells them.
    const shownFilters = sankey?.filters ?? indirect?.filters ?? [];
    const locked = shownFilters.filter((f) => f.locked);
    const labelOf = await nameAll(
      services,
      user,
      locked.map((f) => ({ dimension: f.dimension, key: f.value })),
    );
    return {
      lockedLabels: locked.map((f) => filterLabel({ ...f, name: labelOf(f.dimension, f.value).name })),
      ...base,
      errors,
      notices: [...(sankey?.notices ?? indirect?.notices ?? []), ...(indirect?.notes ?? [])],
      range: sankey ? sankey.range : (indirect?.range ?? null),
      sankey: sankey ? { nodes: sankey.nodes, links: sankey.links } : null,
      indirect: indirect ? indirect.results : null,
      filters: shownFilters,
    };
  } catch (e) {
    // A refusal of the service (e.g. a source-AS filter on a dimension locked for a delegated user, or
    // a dimension outside their restriction): say why.
    if (!(e instanceof ApiProblem) || (e.status !== 400 && e.status !== 403)) throw e;
    return { ...empty, errors: [...errors, ...(e.body.errors?.length ? e.body.errors.map((x) => x.message) : [e.body.detail])] };
  }
}

export type AsFlowsAnalysisData = Awaited<ReturnType<typeof loadAsFlowsAnalysis>>;
