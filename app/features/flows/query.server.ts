/**
 * The flows queries as a request runs them: dimension permission, filters with the user's
 * restrictions (locked), the range clamped to the data, the window. Shared by api/flows/,
 * api/sankey/, the Flow Explorer screen and its CSV export, so every caller enforces the same rules.
 */
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { getDimension, type DimensionId, type Direction } from "~/features/filter/dimensions";
import type { IpVersion } from "~/features/filter/filters";
import { parseApiFilters, requireDimension } from "~/features/filter/filter-resolver.server";
import { requireAllowedDimensions } from "~/features/filter/delegation-policy.server";
import {
  apiFlowsContext,
  flowLeftOut,
  flowSankey,
  flowTable,
  flowTimeseries,
  likelyFlowsContext,
  MAX_BUCKETS,
  resolveRange,
  sameFlowsContext,
  type DataRange,
  type FlowsContext,
  type ResolvedRange,
  type Timeseries,
  type TimeseriesSeries,
} from "./service.server";
import { dataRange } from "./data-range.server";
import { flowPrediction, type FlowPrediction } from "./prediction.server";
import { viewWindow } from "./range-notice";
import type { RequestFilter } from "~/features/filter/request-filter";
import { alignRange, defaultWindow, tableForWindow, type AggregationWindow } from "./aggregation-window";
import { completeBuckets } from "~/lib/aggregation-window";

type Stores = Pick<Services, "pg" | "ch">;

export type PublicFilter = { dimension: DimensionId; value: string; isNegation: boolean; locked: boolean };
export type PublicRange = { start: number; end: number; adjusted: ResolvedRange["adjusted"]; requested: ResolvedRange["requested"] };

const publicFilters = (resolved: FlowsContext): PublicFilter[] =>
  resolved.filters.map((f) => ({ dimension: f.dimension, value: f.value, isNegation: f.isNegation, locked: f.locked ?? false }));
const publicRange = (range: ResolvedRange): PublicRange => ({
  start: range.start,
  end: range.end,
  adjusted: range.adjusted,
  requested: range.requested,
});

/**
 * A query's filters: the request's, resolved by the query with the API's rules (invalid ones are a
 * 400), or a context the caller resolved already for several queries of one request (a screen).
 */
export type FilterSource = readonly RequestFilter[] | FlowsContext;

const isResolved = (source: FilterSource): source is FlowsContext => "operatorAsn" in source;

/** The context of a filter source: resolved once per request, whichever caller asks. */
function contextOf(stores: Stores, user: UserContext, version: number, source: FilterSource): Promise<FlowsContext> {
  return isResolved(source) ? Promise.resolve(source) : apiFlowsContext(stores, user, parseApiFilters(user, version, source));
}

export type FlowsQueryInput = {
  dimension: string;
  start: number;
  end: number;
  filters: FilterSource;
  ipVersion: IpVersion;
  window?: AggregationWindow;
  topN?: number;
  limit?: number;
  /** false: the table only (no timeseries query). */
  timeseries?: boolean;
  /** All traffic restricted to one direction (see sql.ts FlowQueryOptions.scope). */
  scope?: Direction;
  /** The data's range when the caller read it already (see resolveRange). */
  dataRange?: DataRange;
  /** Also predict the next period of the timeseries (prediction.server.ts). */
  predict?: boolean;
  /** Unix seconds; which buckets have ended (timeseries.complete). */
  now?: number;
  /** Also total what a view with a direction leaves out (service.server.ts flowLeftOut). */
  leftOut?: boolean;
};

/** The table and timeseries of one dimension (the body of api/flows/ without its notes). */
export async function runFlowsQuery(stores: Stores, user: UserContext, version: number, input: FlowsQueryInput) {
  const dimension = requireDimension(user, version, input.dimension, "dimension");
  // The data's range (ClickHouse) is looked up while the filters are resolved (PostgreSQL)…
  const rangeLookup = resolveRange(stores, input.start, input.end, input.dataRange);
  rangeLookup.catch(() => undefined); // awaited below; a refused filter must not leave it unhandled
  // …and the table is read meanwhile over the requested range with the filters as they most likely
  // resolve: used only when both guesses hold (see tableAfterClamp and likelyFlowsContext).
  const source = input.filters;
  const parsed = isResolved(source) ? null : parseApiFilters(user, version, source);
  // A context resolved by the caller is no guess: the table can be read with it at once.
  const likely = parsed ? likelyFlowsContext(stores, user, parsed) : (source as FlowsContext);
  const requestedWindow: AggregationWindow | null =
    input.start < input.end ? (input.window ?? defaultWindow({ start: input.start, end: input.end })) : null;
  // A caller that read the data's range already (a screen) knows the clamped range at once: no
  // guess to make, and none to throw away when the clamped range reads another window.
  const speculative =
    input.dataRange === undefined &&
    likely !== null &&
    requestedWindow !== null &&
    (input.end - input.start) / requestedWindow <= MAX_BUCKETS
      ? flowTable(stores, user, dimension, {
          ...likely,
          ipVersion: input.ipVersion,
          scope: input.scope,
          range: { start: input.start, end: input.end },
          window: requestedWindow,
          limit: input.limit,
        })
      : null;
  speculative?.catch(() => undefined);
  const resolved = parsed ? await apiFlowsContext(stores, user, parsed) : (source as FlowsContext);
  // A delegated user may break down by the restricted dimension or its output only (403 otherwise).
  requireAllowedDimensions(resolved.policy, [dimension]);
  const filters = publicFilters(resolved);
  const base = { filters: resolved.filters, operatorAsn: resolved.operatorAsn, ipVersion: input.ipVersion, scope: input.scope };
  const guessed = likely !== null && sameFlowsContext(likely, resolved) ? speculative : null;
  const range = await rangeLookup;
  if (!range) {
    return {
      dimension: { id: dimension, label: getDimension(dimension).label },
      timeseries: { buckets: [] as number[], series: [] as TimeseriesSeries[], complete: [] as boolean[] },
      window: input.window ?? null,
      table: [] as Awaited<ReturnType<typeof flowTable>>,
      leftOut: null,
      range: null,
      filters,
      notices: resolved.notices,
      noData: true as const,
    };
  }
  const window: AggregationWindow = input.window ?? viewWindow(range);
  const now = input.now ?? Math.floor(Date.now() / 1000);
  if ((range.end - range.start) / window > MAX_BUCKETS) {
    throw new ApiProblem(400, {
      detail: "Invalid request body.",
      errors: [{ field: "window", message: `The window is too small for the range (more than ${MAX_BUCKETS} buckets).` }],
    });
  }
  const q = { ...base, range, window };
  const [timeseries, table, leftOut] = await Promise.all([
    input.timeseries === false
      ? Promise.resolve({ buckets: [] as number[], series: [] as TimeseriesSeries[], complete: [] as boolean[] })
      : flowTimeseries(stores, user, dimension, { ...q, topN: input.topN }).then(async (measured) => {
          // What was read: the range aligned to the table's rows, but no further than the newest data when the end was clamped to it.
          const read = alignRange(range, tableForWindow(window));
          const endsAtData = range.adjusted !== "none" && range.adjusted !== "start-moved";
          const bounds = { start: read.start, end: endsAtData ? range.end : read.end, window, now };
          const shown = { ...measured, complete: completeBuckets(measured.buckets, bounds) };
          if (!input.predict) return shown;
          // The data's first bucket bounds the history: before it there is no traffic, only no data.
          const data = input.dataRange ?? (await dataRange(stores));
          const dataStart = data.minTimestamp ?? range.start;
          return { ...shown, prediction: await flowPrediction(stores, user, dimension, { ...q, dataStart }, shown) };
        }),
    tableAfterClamp(range, window, requestedWindow, guessed) ?? flowTable(stores, user, dimension, { ...q, limit: input.limit }),
    input.leftOut ? flowLeftOut(stores, dimension, q) : null,
  ]);
  return {
    dimension: { id: dimension, label: getDimension(dimension).label },
    timeseries: timeseries as Timeseries & { complete: boolean[]; prediction?: FlowPrediction | null },
    window,
    table,
    leftOut,
    range: publicRange(range),
    filters,
    notices: resolved.notices,
    noData: false as const,
  };
}

/**
 * The table read over the requested range, valid for the clamped one when clamping only cut off
 * time without data (the usual case: a preset ends "now", the newest bucket a few minutes earlier;
 * or it starts before the first data) and the window — hence the table read — is the same: the
 * rows are then the same, only the bit/s divisor changes, and it is recomputed from their bytes
 * exactly as the SQL does (sum(bytes) × 8 / seconds of the aligned range). Otherwise null: read again.
 */
function tableAfterClamp(
  range: ResolvedRange,
  window: AggregationWindow,
  requestedWindow: AggregationWindow | null,
  speculative: ReturnType<typeof flowTable> | null,
): ReturnType<typeof flowTable> | null {
  if (!speculative || window !== requestedWindow || range.adjusted === "last-30-minutes") return null;
  const aligned = alignRange(range, tableForWindow(window));
  const seconds = aligned.end - aligned.start;
  return speculative.then((rows) => rows.map((r) => ({ ...r, bps: (Number(r.bytes) * 8) / seconds })));
}

export type SankeyQueryInput = {
  dimensions: readonly string[];
  start: number;
  end: number;
  filters: FilterSource;
  ipVersion: IpVersion;
  topN?: number;
  scope?: Direction;
  dataRange?: DataRange;
};

/** The sankey of ≥ 2 dimensions of one direction (the body of api/sankey/ without its notes). */
export async function runSankeyQuery(stores: Stores, user: UserContext, version: number, input: SankeyQueryInput) {
  const dimensions: DimensionId[] = input.dimensions.map((d, i) => requireDimension(user, version, d, `dimensions.${i}`));
  const directions = new Set(dimensions.map((d) => getDimension(d).direction).filter((d) => d !== null));
  if (input.scope) directions.add(input.scope);
  if (directions.size > 1) {
    throw new ApiProblem(400, {
      detail: "Invalid request body.",
      errors: [{ field: "dimensions", message: "Ingress and egress dimensions cannot be combined in one chart." }],
    });
  }
  const [resolved, range] = await Promise.all([
    contextOf(stores, user, version, input.filters),
    resolveRange(stores, input.start, input.end, input.dataRange),
  ]);
  requireAllowedDimensions(resolved.policy, dimensions);
  const filters = publicFilters(resolved);
  if (!range)
    return {
      nodes: [] as Awaited<ReturnType<typeof flowSankey>>["nodes"],
      links: [] as Awaited<ReturnType<typeof flowSankey>>["links"],
      range: null,
      filters,
      notices: resolved.notices,
      noData: true as const,
    };
  const result = await flowSankey(stores, user, dimensions, {
    range,
    filters: resolved.filters,
    operatorAsn: resolved.operatorAsn,
    ipVersion: input.ipVersion,
    topN: input.topN,
    scope: input.scope,
  });
  return {
    nodes: result.nodes,
    links: result.links,
    range: publicRange(range),
    filters,
    notices: resolved.notices,
    noData: false as const,
  };
}
