/**
 * The Looking Glass screen's state in its URL (spec §2 "Looking Glass form"): selectedVantagePoints,
 * queryType and queryTerm. Pure and isomorphic: the loaders parse it, the GET form and the
 * client's history updates write it, so a link reproduces the screen.
 *
 * selectedVantagePoints is a JSON list of vantage point descriptions, or the single entry "all" for
 * every available one. A vantage point is written as its display name, which is unique within a
 * variant; names are read by the rule api/lookingglass/ uses too (routing/vantage-point-names.ts),
 * so older links naming a key, a legacy or a unique description keep working. The GET form without
 * JavaScript cannot build JSON: it sends the parameter once per ticked box, which is parsed the same
 * way. Names that do not exist among the available vantage points are dropped.
 *
 * The private screen adds ribView (which routing tables: rib-views.ts; absent means post-policy and
 * Loc-RIB) and community (only routes carrying it); a link without them reads as before.
 */
import { toQueryType, type QueryType } from "~/lib/routing-query-types";
import { ALL_VANTAGE_POINTS, findVantagePoint, resolveVantagePoints, type VantagePointRef } from "~/features/routing/vantage-point-names";
import { DEFAULT_RIB_VIEW, RIB_VIEW_PARAM, parseRibViewChoice, type RibViewChoice } from "~/features/routing/rib-views";

export { ALL_VANTAGE_POINTS, findVantagePoint, type VantagePointRef };

/** Where the analytics deployment serves the public Looking Glass (while the site setting is on). */
export const PUBLIC_LOOKING_GLASS_PATH = "/public/lookingglass";

export const PARAM = {
  vantagePoints: "selectedVantagePoints",
  queryType: "queryType",
  queryTerm: "queryTerm",
  ribView: RIB_VIEW_PARAM,
  community: "community",
} as const;

export type LookingGlassUrlState = {
  /** Display names of the selected vantage points, in the order of the available list. */
  selectedVantagePoints: string[];
  queryType: QueryType;
  queryTerm: string;
  /** The routing tables to read (the private screen's choice; the default otherwise, and for a value that names none). */
  ribView: RibViewChoice;
  /** Only routes carrying this community (the private screen's filter), as typed; "" for none. */
  community: string;
};

/** The URL's ribView and community as given, for the loader to judge (unknown views, the public page). */
export function rawRouteFilters(search: URLSearchParams): { ribView: string; community: string } {
  return { ribView: (search.get(PARAM.ribView) ?? "").trim(), community: (search.get(PARAM.community) ?? "").trim().slice(0, 200) };
}

/** The current id of a query type parameter (legacy codes mapped), or null when it names none. */
export function parseQueryType(value: string | null): QueryType | null {
  return value ? toQueryType(value.trim()) : null;
}

/** The raw names the selectedVantagePoints parameter(s) carry: a JSON list, "all", or one name per occurrence. */
export function rawVantagePointNames(values: string[]): string[] {
  const names: string[] = [];
  for (const value of values) {
    const text = value.trim();
    if (text.startsWith("[")) {
      try {
        const list: unknown = JSON.parse(text);
        if (Array.isArray(list)) names.push(...list.filter((v): v is string => typeof v === "string"));
        continue;
      } catch {
        // Not JSON after all: a name that starts with "[" is taken as it is.
      }
    }
    if (text) names.push(text);
  }
  return names;
}

/** The selection the names make among the available vantage points, in the available order. */
export function selectVantagePoints<T extends VantagePointRef>(available: readonly T[], names: readonly string[]): T[] {
  // The form without JavaScript sends its select-all box beside the ticked ones: "all" then wins.
  const all = names.some((name) => name.trim() === ALL_VANTAGE_POINTS);
  const chosen = new Set(resolveVantagePoints(available, all ? [ALL_VANTAGE_POINTS] : names).selected);
  return available.filter((vp) => chosen.has(vp));
}

/**
 * Query types that take a single vantage point keep exactly one. Every type of the spec takes
 * several (§3), so today this only matters if a type's support changes; the rule stays in one place.
 */
export const SINGLE_VANTAGE_POINT_TYPES: readonly QueryType[] = [];

export function keepForQueryType<T>(selected: readonly T[], queryType: QueryType): T[] {
  return SINGLE_VANTAGE_POINT_TYPES.includes(queryType) ? selected.slice(0, 1) : [...selected];
}

/** The URL state from search params, against the available vantage points and query types. */
export function parseLookingGlassUrl(
  search: URLSearchParams,
  available: readonly VantagePointRef[],
  queryTypes: readonly QueryType[],
): LookingGlassUrlState {
  return readLookingGlassUrl(search, available, queryTypes).state;
}

/** The URL state and the vantage points it selects, so a loader uses them without looking the names up again. */
export function readLookingGlassUrl<T extends VantagePointRef>(
  search: URLSearchParams,
  available: readonly T[],
  queryTypes: readonly QueryType[],
): { state: LookingGlassUrlState; selected: T[] } {
  const requestedType = parseQueryType(search.get(PARAM.queryType));
  const queryType = requestedType && queryTypes.includes(requestedType) ? requestedType : (queryTypes[0] ?? "AsPathQuery");
  const selected = keepForQueryType(selectVantagePoints(available, rawVantagePointNames(search.getAll(PARAM.vantagePoints))), queryType);
  const filters = rawRouteFilters(search);
  const state = {
    selectedVantagePoints: selected.map((vp) => vp.display_name),
    queryType,
    queryTerm: (search.get(PARAM.queryTerm) ?? "").slice(0, 200),
    ribView: parseRibViewChoice(filters.ribView) ?? DEFAULT_RIB_VIEW,
    community: filters.community,
  };
  return { state, selected };
}

/** Whether the URL asks for a query (the form was submitted), as opposed to a bare visit. */
export function isSubmitted(search: URLSearchParams): boolean {
  return search.has(PARAM.queryType) || search.has(PARAM.queryTerm);
}

/** Search params of a state: "all" when every available vantage point (more than one) is selected. */
export function serializeLookingGlassUrl(state: LookingGlassUrlState, available: readonly VantagePointRef[]): URLSearchParams {
  const params = new URLSearchParams();
  const all = available.length > 1 && state.selectedVantagePoints.length === available.length;
  params.set(PARAM.vantagePoints, JSON.stringify(all ? [ALL_VANTAGE_POINTS] : state.selectedVantagePoints));
  params.set(PARAM.queryType, state.queryType);
  params.set(PARAM.queryTerm, state.queryTerm);
  if (state.ribView !== DEFAULT_RIB_VIEW) params.set(PARAM.ribView, state.ribView);
  if (state.community.trim() !== "") params.set(PARAM.community, state.community.trim());
  return params;
}

/** The search param that carries the ping/traceroute jobs of a page waiting for them: JSON {display name: job id}. */
export const JOBS_PARAM = "jobs";
/** Seconds after which a page with running jobs reloads to read them again (the page without JavaScript). */
export const NETCOMMAND_REFRESH_SECONDS = 2;

/** The meta refresh of a page whose ping/traceroute jobs still run. */
export function refreshMeta(refreshUrl: string | null | undefined): { httpEquiv: string; content: string }[] {
  return refreshUrl ? [{ httpEquiv: "refresh", content: `${NETCOMMAND_REFRESH_SECONDS};url=${refreshUrl}` }] : [];
}
