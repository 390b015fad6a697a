/**
 * Everything the Flow Explorer screen (and its CSV export) computes from the URL, on the server:
 * the dimensions the user may use, the filters (resolved once, errors shown, not thrown), the range
 * clamped to the data, the table with its total, and the chart data of the view. The filters go
 * through the same resolver and delegation policy as the JSON API's (filter-resolver.server.ts).
 */
import { getUserSettings } from "~/server/settings/user-settings.server";
import { accessOf } from "~/server/auth/guard.server";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { compareRows, compareTotals, type Compared } from "./comparison";
import { previousPeriodTable } from "./comparison.server";
import {
  availableDimensions,
  getDimension,
  isDimensionId,
  MAX_API_VERSION,
  type DimensionId,
  type Direction,
} from "~/features/filter/dimensions";
import type { IpVersion } from "~/features/filter/filters";
import { policyFiltersOnly, resolveScreenFilters, type DimensionWording } from "~/features/filter/filter-resolver.server";
import { dimensionRefusal, loadDelegationPolicy, mayUseDimension, type DelegationPolicy } from "~/features/filter/delegation-policy.server";
import { allTrafficHref, allTrafficView, countedTraffic, COUNTED_TRAFFIC_LABELS, leftOutText } from "./counted-traffic";
import { filterParamsToRequest, notApplied, parseExplorerParams, requestedRange, unappliedParams, type ExplorerParams } from "./params";
import { rangeNotice } from "./range-notice";
import { PRESET_LABELS } from "~/lib/time-range";
import { filterLabel } from "~/features/filter/value-labels";
import { runFlowsQuery, runSankeyQuery } from "./query.server";
import { PREDICTION_UNAVAILABLE } from "./prediction.server";
import { dataRange, type DataRange } from "./data-range.server";
import { tableGranularity } from "./aggregation-window";
import { nameAll, NO_OPERATOR_AS, operatorAsn, type FlowsContext, type LeftOut } from "./service.server";
import { describePermission } from "~/lib/permission-catalogue";
import { findToolRoute, mayOpen } from "~/lib/routes";
import { mayShowInRna } from "./rna-link";
import { formatBitsPerSecond } from "~/lib/units";
import { formatUnix } from "~/lib/date-format";
import { keepForRender } from "~/server/request-scope.server";
import { CHART_DATA_PARAM, TIMESERIES_MARKUP } from "./chart-data";
import { screenTimeseriesMarkup } from "./export/chart-svg.server";
import { chartNotes } from "./ui/chart-notes";
import { describePrediction } from "./ui/chart-descriptions";

export const SANKEY_NEEDS_TWO = "Sankey chart needs at least two dimensions";
/** Why a URL's Sankey view is not drawn (the screen falls back to the timeseries) and its image export is a 403. */
const SANKEY_PERMISSION_REASON = `the Sankey chart needs the permission "${describePermission("SANKEY_TOPOLOGY").title}"`;
export const SANKEY_NEEDS_PERMISSION = `The Sankey chart needs the permission "${describePermission("SANKEY_TOPOLOGY").title}".`;
/** Values shown in the table (all of them in practice: the demo has a few hundred per dimension). */
export const EXPLORER_TABLE_LIMIT = 1000;

const problemMessages = (e: ApiProblem) => (e.body.errors?.length ? e.body.errors.map((x) => x.message) : [e.body.detail]);

/** The screen's texts for a filter's dimension problems (the API's name the body's fields instead). */
const SCREEN_WORDING: DimensionWording = {
  unknown: (d) => `Unknown dimension "${d}" in a filter; write DIMENSION:value,!value (e.g. AS_SRC_INGRESS:2906,!AS15169).`,
  unavailable: (d) => `The filter on ${getDimension(d).label} was not applied: the dimension is not available to your account here.`,
  noValue: (d) => `The filter on ${getDimension(d).label} has no value; write ${d}:value.`,
};

/** Which traffic the total counts, machine code and words. */
function trafficOf(...args: Parameters<typeof countedTraffic>) {
  const code = countedTraffic(...args);
  return { code, label: COUNTED_TRAFFIC_LABELS[code] };
}

/**
 * What a view with a direction leaves out of the traffic of its range and filters, said next to its
 * total, with a link to the Flow Explorer view that shows all of it (keeping the range and filters)
 * when the user may open one; null when the view leaves nothing out.
 */
function leftOutOf(
  user: UserContext,
  figures: LeftOut | null,
  direction: Direction | null,
  available: readonly { id: DimensionId; direction: Direction | null }[],
  url: URL,
) {
  const text = figures && direction ? leftOutText(figures, direction, formatBitsPerSecond) : null;
  if (!figures || !text) return null;
  const explorer = findToolRoute("/flow-explorer")!;
  const target = mayOpen(explorer, accessOf(user)) ? allTrafficView(available.map((d) => ({ value: d.id, direction: d.direction }))) : null;
  return {
    ...figures,
    text,
    link: target ? { href: allTrafficHref(url.searchParams, target), label: `${getDimension(target).label} view` } : null,
  };
}

export const PREVIOUS_PERIOD_UNCOVERED = "The previous period starts before the first flow data; its missing time counts as no traffic.";

/** The table compared with the previous period of equal length (comparison.ts), with both totals. */
type Comparison = {
  range: { start: number; end: number };
  /** The previous period's total per bucket, moved onto the current period's time axis (timeseries view only). */
  totals: { bucket: number; bps: number }[] | null;
  total: ReturnType<typeof compareTotals>;
  rows: Compared<FlowsResult["table"][number]>[];
};

type FlowsResult = {
  range: Awaited<ReturnType<typeof runFlowsQuery>>["range"];
  window: number | null;
  table: Awaited<ReturnType<typeof runFlowsQuery>>["table"];
  timeseries: Awaited<ReturnType<typeof runFlowsQuery>>["timeseries"];
  filters: Awaited<ReturnType<typeof runFlowsQuery>>["filters"];
  noData: boolean;
};

/** A policy whose restrictions cannot be applied: no dimension at all (the screen says why). */
const UNUSABLE_POLICY: DelegationPolicy = { lockedFilters: [], locked: new Set(), allowed: new Set(), current: null };

/**
 * What the URL is loaded for: the screen, a table file (csv, xls, xlsx) or an image of the chart
 * (png, svg). Each needs other reads (explorerNeeds).
 */
export type ExplorerOutput = "screen" | "table" | "image" | "chart";

/** What a screen's loader is asked for: its page, or (CHART_DATA_PARAM) the data of its chart. */
export const outputOf = (url: URL): ExplorerOutput => (url.searchParams.get(CHART_DATA_PARAM) === "1" ? "chart" : "screen");

export type ExplorerOptions = {
  now?: number;
  /** Default "screen". */
  output?: ExplorerOutput;
  /** The AS Flows Egress screen: egress traffic only, and only dimensions without an ingress direction. */
  scope?: Direction;
};

/** Dimensions a screen of the given scope offers (all the user may use when unscoped). */
export function scopedDimensions(permissions: readonly string[], version: number, scope?: Direction) {
  return availableDimensions(permissions, version).filter((d) => !scope || d.direction === null || d.direction === scope);
}

/**
 * The reads a view of the URL needs, each once: the table is always read (the total and the
 * table export are made of it); the rest only where the output shows it.
 */
export type ExplorerNeeds = {
  /** The timeseries query: the timeseries chart, or the detailed table (made of the timeseries whatever the chart). */
  timeseries: boolean;
  /** The prediction of the next period: the timeseries chart only (neither the table nor the Sankey has one). */
  predict: boolean;
  /** The Sankey query. */
  sankey: boolean;
  /** The previous period's table. */
  compare: boolean;
  /** The previous period's total per bucket: the overlay of the timeseries chart. */
  previousTotals: boolean;
  /** What a view with a direction leaves out, said next to the total on the screen (a file has no place for it). */
  leftOut: boolean;
};

export function explorerNeeds(
  params: Pick<ExplorerParams, "view" | "table" | "compare" | "predict">,
  output: ExplorerOutput,
): ExplorerNeeds {
  const chart = output !== "table";
  const timeseriesChart = chart && params.view === "timeseries";
  return {
    timeseries: timeseriesChart || params.table === "detailed",
    predict: timeseriesChart && params.predict,
    sankey: (output === "screen" || output === "image") && params.view === "sankey",
    compare: params.compare,
    previousTotals: params.compare && timeseriesChart,
    leftOut: output === "screen",
  };
}

/**
 * The URL read against the user's permissions and delegation policy: the dimensions offered, the
 * dimension shown (a refused or unknown one falls back, said in `errors`; a delegated user's screen
 * opens on the output, with the restricted dimension as the Sankey's second). Reads the policy only.
 */
async function resolveDimensions(
  services: Services,
  user: UserContext,
  url: URL,
  params: ExplorerParams,
  version: number,
  scope?: Direction,
) {
  const errors: string[] = [];
  /** What the delegation policy refused (also in `errors`): the exports answer them with a 403. */
  const refusals: string[] = [];
  let policy: DelegationPolicy;
  try {
    policy = await loadDelegationPolicy(services, user);
  } catch (e) {
    if (!(e instanceof ApiProblem)) throw e;
    policy = UNUSABLE_POLICY;
    errors.push(e.body.detail);
    refusals.push(e.body.detail);
  }
  const permitted = scopedDimensions(user.permissions, version, scope);
  const available = permitted.filter((d) => mayUseDimension(policy, d.id));
  const allowed = new Set<string>(available.map((d) => d.id));

  const asked = (name: string) => url.searchParams.get(name)?.trim() || null;
  const whyNot = (value: string) =>
    !isDimensionId(value)
      ? "not a dimension"
      : !mayUseDimension(policy, value)
        ? dimensionRefusal(policy, value).replace(/\.$/, "")
        : "not available to your account here";
  const restricted = policy.current;
  let dimension: DimensionId | null = params.dimension;
  if (restricted && asked("dimension") === null) dimension = allowed.has(restricted.output) ? restricted.output : restricted.dimension;
  if (!allowed.has(dimension) || (asked("dimension") !== null && !isDimensionId(asked("dimension")!))) {
    // The egress screen opens on the neighbours traffic leaves to; a delegated user's on the output; otherwise the catalogue's first.
    const preferred = restricted
      ? available.find((d) => d.id === restricted.output)
      : scope === "EGRESS"
        ? available.find((d) => d.id === "AS_NEIGHBOR_EGRESS")
        : undefined;
    const fallback = allowed.has(dimension) ? dimension : ((preferred ?? available[0])?.id ?? null);
    const value = asked("dimension");
    if (value && isDimensionId(value) && !mayUseDimension(policy, value)) refusals.push(dimensionRefusal(policy, value));
    if (value) errors.push(notApplied("dimension", value, whyNot(value), fallback ? getDimension(fallback).label : "nothing"));
    dimension = fallback;
  }
  const dimension2Asked = asked("dimension2");
  if (dimension2Asked && !allowed.has(dimension2Asked)) {
    if (isDimensionId(dimension2Asked) && !mayUseDimension(policy, dimension2Asked))
      refusals.push(dimensionRefusal(policy, dimension2Asked));
    errors.push(
      notApplied("dimension2", dimension2Asked, whyNot(dimension2Asked), restricted ? "the allowed view" : "no second dimension"),
    );
    params.dimension2 = undefined;
  }
  if (restricted && !params.dimension2) {
    // The Sankey's second dimension: the restricted one, or the output when the first is the restricted one.
    const second = dimension === restricted.dimension ? restricted.output : restricted.dimension;
    params.dimension2 = second !== dimension && allowed.has(second) ? second : undefined;
  }
  return { policy, permitted, available, allowed, dimension, errors, refusals };
}

/**
 * The timeseries chart of the screen's page: its SVG rendered here and kept for the document's
 * render (the page carries it once, as markup, not again as loader data), and what is said around
 * it. The interactive chart fetches the data itself (CHART_DATA_PARAM) once the page runs.
 */
function timeseriesForScreen(flows: Awaited<ReturnType<typeof runFlowsQuery>>, comparison: Comparison | null, timezone: string) {
  const props = { timeseries: flows.timeseries, timezone, window: flows.window, previous: comparison?.totals ?? null };
  keepForRender(TIMESERIES_MARKUP, screenTimeseriesMarkup(props));
  const prediction = "prediction" in flows.timeseries ? flows.timeseries.prediction : null;
  return {
    ...chartNotes(flows.timeseries, timezone),
    predictionNote: prediction?.buckets.length
      ? describePrediction(
          flows.timeseries,
          `${formatUnix(prediction.buckets[0], timezone)} to ${formatUnix(prediction.buckets[prediction.buckets.length - 1], timezone)} (${timezone})`,
        ) || null
      : null,
  };
}

/** What the screen shows when nothing is queried (no dimension, no data, no operator AS). */
const NOTHING_READ = {
  chart: null,
  sankey: null,
  sankeyError: null,
  total: 0,
  comparison: null,
  traffic: null,
  leftOut: null,
  rangeNotice: null,
  filterLabels: [] as string[],
  newestData: null as number | null,
};

const NO_FLOWS: FlowsResult = {
  range: null,
  window: null,
  table: [],
  timeseries: { buckets: [], series: [], complete: [] },
  filters: [],
  noData: true,
};

type ViewQuery = {
  dimension: DimensionId;
  context: FlowsContext;
  ipVersion: IpVersion;
  scope?: Direction;
  dataRange: DataRange;
};

/** The table compared with the previous period of equal length; null unless asked for (or when there is no range). */
async function readComparison(
  services: Services,
  user: UserContext,
  version: number,
  q: ViewQuery,
  flows: Awaited<ReturnType<typeof runFlowsQuery>>,
  needs: ExplorerNeeds,
  notices: string[],
): Promise<Comparison | null> {
  if (!needs.compare || !flows.range || !flows.window) return null;
  const previous = await previousPeriodTable(services, user, version, {
    ...q,
    range: flows.range,
    window: flows.window,
    limit: EXPLORER_TABLE_LIMIT,
    totals: needs.previousTotals,
  });
  if (!previous.covered) notices.push(PREVIOUS_PERIOD_UNCOVERED);
  return {
    range: previous.range,
    total: compareTotals(flows.table, previous.table),
    rows: compareRows(flows.table, previous.table),
    totals: previous.totals,
  };
}

/** The Sankey of the view's two dimensions, or why it is not drawn (its refusals are said, not thrown). */
async function readSankey(
  services: Services,
  user: UserContext,
  version: number,
  q: ViewQuery,
  second: DimensionId | undefined,
  allowed: ReadonlySet<string>,
  requested: { start: number; end: number },
): Promise<{ sankey: SankeyData | null; sankeyError: string | null }> {
  if (!second || !allowed.has(second)) return { sankey: null, sankeyError: SANKEY_NEEDS_TWO };
  if (second === q.dimension) return { sankey: null, sankeyError: "The two dimensions of the sankey chart must be different." };
  try {
    const sankey = await runSankeyQuery(services, user, version, {
      dimensions: [q.dimension, second],
      start: requested.start,
      end: requested.end,
      filters: q.context,
      ipVersion: q.ipVersion,
      scope: q.scope,
      dataRange: q.dataRange,
    });
    return { sankey: { nodes: sankey.nodes, links: sankey.links }, sankeyError: null };
  } catch (e) {
    // The chart's own refusals (e.g. ingress and egress dimensions in one chart); the filters were resolved before.
    if (!(e instanceof ApiProblem) || e.status !== 400) throw e;
    return { sankey: null, sankeyError: problemMessages(e).join(" ") };
  }
}

type SankeyData = {
  nodes: Awaited<ReturnType<typeof runSankeyQuery>>["nodes"];
  links: Awaited<ReturnType<typeof runSankeyQuery>>["links"];
};

export async function loadExplorer(services: Services, user: UserContext, url: URL, options: ExplorerOptions = {}) {
  const params = { ...parseExplorerParams(url.searchParams) };
  const output = options.output ?? "screen";
  const version = MAX_API_VERSION;
  const notices: string[] = [];
  const { permitted, available, allowed, dimension, errors, refusals, policy } = await resolveDimensions(
    services,
    user,
    url,
    params,
    version,
    options.scope,
  );

  // The filters are resolved once, here, for every view below (parse, delegation policy, tags).
  const [settings, filterResolution] = await Promise.all([
    getUserSettings(services.pg.db, user.id),
    // Parsed against the permitted dimensions, so a filter outside the policy is refused by the policy, in its words.
    resolveScreenFilters(
      services,
      user,
      filterParamsToRequest(params.filter),
      new Set<string>(permitted.map((d) => d.id)),
      SCREEN_WORDING,
      policy,
    ),
  ]);
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const requested = requestedRange(params, now, settings.timezone || "UTC");
  const ipVersion: IpVersion = params.ipVersion === "all" ? "all" : (Number(params.ipVersion) as 4 | 6);
  errors.push(
    ...unappliedParams(url.searchParams, params, { rangeLabel: requested.preset ? PRESET_LABELS[requested.preset] : "the custom range" }),
  );
  // The Sankey view needs its own permission: without it the screen shows the timeseries and says
  // why, and an image export of it is refused (a table export holds the same table either way).
  // Checked after the URL's values, which would otherwise also report the changed view.
  const sankeyAllowed = user.permissions.includes("SANKEY_TOPOLOGY");
  if (params.view === "sankey" && !sankeyAllowed) {
    errors.push(notApplied("view", "sankey", SANKEY_PERMISSION_REASON, "the timeseries"));
    if (output !== "table") refusals.push(SANKEY_NEEDS_PERMISSION);
    params.view = "timeseries";
  }
  errors.push(...filterResolution.parseErrors.map((e) => e.message));
  const needs = explorerNeeds(params, output);

  const base = {
    params,
    dimensions: available.map((d) => ({ value: d.id, label: d.label, direction: d.direction })),
    dimension: dimension
      ? { id: dimension, label: getDimension(dimension).label, isAs: getDimension(dimension).filterKind === "AS_NUMBER" }
      : null,
    requested: { start: requested.start, end: requested.end, preset: requested.preset },
    csvDelimiter: settings.csv_delimiter,
    timezone: settings.timezone || "UTC",
    scope: options.scope ?? null,
    /** Whether the form offers the Sankey view. */
    sankeyAllowed,
    /** Whether the table's rows offer 'Show in RNA' (rna-link.ts). */
    showInRna: mayShowInRna(user),
    /** Whether the aggregated table's rows offer the root-cause analysis of their value (rootcause/link.ts): never to a delegated account. */
    showRootCause: !user.isDelegated && user.permissions.includes("API_FLOWS_INTERFACES"),
    /** Whether the screen offers "Alert on this view" (app/lib/alert-link.ts): the new-rule form of /alerts, for MANAGE_ALERTS with VIEW_ALERTS. */
    showAlertOnView: user.permissions.includes("MANAGE_ALERTS") && user.permissions.includes("VIEW_ALERTS"),
    refusals,
  };
  if (!dimension) {
    return { ...base, ...NOTHING_READ, errors: [...errors, "No flow dimension is available to your account."], notices, flows: null };
  }

  // Filters the policy or the tags refuse (e.g. on a dimension locked by a delegation, or a tag deleted
  // since the link was saved) are said, even when there is nothing to query, and the views show what
  // the policy alone allows. Parse errors are shown above already, and the valid values run without them.
  let resolved = filterResolution.resolved;
  if (resolved.errors.length || resolved.refused.length) {
    errors.push(...resolved.refused.map((e) => e.message), ...resolved.errors.map((e) => e.message));
    refusals.push(...resolved.refused.map((e) => e.message));
    resolved = policyFiltersOnly(resolved);
  }

  // An empty install (no flows, possibly no operator AS yet): nothing to query.
  // Read once here and handed to every view below, which would otherwise each read it again.
  const [dataAvailable, operator] = await Promise.all([
    dataRange(services),
    operatorAsn(services).then(
      (asn) => asn,
      () => null,
    ),
  ]);
  if (operator === null) errors.push(NO_OPERATOR_AS);
  if (dataAvailable.minTimestamp === null || operator === null) return { ...base, ...NOTHING_READ, errors, notices, flows: NO_FLOWS };

  const q: ViewQuery = {
    dimension,
    context: {
      filters: resolved.filters,
      notices: resolved.notices,
      locked: resolved.locked,
      operatorAsn: operator,
      policy: resolved.policy,
    },
    ipVersion,
    scope: options.scope,
    dataRange: dataAvailable,
  };
  // The current period's table, with the timeseries when the view needs it, then the Sankey: in turn,
  // as the query limiter admits one user's reads (the reads of runFlowsQuery already run side by side).
  const flows = await runFlowsQuery(services, user, version, {
    dimension,
    start: requested.start,
    end: requested.end,
    filters: q.context,
    ipVersion,
    limit: EXPLORER_TABLE_LIMIT,
    timeseries: needs.timeseries,
    scope: options.scope,
    dataRange: dataAvailable,
    predict: needs.predict,
    now,
    leftOut: needs.leftOut,
  });
  const sankeyPart = needs.sankey
    ? await readSankey(services, user, version, q, params.dimension2, allowed, requested)
    : { sankey: null, sankeyError: null };
  notices.push(...flows.notices);
  if (needs.predict && !flows.noData && !flows.timeseries.prediction) notices.push(PREDICTION_UNAVAILABLE);
  const [comparison, labelOf] = await Promise.all([
    readComparison(services, user, version, q, flows, needs, notices),
    nameAll(
      services,
      user,
      flows.filters.map((f) => ({ dimension: f.dimension, key: f.value })),
    ),
  ]);

  const screenChart = output === "screen" && params.view === "timeseries" ? timeseriesForScreen(flows, comparison, base.timezone) : null;
  return {
    ...base,
    ...sankeyPart,
    errors,
    notices,
    flows: {
      range: flows.range,
      window: flows.window,
      table: flows.table,
      // The screen's page carries the timeseries only for a detailed table; its chart is markup (timeseriesForScreen).
      timeseries: output !== "screen" || params.table === "detailed" ? flows.timeseries : NO_FLOWS.timeseries,
      filters: flows.filters,
      noData: flows.noData,
    } as FlowsResult,
    chart: screenChart,
    total: flows.table.reduce((a, r) => a + r.bps, 0),
    comparison: comparison && output === "screen" ? { ...comparison, totals: null } : comparison,
    traffic: trafficOf([dimension], options.scope, flows.filters),
    leftOut: leftOutOf(user, flows.leftOut, getDimension(dimension).direction ?? options.scope ?? null, available, url),
    rangeNotice: flows.range && flows.window ? rangeNotice(flows.range, flows.window, base.timezone) : null,
    filterLabels: flows.filters.map((f) => filterLabel({ ...f, name: labelOf(f.dimension, f.value).name })),
    // fetchMaxTimestamp: the screen says when the newest data ends (and keeps it current with JavaScript).
    newestData:
      user.featureFlags.includes("fetchMaxTimestamp") && dataAvailable.maxTimestamp !== null
        ? dataAvailable.maxTimestamp + tableGranularity("flows_5m")
        : null,
  };
}

export type ExplorerData = Awaited<ReturnType<typeof loadExplorer>>;
