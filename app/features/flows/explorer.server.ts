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
import { filterParamsToRequest, notApplied, parseExplorerParams, requestedRange, unappliedParams } from "./params";
import { rangeNotice } from "./range-notice";
import { PRESET_LABELS } from "~/lib/time-range";
import { filterLabel } from "~/features/filter/value-labels";
import { runFlowsQuery, runSankeyQuery } from "./query.server";
import { PREDICTION_UNAVAILABLE } from "./prediction.server";
import { dataRange } from "./data-range.server";
import { tableGranularity } from "./aggregation-window";
import { nameAll, NO_OPERATOR_AS, operatorAsn, type FlowsContext, type LeftOut } from "./service.server";
import { describePermission } from "~/lib/permission-catalogue";
import { findToolRoute, mayOpen } from "~/lib/routes";
import { mayShowInRna } from "./rna-link";
import { formatBitsPerSecond } from "~/lib/units";

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

export type ExplorerOptions = {
  now?: number;
  tableOnly?: boolean;
  /** The AS Flows Egress screen: egress traffic only, and only dimensions without an ingress direction. */
  scope?: Direction;
};

/** Dimensions a screen of the given scope offers (all the user may use when unscoped). */
export function scopedDimensions(permissions: readonly string[], version: number, scope?: Direction) {
  return availableDimensions(permissions, version).filter((d) => !scope || d.direction === null || d.direction === scope);
}

export async function loadExplorer(services: Services, user: UserContext, url: URL, options: ExplorerOptions = {}) {
  const params = { ...parseExplorerParams(url.searchParams) };
  const version = MAX_API_VERSION;
  const notices: string[] = [];
  const errors: string[] = [];
  /** What the delegation policy refused (also in `errors`): the exports answer them with a 403. */
  const refusals: string[] = [];
  // The delegation policy first: a delegated user's screen offers only the restricted dimension and
  // its output, and opens on the output (the restricted dimension as the Sankey's second).
  let policy: DelegationPolicy;
  try {
    policy = await loadDelegationPolicy(services, user);
  } catch (e) {
    if (!(e instanceof ApiProblem)) throw e;
    policy = UNUSABLE_POLICY;
    errors.push(e.body.detail);
    refusals.push(e.body.detail);
  }
  const permitted = scopedDimensions(user.permissions, version, options.scope);
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
      : options.scope === "EGRESS"
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
    if (!options.tableOnly) refusals.push(SANKEY_NEEDS_PERMISSION);
    params.view = "timeseries";
  }
  errors.push(...filterResolution.parseErrors.map((e) => e.message));

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
    refusals,
  };
  if (!dimension) {
    return {
      ...base,
      errors: [...errors, "No flow dimension is available to your account."],
      notices,
      flows: null,
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
  if (dataAvailable.minTimestamp === null || operator === null) {
    const empty = {
      range: null,
      window: null,
      table: [],
      timeseries: { buckets: [], series: [], complete: [] },
      filters: [],
      noData: true as const,
    };
    return {
      ...base,
      errors,
      notices,
      flows: empty as FlowsResult,
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
  }

  const context: FlowsContext = {
    filters: resolved.filters,
    notices: resolved.notices,
    locked: resolved.locked,
    operatorAsn: operator,
    policy: resolved.policy,
  };
  // The prediction belongs to the timeseries chart: neither the table nor the Sankey has one.
  const predict = params.predict && !options.tableOnly && params.view === "timeseries";
  const flows = await runFlowsQuery(services, user, version, {
    dimension,
    start: requested.start,
    end: requested.end,
    filters: context,
    ipVersion,
    limit: EXPLORER_TABLE_LIMIT,
    // The detailed table is made of the timeseries, whatever the chart.
    timeseries: (!options.tableOnly && params.view === "timeseries") || params.table === "detailed",
    scope: options.scope,
    dataRange: dataAvailable,
    predict,
    now,
    // What the view leaves out is said next to the total on the screen; an export has no place for it.
    leftOut: !options.tableOnly,
  });
  notices.push(...flows.notices);
  if (predict && !flows.noData && !flows.timeseries.prediction) notices.push(PREDICTION_UNAVAILABLE);
  const total = flows.table.reduce((a, r) => a + r.bps, 0);

  let comparison: Comparison | null = null;
  const overlay = !options.tableOnly && params.view === "timeseries";
  const [previous, labelOf] = await Promise.all([
    params.compare && flows.range && flows.window
      ? previousPeriodTable(services, user, version, {
          dimension,
          range: flows.range,
          window: flows.window,
          context,
          ipVersion,
          scope: options.scope,
          limit: EXPLORER_TABLE_LIMIT,
          dataRange: dataAvailable,
          totals: overlay,
        })
      : null,
    nameAll(
      services,
      user,
      flows.filters.map((f) => ({ dimension: f.dimension, key: f.value })),
    ),
  ]);
  if (previous) {
    if (!previous.covered) notices.push(PREVIOUS_PERIOD_UNCOVERED);
    comparison = {
      range: previous.range,
      total: compareTotals(flows.table, previous.table),
      rows: compareRows(flows.table, previous.table),
      totals: previous.totals,
    };
  }

  let sankey: Awaited<ReturnType<typeof runSankeyQuery>> | null = null;
  let sankeyError: string | null = null;
  if (!options.tableOnly && params.view === "sankey") {
    if (!params.dimension2 || !allowed.has(params.dimension2)) sankeyError = SANKEY_NEEDS_TWO;
    else if (params.dimension2 === dimension) sankeyError = "The two dimensions of the sankey chart must be different.";
    else {
      try {
        sankey = await runSankeyQuery(services, user, version, {
          dimensions: [dimension, params.dimension2],
          start: requested.start,
          end: requested.end,
          filters: context,
          ipVersion,
          scope: options.scope,
          dataRange: dataAvailable,
        });
      } catch (e) {
        // The chart's own refusals (e.g. ingress and egress dimensions in one chart); the filters were resolved above.
        if (!(e instanceof ApiProblem) || e.status !== 400) throw e;
        sankeyError = problemMessages(e).join(" ");
      }
    }
  }

  return {
    ...base,
    errors,
    notices,
    flows: {
      range: flows.range,
      window: flows.window,
      table: flows.table,
      timeseries: flows.timeseries,
      filters: flows.filters,
      noData: flows.noData,
    } as FlowsResult,
    sankey: sankey ? { nodes: sankey.nodes, links: sankey.links } : null,
    sankeyError,
    total,
    comparison,
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
