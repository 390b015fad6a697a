/**
 * Looking Glass queries (spec §2–§5) over the current routing table (rib_current): who may ask
 * (public or private variant), validation of the query, and the rows per vantage point in the
 * spec's columns. The public variant sees only public vantage points and never the private-only
 * columns.
 */
import { lookingGlassRouters } from "~/server/auth/delegation.server";
import { communityNamer, parseCommunityPattern, type CommunityPattern } from "~/lib/bgp-communities";
import { effectiveNames, type NameViewer, type ObjectLabel } from "~/features/tags/effective-names.server";
import type { LookingGlassRow } from "./route-columns";
import { communityLabelList } from "./community-labels.server";
import { parseRibViewChoice, ribViewsOf, unknownRibView, type RibViewChoice } from "./rib-views";
import { eq } from "drizzle-orm";
import { siteSettings } from "~db/postgres/schema";
import { accessProblem, ApiProblem } from "~/server/api/contract.server";
import type { RequestContext } from "~/server/auth/guard.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { publicQueryCache, queryCacheKey } from "./lookingglass-cache.server";
import { isNetcommandType, isRibQueryType, toQueryType, type RibQueryType } from "~/lib/routing-query-types";
import { chQuery } from "~/server/clickhouse/query.server";
import { lookingGlassDbRow, lookingGlassSql, parseRibQuery, type LookingGlassDbRow, type RibMatch } from "./rib-sql";
import { resolveVantagePoints } from "./vantage-point-names";
import { routeRpkiState, type RoaIndex } from "./rpki/roa-index";
import { currentRoaIndex } from "./rpki/vrp-store.server";
import {
  forbiddenVantagePoints,
  listVantagePoints,
  vantagePointsRefusal,
  type LookingGlassVariant,
  type VantagePointJson,
} from "./vantage-points.server";

export type { LookingGlassVariant } from "./vantage-points.server";

/** Rows shown per request at most; the rows found beyond are counted for the results banner. */
export const LOOKING_GLASS_RESULTS_LIMIT = 1000;
export const VANTAGE_POINT_WITH_NO_DATA = "VantagePointWithNoData";

export type LookingGlassResult = {
  /** Keyed by vantage point key: its rows, or "VantagePointWithNoData" when nothing matched there. */
  results: Record<string, LookingGlassRow[] | typeof VANTAGE_POINT_WITH_NO_DATA>;
  /** Both set only when rows were cut: results_limit rows shown of results_maximum found (the banner's M and N). */
  results_limit: number | null;
  results_maximum: number | null;
  /** The normalised query term (compressed IPv6, network address of a prefix, canonical AS path pattern). */
  queryTerm: string;
  queryType: RibQueryType;
};

/** Input the Looking Glass refuses: a 400 with the message (and the field it concerns). */
export class LookingGlassInputError extends Error {
  constructor(
    message: string,
    readonly field: "queryTerm" | "queryType" | "vantagePoints" | "endDate" | "ribView" | "community",
  ) {
    super(message);
    this.name = "LookingGlassInputError";
  }
}

/** Whether anonymous visitors may use the Looking Glass: the public-lg deployment, or the site setting. */
export async function publicLookingGlassEnabled(services: Pick<Services, "pg" | "config">): Promise<boolean> {
  if (services.config.APP_VARIANT === "public-lg") return true;
  const [row] = await services.pg.db
    .select({ enabled: siteSettings.publicLookingGlassEnabled })
    .from(siteSettings)
    .where(eq(siteSettings.id, 1));
  return row?.enabled ?? false;
}

export type LookingGlassAccess =
  { variant: LookingGlassVariant } | { denied: "not_authenticated" | "permission_denied" | "consent_required" };

/**
 * Which variant a caller gets (spec §6): the private one for logged-in users with
 * PRIVATE_LOOKING_GLASS (and consent); otherwise the public one when it is enabled; otherwise the
 * reason for refusing.
 */
export async function lookingGlassAccess(services: Pick<Services, "pg" | "config">, user: UserContext | null): Promise<LookingGlassAccess> {
  if (user && user.hasConsented && user.permissions.includes("PRIVATE_LOOKING_GLASS")) return { variant: "private" };
  if (await publicLookingGlassEnabled(services)) return { variant: "public" };
  if (!user) return { denied: "not_authenticated" };
  return { denied: user.hasConsented ? "permission_denied" : "consent_required" };
}

/** The 403 of a Looking Glass call naming vantage points outside a delegated user's routers. */
function forbiddenProblem(names: readonly string[]): ApiProblem {
  return new ApiProblem(403, { detail: vantagePointsRefusal(names), exception_code: "permission_denied" });
}

/** A delegated user's Looking Glass routers (null: no restriction; anonymous visitors have none). */
export async function vantagePointRouters(stores: Pick<Services, "pg">, user: UserContext | null): Promise<string[] | null> {
  return user ? lookingGlassRouters(stores.pg.db, user) : null;
}

/** For the JSON endpoints: the caller's variant, or the contract's 403 for the reason it is refused. */
export async function requireLookingGlassVariant(context: RequestContext, user: UserContext | null): Promise<LookingGlassVariant> {
  const access = await lookingGlassAccess(context.services, user);
  if ("variant" in access) return access.variant;
  throw accessProblem(access.denied, context);
}

/** A LookingGlassInputError as the contract's 400. */
export function inputProblem(error: LookingGlassInputError): ApiProblem {
  return new ApiProblem(400, { detail: error.message, errors: [{ field: error.field, message: error.message }] });
}

/** What the public variant refuses (the spec hides communities from it; it always reads the default tables). */
export const PUBLIC_COMMUNITY_REFUSAL = "Filtering by community is only available in the private Looking Glass.";
export const PUBLIC_RIB_VIEW_REFUSAL =
  "The RIB view can only be chosen in the private Looking Glass: the public one shows post-policy and Loc-RIB routes.";

const isoUtc = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().replace(".000Z", "Z");

type Namers = { asName: (asn: number) => string | undefined; communityName: ((community: string) => string | null) | null };

function toRow(
  db: LookingGlassDbRow,
  vantagePoint: VantagePointJson,
  variant: LookingGlassVariant,
  namers: Namers,
  roas: RoaIndex | null,
): LookingGlassRow {
  const asNames: Record<string, string> = {};
  for (const asn of db.as_path) {
    const name = namers.asName(Number(asn));
    if (name !== undefined) asNames[String(asn)] = name;
  }
  const row: LookingGlassRow = {
    VantagePoint: vantagePoint.display_name,
    Prefix: db.prefix,
    RouteDistinguisher: db.route_distinguisher,
    "BGP as_path": db.as_path.join(" "),
    "BGP local_pref": Number(db.local_pref),
    "BGP med": Number(db.med),
    "BGP next_hop": db.bgp_next_hop,
    RibView: db.rib_view,
    LastUpdate: isoUtc(Number(db.last_update)),
    asNames,
    RPKI: routeRpkiState(roas, db),
  };
  if (variant === "private") {
    const communities = [...db.communities, ...db.ext_communities];
    row["BGP community"] = communities.join(" ");
    row["BGP originator_id"] = db.originator_id;
    const names: Record<string, string> = {};
    for (const community of communities) {
      const name = namers.communityName?.(community);
      if (name) names[community] = name;
    }
    row.communityNames = names;
  }
  return row;
}

/** The query type of a request (current or legacy id) that the routing tables answer; otherwise an input error. */
export function ribQueryType(value: string): RibQueryType {
  const type = toQueryType(value);
  if (type && isRibQueryType(type)) return type;
  if (type && isNetcommandType(type)) {
    throw new LookingGlassInputError(`${type} is a network command: use api/netcommand/.`, "queryType");
  }
  throw new LookingGlassInputError(`Unknown query type "${value}": use AsPathQuery or IpPrefixQuery.`, "queryType");
}

/** A Looking Glass request as the API and the screens receive it: names and text, not yet checked. */
export type LookingGlassRequest = {
  variant: LookingGlassVariant;
  queryType: string;
  queryTerm: string;
  vantagePoints: string[];
  /** A delegated user's routers (lookingGlassRouters): others are refused with a 403; null/absent: none refused. */
  routers?: readonly string[] | null;
  /** The tables to read (rib-views.ts): absent or "default" for post-policy and Loc-RIB; private variant only. */
  ribView?: string | null;
  /** Only routes carrying this community (exact, or with `*` for its last part); private variant only. */
  community?: string | null;
};

/** A request resolved once: its type, its term parsed, its vantage points among the variant's. */
export type LookingGlassQuery = {
  variant: LookingGlassVariant;
  queryType: RibQueryType;
  match: RibMatch;
  /** The normalised term (compressed IPv6, network address of a prefix, canonical AS path pattern). */
  term: string;
  vantagePoints: readonly VantagePointJson[];
  ribView: RibViewChoice;
  community: CommunityPattern | null;
};

/** The RIB view and community of a request, checked against its variant; LookingGlassInputError when refused. */
export function resolveRouteFilters(
  variant: LookingGlassVariant,
  request: Pick<LookingGlassRequest, "ribView" | "community">,
): { ribView: RibViewChoice; community: CommunityPattern | null } {
  const ribView = parseRibViewChoice(request.ribView);
  if (ribView === null) throw new LookingGlassInputError(unknownRibView(String(request.ribView).trim()), "ribView");
  if (variant === "public" && ribView !== "default") throw new LookingGlassInputError(PUBLIC_RIB_VIEW_REFUSAL, "ribView");
  const communityText = (request.community ?? "").trim();
  if (communityText === "") return { ribView, community: null };
  if (variant === "public") throw new LookingGlassInputError(PUBLIC_COMMUNITY_REFUSAL, "community");
  const parsed = parseCommunityPattern(communityText);
  if (!parsed.ok) throw new LookingGlassInputError(parsed.error, "community");
  return { ribView, community: parsed.pattern };
}

/**
 * Checks and resolves a request: the type, the term (parsed once), the vantage points named by
 * key, display name, legacy or unique description, or ["all"] (resolveVantagePoints, the rule the
 * screens' URLs follow too). `available` is the variant's list when the caller read it already.
 * Throws LookingGlassInputError for bad input.
 */
export async function resolveLookingGlassRequest(
  stores: Pick<Services, "pg">,
  request: LookingGlassRequest,
  available?: readonly VantagePointJson[],
): Promise<LookingGlassQuery> {
  const queryType = ribQueryType(request.queryType);
  const parsed = parseRibQuery(queryType, request.queryTerm);
  if (!parsed.ok) throw new LookingGlassInputError(parsed.error, "queryTerm");
  const filters = resolveRouteFilters(request.variant, request);
  if (request.vantagePoints.length === 0) throw new LookingGlassInputError("Select at least one vantage point.", "vantagePoints");
  const { selected, unknown } = resolveVantagePoints(
    available ?? (await listVantagePoints(stores, { variant: request.variant })),
    request.vantagePoints,
  );
  if (unknown.length) throw new LookingGlassInputError(`Unknown vantage point: ${unknown.join(", ")}.`, "vantagePoints");
  const routers = request.routers ?? null;
  let usable = selected;
  if (routers !== null) {
    // "all" means all of the user's; a vantage point named outside them is refused, never skipped silently.
    const all = request.vantagePoints.length === 1 && request.vantagePoints[0].trim() === "all";
    const forbidden = forbiddenVantagePoints(selected, routers);
    if (!all && forbidden.length) throw forbiddenProblem(forbidden.map((vp) => vp.display_name));
    usable = selected.filter((vp) => !forbidden.includes(vp));
    if (!usable.length) throw forbiddenProblem([]);
  }
  if (usable.length === 0) throw new LookingGlassInputError("No vantage point is available.", "vantagePoints");
  return { variant: request.variant, queryType, match: parsed.match, term: parsed.term, vantagePoints: usable, ...filters };
}

/** Resolves a request and runs it (tests and scripts; the API and the screens cache through cachedLookingGlassQuery). */
export async function runLookingGlassQuery(
  stores: Pick<Services, "pg" | "ch">,
  request: LookingGlassRequest & { limit?: number; viewer?: NameViewer },
): Promise<LookingGlassResult> {
  return runResolvedQuery(stores, await resolveLookingGlassRequest(stores, request), request.viewer ?? null, request.limit);
}

/**
 * What names the values of the rows: the ASes of their paths as the viewer reads them (effective
 * names: the mapping layers, else as_info), and for the private variant the well-known names and
 * the operator's community labels.
 */
async function rowNamers(
  stores: Pick<Services, "pg">,
  dbRows: readonly LookingGlassDbRow[],
  variant: LookingGlassVariant,
  viewer: NameViewer,
): Promise<Namers> {
  const asns = [...new Set(dbRows.flatMap((r) => r.as_path.map((a) => String(a))))];
  const [names, labels] = await Promise.all([
    asns.length ? effectiveNames(stores, viewer).then((n) => n.ases(asns)) : Promise.resolve(new Map<string, ObjectLabel>()),
    variant === "private" && dbRows.length ? communityLabelList(stores.pg.db) : Promise.resolve(null),
  ]);
  return { asName: (asn) => names.get(String(asn))?.name ?? undefined, communityName: labels ? communityNamer(labels) : null };
}

/**
 * Reads the rows of a resolved query, per vantage point in the spec's columns. `viewer`: whose
 * names the AS paths get; the public variant's answers are shared (cachedLookingGlassQuery), so
 * they are named with the shared layers only, whoever asks.
 */
export async function runResolvedQuery(
  stores: Pick<Services, "pg" | "ch">,
  q: LookingGlassQuery,
  viewer: NameViewer,
  limit = LOOKING_GLASS_RESULTS_LIMIT,
): Promise<LookingGlassResult> {
  const selected = q.vantagePoints;
  const dbRows = await chQuery(stores.ch, {
    schema: lookingGlassDbRow,
    ...lookingGlassSql({
      vantagePoints: selected.map((vp) => vp.key),
      match: q.match,
      limit,
      // The public variant reads the default tables without a community filter, whatever the caller built.
      ribViews: ribViewsOf(q.variant === "private" ? q.ribView : "default"),
      community: q.variant === "private" ? q.community : null,
    }),
  });
  const namers = await rowNamers(stores, dbRows, q.variant, q.variant === "public" ? null : viewer);

  const roas = dbRows.length ? await currentRoaIndex(stores) : null;
  const byKey = new Map(selected.map((vp) => [vp.key, vp]));
  const rows = new Map<string, LookingGlassRow[]>();
  for (const db of dbRows) {
    const vp = byKey.get(db.vantage_point)!;
    const list = rows.get(vp.key) ?? [];
    list.push(toRow(db, vp, q.variant, namers, roas));
    rows.set(vp.key, list);
  }
  const results: LookingGlassResult["results"] = {};
  for (const vp of selected) results[vp.key] = rows.get(vp.key) ?? VANTAGE_POINT_WITH_NO_DATA;
  const found = dbRows.length ? Number(dbRows[0].total) : 0;
  const cut = found > dbRows.length;
  return {
    results,
    results_limit: cut ? dbRows.length : null,
    results_maximum: cut ? found : null,
    queryTerm: q.term,
    queryType: q.queryType,
  };
}

/**
 * A resolved query, with identical public queries (same type, normalised term and vantage points;
 * always the default tables, never a community) answered from the per-replica cache for up to a
 * minute. Private queries always read the table.
 */
export async function cachedLookingGlassQuery(
  stores: Pick<Services, "pg" | "ch">,
  q: LookingGlassQuery,
  viewer: NameViewer,
): Promise<LookingGlassResult & { cached: boolean }> {
  if (q.variant !== "public") return { ...(await runResolvedQuery(stores, q, viewer)), cached: false };
  const key = queryCacheKey({
    variant: q.variant,
    queryType: q.queryType,
    term: q.term,
    vantagePoints: q.vantagePoints.map((vp) => vp.key),
  });
  const hit = publicQueryCache.get(key) as LookingGlassResult | undefined;
  if (hit) return { ...hit, cached: true };
  const result = await runResolvedQuery(stores, q, null);
  publicQueryCache.set(key, result);
  return { ...result, cached: false };
}
