/**
 * Runs the flows SQL builder (sql.ts) on ClickHouse and shapes JSON-ready results for the
 * api/flows/, api/sankey/ and api/flows/timestamps/ endpoints.
 *
 * Security: the delegation policy (delegation-policy.server.ts) is applied to every request's
 * filters by the filter resolver (filter-resolver.server.ts); the queries here take the filters
 * it resolved.
 *
 * Nothing is cached across requests: the operator ASN (as_info.category = 'operator') and the
 * restrictions are read per call. A query may start on a guess of them (likelyFlowsContext), but
 * its result is only used when the values read for the request agree with the guess.
 */
import { z } from "zod";
import { effectiveNames, type NameViewer } from "~/features/tags/effective-names.server";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import { chQuery } from "~/server/clickhouse/query.server";
import type { Services } from "~/server/services.server";
import { getDimension, OTHERS_LABEL, type DimensionId, type Direction } from "~/features/filter/dimensions";
import { lastOperatorAsn, NO_OPERATOR_AS, operatorAsn } from "~/features/filter/operator-as.server";
import { NO_DELEGATION, type DelegationPolicy } from "~/features/filter/delegation-policy.server";
import type { FlowFilter, IpVersion } from "~/features/filter/filters";
import { applyFilterRules, resolveParsedFilters, type ParsedFilters } from "~/features/filter/filter-resolver.server";
import { dataRange, type DataRange } from "./data-range.server";
import { interfaceDescriptions } from "./interface-names.server";
import type { RequestFilter } from "~/features/filter/request-filter";
import { keyedTimeseries, keyedTopTable, leftOutTotals, sankey } from "./sql";
import { interfaceLabel, valueLabel } from "~/features/filter/value-labels";
import { clampToData, type ClampResult } from "~/lib/time-range";
import { alignRange, defaultWindow, tableForWindow, tableGranularity, type AggregationWindow } from "./aggregation-window";

type Stores = Pick<Services, "pg" | "ch">;

export type { DataRange, RequestFilter };

export type FlowsContext = {
  filters: FlowFilter[];
  notices: string[];
  operatorAsn: number;
  locked: DimensionId[];
  /** The delegation policy the filters were resolved with: which dimensions the request may use. */
  policy: DelegationPolicy;
};

export const DEFAULT_TIMESERIES_TOP_N = 10;
export const MAX_BUCKETS = 20_000;

const badRequest = (detail: string, errors: { field: string; message: string }[]) => new ApiProblem(400, { detail, errors });

export { NO_OPERATOR_AS, operatorAsn };

/**
 * The flows context of an API request: its parsed filters resolved once (filter-resolver.server.ts)
 * with the operator AS; invalid filters are the API's 400, naming each field.
 */
export async function apiFlowsContext(stores: Stores, user: UserContext, parsed: ParsedFilters): Promise<FlowsContext> {
  // Started now, awaited at the end: it does not depend on the filters.
  const operator = operatorAsn(stores);
  operator.catch(() => undefined); // a refusal below must not leave an unhandled rejection behind
  const resolved = await resolveParsedFilters(stores, user, parsed);
  if (resolved.refused.length) {
    throw new ApiProblem(403, {
      detail: resolved.refused[0].message,
      exception_code: "permission_denied",
      errors: resolved.refused,
    });
  }
  if (resolved.errors.length) throw badRequest("Invalid filters.", resolved.errors);
  return {
    filters: resolved.filters,
    notices: resolved.notices,
    operatorAsn: await operator,
    locked: resolved.locked,
    policy: resolved.policy,
  };
}

/**
 * What apiFlowsContext most likely returns, known before PostgreSQL answers, so a query can start
 * at once: the parsed filters as they resolve for a user without restrictions, with the operator
 * AS last read. Null when a guess would likely be wasted (a delegated user, a tag reference, an
 * invalid filter, no operator AS read yet). The caller uses a result computed from the guess only
 * when apiFlowsContext then agrees with it (sameFlowsContext): every request is still checked
 * against its user's restrictions as read for it.
 */
export function likelyFlowsContext(
  stores: Stores,
  user: UserContext,
  parsed: ParsedFilters,
): Pick<FlowsContext, "filters" | "operatorAsn"> | null {
  const operator = lastOperatorAsn(stores);
  if (operator === undefined || user.isDelegated || parsed.errors.length) return null;
  // Without the tags, a tag reference is an error here: no guess then.
  const applied = applyFilterRules(parsed, NO_DELEGATION, new Map());
  return applied.errors.length ? null : { filters: applied.filters, operatorAsn: operator };
}

/** Whether two resolutions select the same rows (same filters in the same order, same operator AS). */
export function sameFlowsContext(
  a: Pick<FlowsContext, "filters" | "operatorAsn">,
  b: Pick<FlowsContext, "filters" | "operatorAsn">,
): boolean {
  return a.operatorAsn === b.operatorAsn && JSON.stringify(a.filters) === JSON.stringify(b.filters);
}

export type ResolvedRange = ClampResult & { requested: { start: number; end: number } };

/** Clamps the requested range to the data ([min bucket, max bucket + 5 min)); null when there is no data. */
export async function resolveRange(stores: Stores, start: number, end: number, known?: DataRange): Promise<ResolvedRange | null> {
  // A caller that already read the data's range for this request (a screen with several views) passes it.
  const data = known ?? (await dataRange(stores));
  if (data.minTimestamp === null || data.maxTimestamp === null) return null;
  const clamped = clampToData({ start, end }, data.minTimestamp, data.maxTimestamp + tableGranularity("flows_5m"));
  return { ...clamped, requested: { start, end } };
}

// ---------------------------------------------------------------------------------------------------------------
// Names

/** How a value of a dimension reads: its name, and its mapped colour where a mapping gives one (else null: the chart's own). */
export type KeyLabel = { name: string; color: string | null };

/**
 * Names of the keys of one dimension (value-labels.ts) as the viewer reads them: ASes,
 * applications and infrastructures by their effective mapping (features/tags/effective-names:
 * the layers read once per request, registry names of ASes in one batched query), interfaces
 * with the inventory's description, the rest without a lookup.
 */
export async function labelKeys(
  stores: Stores,
  viewer: NameViewer,
  dimension: DimensionId,
  keys: readonly string[],
): Promise<Map<string, KeyLabel>> {
  const labels = new Map<string, KeyLabel>();
  const kind = getDimension(dimension).filterKind;
  if (kind === "INTERFACE" || kind === "INTERNAL_LINK") {
    const descriptions = await interfaceDescriptions(stores, keys);
    for (const k of keys) labels.set(k, { name: k === OTHERS_LABEL ? k : interfaceLabel(k, descriptions.get(k)), color: null });
    return labels;
  }
  if (kind !== "AS_NUMBER" && kind !== "APPLICATION" && kind !== "INFRASTRUCTURE") {
    for (const k of keys) labels.set(k, { name: valueLabel(dimension, k), color: null });
    return labels;
  }
  const names = await effectiveNames(stores, viewer);
  if (kind !== "AS_NUMBER") {
    const model = kind === "APPLICATION" ? "Application" : "Infrastructure";
    // The empty value ("Not mapped") and the folded rest are no application: no mapping names them.
    for (const k of keys) {
      const mapped = k.trim() === "" || k === OTHERS_LABEL ? null : names.service(model, k);
      labels.set(k, { name: mapped?.name ?? valueLabel(dimension, k), color: mapped?.color ?? null });
    }
    return labels;
  }
  const ases = await names.ases(keys);
  for (const k of keys) {
    const as = ases.get(k);
    // A layer may rename a special value (Others …) too; without a name it reads as valueLabel says ("AS64500", "Others").
    labels.set(k, { name: as?.name ?? valueLabel(dimension, k), color: as?.color ?? null });
  }
  return labels;
}

/** Names only (see labelKeys). */
export async function nameKeys(
  stores: Stores,
  viewer: NameViewer,
  dimension: DimensionId,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const labels = await labelKeys(stores, viewer, dimension, keys);
  return new Map([...labels].map(([k, l]) => [k, l.name]));
}

/** Names for several dimensions' keys, one lookup per dimension kind. */
export async function nameAll(
  stores: Stores,
  viewer: NameViewer,
  keys: readonly { dimension: DimensionId; key: string }[],
): Promise<(dimension: DimensionId, key: string) => KeyLabel> {
  const byDimension = new Map<DimensionId, string[]>();
  for (const k of keys) byDimension.set(k.dimension, [...(byDimension.get(k.dimension) ?? []), k.key]);
  // Every AS dimension names the same ASes: one lookup for all of them.
  const asKeys = keys.filter((k) => getDimension(k.dimension).filterKind === "AS_NUMBER").map((k) => k.key);
  const others = [...byDimension].filter(([d]) => getDimension(d).filterKind !== "AS_NUMBER");
  const [asLabels, ...otherLabels] = await Promise.all([
    labelKeys(stores, viewer, "AS_SRC_INGRESS", asKeys),
    ...others.map(([d, list]) => labelKeys(stores, viewer, d, list)),
  ]);
  const labelled = new Map(others.map(([d], i) => [d, otherLabels[i]]));
  return (dimension, key) =>
    (getDimension(dimension).filterKind === "AS_NUMBER" ? asLabels.get(key) : labelled.get(dimension)?.get(key)) ?? {
      name: valueLabel(dimension, key),
      color: null,
    };
}

// ---------------------------------------------------------------------------------------------------------------
// Queries

export type QueryBase = {
  range: { start: number; end: number };
  filters: readonly FlowFilter[];
  operatorAsn: number;
  ipVersion: IpVersion;
  scope?: Direction;
};

export type TableRow = { key: string; name: string; bps: number; bytes: string };

/** The top table of one dimension over the range (bit/s of the whole range). */
export async function flowTable(
  stores: Stores,
  viewer: NameViewer,
  dimension: DimensionId,
  q: QueryBase & { window: AggregationWindow; limit?: number },
): Promise<TableRow[]> {
  const table = tableForWindow(q.window);
  const range = alignRange(q.range, table);
  const built = keyedTopTable(dimension, {
    range,
    filters: q.filters,
    operatorAsn: q.operatorAsn,
    ipVersion: q.ipVersion,
    scope: q.scope,
    table,
    limit: q.limit,
  });
  const rows = await chQuery(stores.ch, { ...built, schema: z.object({ k: z.string(), bps: z.number(), b: z.string() }) });
  const names = await nameKeys(
    stores,
    viewer,
    dimension,
    rows.map((r) => String(r.k)),
  );
  return rows.map((r) => ({ key: String(r.k), name: names.get(String(r.k)) ?? String(r.k), bps: Number(r.bps), bytes: String(r.b) }));
}

/** What a view with a direction leaves out (sql.ts leftOutTotals), in bit/s of the range as its table computes them. */
export type LeftOut = { bps: number; fromNeighboursBps: number; fromAccessBps: number };

/**
 * The traffic of the range and filters that the view of `dimension` (and the scope) does not count,
 * over the same table and aligned range as its table (flowTable); null for a view without a
 * direction, which counts all of it.
 */
export async function flowLeftOut(
  stores: Stores,
  dimension: DimensionId,
  q: QueryBase & { window: AggregationWindow },
): Promise<LeftOut | null> {
  if (!getDimension(dimension).direction && !q.scope) return null;
  const table = tableForWindow(q.window);
  const built = leftOutTotals([dimension], {
    range: alignRange(q.range, table),
    filters: q.filters,
    operatorAsn: q.operatorAsn,
    ipVersion: q.ipVersion,
    scope: q.scope,
    table,
  });
  const [row] = await chQuery(stores.ch, {
    ...built,
    schema: z.object({ left_out_bps: z.number(), from_neighbours_bps: z.number(), from_access_bps: z.number() }),
  });
  return {
    bps: Number(row?.left_out_bps ?? 0),
    fromNeighboursBps: Number(row?.from_neighbours_bps ?? 0),
    fromAccessBps: Number(row?.from_access_bps ?? 0),
  };
}

/** `color`: the value's mapped colour (null: the chart's palette). */
export type TimeseriesSeries = { key: string; name: string; color: string | null; values: number[] };
export type Timeseries = { buckets: number[]; series: TimeseriesSeries[] };

/** Bit/s per bucket of `window` for the top N values of the dimension (rest: Others), zeros filled in. */
export async function flowTimeseries(
  stores: Stores,
  viewer: NameViewer,
  dimension: DimensionId,
  q: QueryBase & { window: AggregationWindow; topN?: number },
): Promise<Timeseries> {
  const table = tableForWindow(q.window);
  const range = alignRange(q.range, table);
  const built = keyedTimeseries(dimension, {
    range,
    filters: q.filters,
    operatorAsn: q.operatorAsn,
    ipVersion: q.ipVersion,
    scope: q.scope,
    table,
    window: q.window,
    topN: q.topN ?? DEFAULT_TIMESERIES_TOP_N,
  });
  const rows = await chQuery(stores.ch, { ...built, schema: z.object({ b: z.number(), v: z.string(), bps: z.number() }) });
  const first = Math.floor(range.start / q.window) * q.window;
  const buckets: number[] = [];
  for (let t = first; t < range.end; t += q.window) buckets.push(t);
  const index = new Map(buckets.map((b, i) => [b, i]));
  const byKey = new Map<string, number[]>();
  for (const r of rows) {
    const i = index.get(Number(r.b));
    if (i === undefined) continue;
    const values = byKey.get(r.v) ?? buckets.map(() => 0);
    values[i] += Number(r.bps);
    byKey.set(r.v, values);
  }
  const labels = await labelKeys(stores, viewer, dimension, [...byKey.keys()]);
  const others = String(getDimension(dimension).valueType === "Int64" ? -101 : OTHERS_LABEL);
  const total = (v: number[]) => v.reduce((a, b) => a + b, 0);
  const series = [...byKey]
    .map(([key, values]) => ({ key, name: labels.get(key)?.name ?? key, color: labels.get(key)?.color ?? null, values }))
    .sort((a, b) => (a.key === others ? 1 : b.key === others ? -1 : total(b.values) - total(a.values) || a.key.localeCompare(b.key)));
  return { buckets, series };
}

export type SankeyNode = { id: string; dimension: DimensionId; key: string; name: string; color: string | null };
export type SankeyLink = { source: string; target: string; value: number };

/**
 * A sankey of ≥ 2 distinct dimensions: nodes are (dimension, key); links only go from the column
 * of dimension i to the column of dimension i + 1, so the graph is layered and cannot have a cycle.
 */
export async function flowSankey(
  stores: Stores,
  viewer: NameViewer,
  dimensions: readonly DimensionId[],
  q: QueryBase & { topN?: number },
): Promise<{ nodes: SankeyNode[]; links: SankeyLink[]; table: string }> {
  if (new Set(dimensions).size !== dimensions.length) throw new Error("Sankey dimensions must be distinct");
  const table = tableForWindow(defaultWindow(q.range));
  const range = alignRange(q.range, table);
  const built = sankey(dimensions, {
    range,
    filters: q.filters,
    operatorAsn: q.operatorAsn,
    ipVersion: q.ipVersion,
    scope: q.scope,
    table,
    topN: q.topN,
  });
  const rows = await chQuery(stores.ch, {
    ...built,
    schema: z.object({ step: z.number(), source: z.string(), target: z.string(), bps: z.number() }),
  });
  const id = (dimension: DimensionId, key: string) => `${dimension}:${key}`;
  const seen = new Map<string, { dimension: DimensionId; key: string; column: number }>();
  const links: SankeyLink[] = [];
  for (const r of rows) {
    const step = Number(r.step);
    const from = dimensions[step];
    const to = dimensions[step + 1];
    const value = Number(r.bps);
    if (!(value > 0)) continue;
    seen.set(id(from, r.source), { dimension: from, key: r.source, column: step });
    seen.set(id(to, r.target), { dimension: to, key: r.target, column: step + 1 });
    links.push({ source: id(from, r.source), target: id(to, r.target), value });
  }
  const labelOf = await nameAll(stores, viewer, [...seen.values()]);
  const nodes = [...seen]
    .sort((a, b) => a[1].column - b[1].column)
    .map(([nodeId, n]) => ({ id: nodeId, dimension: n.dimension, key: n.key, ...labelOf(n.dimension, n.key) }));
  return { nodes, links, table };
}
