/**
 * Runs the flows SQL builder (sql.ts) on ClickHouse and shapes JSON-ready results for the
 * api/flows/, api/sankey/ and api/flows/timestamps/ endpoints.
 *
 * Security: a user's delegation restrictions (delegation_restrictions.flows_views_restrictions)
 * are read from PostgreSQL on every request and become forced, locked filters, whatever the
 * request says. A request filter on a locked dimension is only accepted when it repeats one of
 * the constrained values positively (a no-op); anything else is a 400. A restriction that cannot
 * be applied (unknown dimension, no valid value) refuses the request (403) instead of widening it.
 *
 * Nothing is cached across requests: the operator ASN (as_info.category = 'operator') and the
 * restrictions are read per call. A query may start on a guess of them (likelyFlowsContext), but
 * its result is only used when the values read for the request agree with the guess.
 */
import { eq, inArray } from "drizzle-orm";
import { asInfo, delegationRestrictions } from "~db/postgres/schema";
import { expandTagFilter, loadFilterTags, type FilterTags } from "~/features/tags/tag-filters.server";
import { SPECIAL_AS_VALUES } from "~/lib/special-as";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import { chQuery } from "~/server/clickhouse/query.server";
import type { Services } from "~/server/services.server";
import { availableDimensions, getDimension, isDimensionId, OTHERS_LABEL, type DimensionId, type Direction } from "./dimensions";
import {
  addFilter,
  lockedDimensions,
  parseFilterValue,
  restrictionFilters,
  type FlowFilter,
  type FlowsRestriction,
  type IpVersion,
} from "./filters";
import { dataRange, type DataRange } from "./data-range.server";
import { interfaceDescriptions } from "./interface-names.server";
import type { RequestFilter } from "./service.types";
import { keyedTimeseries, keyedTopTable, sankey } from "./sql";
import { interfaceLabel, valueLabel } from "./value-labels";
import { alignRange, clampToData, defaultWindow, tableForWindow, tableGranularity, type AggregationWindow, type ClampResult } from "./time";

type Stores = Pick<Services, "pg" | "ch">;

export type { DataRange, RequestFilter };

export type FlowsContext = {
  filters: FlowFilter[];
  notices: string[];
  operatorAsn: number;
  locked: DimensionId[];
};

export const DEFAULT_TIMESERIES_TOP_N = 10;
export const MAX_BUCKETS = 20_000;

const badRequest = (detail: string, errors: { field: string; message: string }[]) => new ApiProblem(400, { detail, errors });

/** The operator's own AS number (as_info with category 'operator'), read per request. */
export async function operatorAsn(stores: Stores): Promise<number> {
  const rows = await stores.pg.db
    .select({ asn: asInfo.asn })
    .from(asInfo)
    .where(eq(asInfo.category, "operator"))
    .orderBy(asInfo.asn)
    .limit(1);
  if (!rows.length) throw new Error("No operator AS (as_info.category = 'operator') is configured");
  const asn = Number(rows[0].asn);
  lastOperatorAsn.set(stores.pg, asn);
  return asn;
}

/** The operator AS each store last answered: only a guess to start work early (likelyFlowsContext). */
const lastOperatorAsn = new WeakMap<object, number>();

/** The user's flows restrictions (any user with a delegation_restrictions row). */
export async function userRestrictions(stores: Stores, user: UserContext): Promise<FlowsRestriction[]> {
  const rows = await stores.pg.db
    .select({ flows: delegationRestrictions.flowsViewsRestrictions })
    .from(delegationRestrictions)
    .where(eq(delegationRestrictions.userId, user.id));
  return rows.flatMap((r) => r.flows ?? []);
}

/** Checks that the user may use a dimension in this API version; a 400 naming `field` otherwise. */
export function requireDimension(user: UserContext, version: number, dimension: string, field: string): DimensionId {
  if (!isDimensionId(dimension)) throw badRequest("Invalid request body.", [{ field, message: `Unknown dimension ${dimension}.` }]);
  if (!availableDimensions(user.permissions, version).some((d) => d.id === dimension)) {
    throw badRequest("Invalid request body.", [
      { field, message: `The dimension ${dimension} is not available to you (permission or API version ${version}).` },
    ]);
  }
  return dimension;
}

/**
 * The filters to run with: the restrictions' locked filters first, then the request's filters
 * (negation rule of filters.ts). Errors name the field (`filters.0.values.1`). A tag or tag group
 * (`#12`, `#g3`) is expanded to its values first; each of them then meets the same rules, locks
 * included, as a value written out.
 */
export async function resolveFilters(
  stores: Stores,
  user: UserContext,
  version: number,
  requested: readonly RequestFilter[],
): Promise<FlowsContext> {
  // Started now, awaited at the end: it does not depend on the filters.
  const operator = operatorAsn(stores);
  operator.catch(() => undefined); // a refusal below must not leave an unhandled rejection behind
  const restrictions = await userRestrictions(stores, user);
  for (const r of restrictions) {
    const applied = restrictionFilters([r]);
    if (!isDimensionId(r.dimension) || !applied.length) {
      throw new ApiProblem(403, {
        detail: "Your account's flow restrictions cannot be applied; please contact your operator.",
        exception_code: "permission_denied",
      });
    }
  }
  const tags = await loadFilterTags(stores.pg.db, user, requested);
  const applied = applyRequestFilters(user, version, requested, restrictions, tags);
  if (applied.errors.length) throw badRequest("Invalid filters.", applied.errors);
  return { filters: applied.filters, notices: applied.notices, operatorAsn: await operator, locked: applied.locked };
}

/** The rules of resolveFilters once the restrictions and the named tags are known (no I/O). */
function applyRequestFilters(
  user: UserContext,
  version: number,
  requested: readonly RequestFilter[],
  restrictions: readonly FlowsRestriction[],
  tags: FilterTags,
): { filters: FlowFilter[]; notices: string[]; errors: { field: string; message: string }[]; locked: DimensionId[] } {
  const locked = lockedDimensions(restrictions);
  let filters = restrictionFilters(restrictions);
  const notices: string[] = [];
  const errors: { field: string; message: string }[] = [];
  requested.forEach((rf, i) => {
    let dimension: DimensionId;
    try {
      dimension = requireDimension(user, version, rf.dimension, `filters.${i}.dimension`);
    } catch (e) {
      if (e instanceof ApiProblem) errors.push(...(e.body.errors ?? []));
      return;
    }
    rf.values.forEach((raw, j) => {
      const field = `filters.${i}.values.${j}`;
      const parsed = parseFilterValue(dimension, raw);
      if ("error" in parsed) {
        errors.push({ field, message: parsed.error });
        return;
      }
      const expanded = expandTagFilter(tags, parsed.filter);
      if ("error" in expanded) {
        errors.push({ field, message: expanded.error });
        return;
      }
      if (locked.has(dimension)) {
        const allowed = filters.filter((f) => f.locked && f.dimension === dimension);
        if (expanded.filters.some((x) => x.isNegation || !allowed.some((f) => f.value === x.value))) {
          const values = allowed.map((f) => valueLabel(dimension, f.value)).join(", ");
          errors.push({
            field,
            message: `${getDimension(dimension).label} is restricted for your account to ${values}; this filter cannot be changed.`,
          });
        }
        return; // a repeat of a constrained value: already applied
      }
      for (const filter of expanded.filters) {
        const added = addFilter(filters, filter, locked);
        filters = added.filters;
        if (added.notice) notices.push(added.notice);
      }
    });
  });
  return { filters, notices, errors, locked: [...locked] };
}

/**
 * What resolveFilters most likely returns, known before PostgreSQL answers, so a query can start
 * at once: the request's filters as they resolve for a user without restrictions, with the operator
 * AS last read. Null when a guess would likely be wasted (a delegated user, a tag reference, an
 * invalid filter, no operator AS read yet). The caller uses a result computed from the guess only
 * when resolveFilters then agrees with it (sameFlowsContext): every request is still checked
 * against its user's restrictions as read for it.
 */
export function likelyFlowsContext(
  stores: Stores,
  user: UserContext,
  version: number,
  requested: readonly RequestFilter[],
): Pick<FlowsContext, "filters" | "operatorAsn"> | null {
  const operator = lastOperatorAsn.get(stores.pg);
  if (operator === undefined || user.isDelegated) return null;
  // Without the tags, a tag reference is an error here: no guess then.
  const applied = applyRequestFilters(user, version, requested, [], new Map());
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

const SPECIAL_NAMES = new Map<number, string>(SPECIAL_AS_VALUES.map((s) => [s.asn, s.name]));

/**
 * Display names of the keys of one dimension (value-labels.ts): AS numbers from as_info in one
 * batched query, interfaces with the inventory's description, the rest without a lookup.
 */
export async function nameKeys(stores: Stores, dimension: DimensionId, keys: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const def = getDimension(dimension);
  if (def.filterKind === "INTERFACE" || def.filterKind === "INTERNAL_LINK") {
    const descriptions = await interfaceDescriptions(stores, keys);
    for (const k of keys) names.set(k, k === OTHERS_LABEL ? k : interfaceLabel(k, descriptions.get(k)));
    return names;
  }
  if (def.filterKind !== "AS_NUMBER") {
    for (const k of keys) names.set(k, valueLabel(dimension, k));
    return names;
  }
  const asns = [...new Set(keys.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0))];
  const rows = asns.length
    ? await stores.pg.db.select({ asn: asInfo.asn, name: asInfo.name }).from(asInfo).where(inArray(asInfo.asn, asns))
    : [];
  const known = new Map(rows.map((r) => [Number(r.asn), r.name]));
  for (const k of keys) {
    const n = Number(k);
    names.set(k, SPECIAL_NAMES.get(n) ?? known.get(n) ?? `AS${k}`);
  }
  return names;
}

/** Names for several dimensions' keys, one lookup per dimension kind. */
export async function nameAll(
  stores: Stores,
  keys: readonly { dimension: DimensionId; key: string }[],
): Promise<(dimension: DimensionId, key: string) => string> {
  const byDimension = new Map<DimensionId, string[]>();
  for (const k of keys) byDimension.set(k.dimension, [...(byDimension.get(k.dimension) ?? []), k.key]);
  // Every AS dimension reads the same as_info: one query for all of them.
  const asKeys = keys.filter((k) => getDimension(k.dimension).filterKind === "AS_NUMBER").map((k) => k.key);
  const others = [...byDimension].filter(([d]) => getDimension(d).filterKind !== "AS_NUMBER");
  const [asNames, ...otherNames] = await Promise.all([
    nameKeys(stores, "AS_SRC_INGRESS", asKeys),
    ...others.map(([d, list]) => nameKeys(stores, d, list)),
  ]);
  const named = new Map(others.map(([d], i) => [d, otherNames[i]]));
  return (dimension, key) =>
    (getDimension(dimension).filterKind === "AS_NUMBER" ? asNames.get(key) : named.get(dimension)?.get(key)) ?? valueLabel(dimension, key);
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
  const rows = await chQuery<{ k: string; bps: number; b: string }>(stores.ch, built);
  const names = await nameKeys(
    stores,
    dimension,
    rows.map((r) => String(r.k)),
  );
  return rows.map((r) => ({ key: String(r.k), name: names.get(String(r.k)) ?? String(r.k), bps: Number(r.bps), bytes: String(r.b) }));
}

export type Timeseries = { buckets: number[]; series: { key: string; name: string; values: number[] }[] };

/** Bit/s per bucket of `window` for the top N values of the dimension (rest: Others), zeros filled in. */
export async function flowTimeseries(
  stores: Stores,
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
  const rows = await chQuery<{ b: number | string; v: string; bps: number }>(stores.ch, built);
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
  const names = await nameKeys(stores, dimension, [...byKey.keys()]);
  const others = String(getDimension(dimension).valueType === "Int64" ? -101 : OTHERS_LABEL);
  const total = (v: number[]) => v.reduce((a, b) => a + b, 0);
  const series = [...byKey]
    .map(([key, values]) => ({ key, name: names.get(key) ?? key, values }))
    .sort((a, b) => (a.key === others ? 1 : b.key === others ? -1 : total(b.values) - total(a.values) || a.key.localeCompare(b.key)));
  return { buckets, series };
}

export type SankeyNode = { id: string; dimension: DimensionId; key: string; name: string };
export type SankeyLink = { source: string; target: string; value: number };

/**
 * A sankey of ≥ 2 distinct dimensions: nodes are (dimension, key); links only go from the column
 * of dimension i to the column of dimension i + 1, so the graph is layered and cannot have a cycle.
 */
export async function flowSankey(
  stores: Stores,
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
  const rows = await chQuery<{ step: number | string; source: string; target: string; bps: number }>(stores.ch, built);
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
  const namer = await nameAll(stores, [...seen.values()]);
  const nodes = [...seen]
    .sort((a, b) => a[1].column - b[1].column)
    .map(([nodeId, n]) => ({ id: nodeId, dimension: n.dimension, key: n.key, name: namer(n.dimension, n.key) }));
  return { nodes, links, table };
}
