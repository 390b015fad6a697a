/**
 * The filters of a query over the raw flow records (flows_raw): the Flow Explorer's dimension
 * filters, resolved as everywhere (filter-resolver.server.ts: parse, tags, the delegation policy's
 * locks, negation), beside the raw-record kinds of raw-filters.ts (DST_PREFIX, AS_DST, NEXT_HOP,
 * EXPORTER …), and the WHERE conditions of both. Errors name the request's fields
 * (`filters.2.values.0`) in the request's order.
 *
 * The raw-record kinds only narrow what the dimension filters and the policy's locked filters
 * select (every condition is ANDed), so the policy needs no rule for them.
 */
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import type { DelegationPolicy } from "./delegation-policy.server";
import { availableDimensions } from "./dimensions";
import { apiWording, parseRequestFilters, resolveParsedFilters, type FilterError, type ResolvedFilters } from "./filter-resolver.server";
import { dimensionFilterConditions } from "./flow-filter-sql";
import { isRawFilterKind, parseRawFilterValue, rawFilterConditions, type RawFilter } from "./raw-filters";
import type { RequestFilter } from "./request-filter";

export type RawRecordFilters = {
  /** The dimension filters as resolved, the policy's locked ones first. */
  resolved: ResolvedFilters;
  raw: RawFilter[];
  /** Values that do not parse, tags that do not resolve, locked dimensions changed: a 400. */
  errors: FilterError[];
  /** Dimensions the delegation policy does not allow: a 403. */
  refused: FilterError[];
};

/** Parses and resolves the request's filters for a user (API texts of `version`). */
export async function resolveRawRecordFilters(
  stores: Pick<Services, "pg">,
  user: Pick<UserContext, "id" | "isDelegated" | "permissions">,
  requested: readonly RequestFilter[],
  options: { version: number; policy?: DelegationPolicy },
): Promise<RawRecordFilters> {
  const allowed = new Set<string>(availableDimensions(user.permissions, options.version).map((d) => d.id));
  // Raw kinds stand in the list as filters without values, which the dimension parser skips; their indices stay.
  const dimensionPart = requested.map((f) => (isRawFilterKind(f.dimension) ? { dimension: f.dimension, values: [] } : f));
  const parsed = parseRequestFilters(dimensionPart, allowed, apiWording(options.version));
  parsed.errors = parsed.errors.filter((e) => !isRawFilterKind(requested[e.at[0]].dimension));
  const raw: RawFilter[] = [];
  const rawErrors: { at: readonly [number, number]; field: string; message: string }[] = [];
  requested.forEach((f, i) => {
    if (!isRawFilterKind(f.dimension)) return;
    const kind = f.dimension;
    if (!f.values.length) rawErrors.push({ at: [i, -1], field: `filters.${i}.values`, message: "At least one value is needed." });
    f.values.forEach((value, j) => {
      const one = parseRawFilterValue(kind, value);
      if ("error" in one) rawErrors.push({ at: [i, j], field: `filters.${i}.values.${j}`, message: one.error });
      else if (
        !raw.some(
          (r) =>
            r.kind === one.filter.kind &&
            r.value === one.filter.value &&
            r.vrf === one.filter.vrf &&
            r.isNegation === one.filter.isNegation,
        )
      )
        raw.push(one.filter);
    });
  });
  const resolved = await resolveParsedFilters(stores, user, parsed, options.policy);
  const position = new Map(resolved.errors.map((e, i) => [e, i]));
  const located = [
    ...resolved.errors.map((e) => ({ ...e, at: locate(e.field, position.get(e) ?? 0) })),
    ...rawErrors.map((e) => ({ field: e.field, message: e.message, at: e.at })),
  ].sort((a, b) => a.at[0] - b.at[0] || a.at[1] - b.at[1]);
  return { resolved, raw, errors: located.map(({ field, message }) => ({ field, message })), refused: resolved.refused };
}

/** Where `filters.i.values.j` (or `filters.i.dimension`) stands in the request. */
function locate(field: string, fallback: number): readonly [number, number] {
  const m = /^filters\.(\d+)\.(?:values\.(\d+)|dimension)$/.exec(field);
  return m ? [Number(m[1]), m[2] === undefined ? -1 : Number(m[2])] : [fallback, 0];
}

/**
 * The WHERE conditions of the filters over flows_raw (which carries every dimension column of the
 * aggregates under the same names), with `usesOperator` when a directed filter needs `operatorAsn`.
 */
export function rawRecordConditions(filters: Pick<RawRecordFilters, "resolved" | "raw">): {
  conds: string[];
  params: Record<string, unknown>;
  usesOperator: boolean;
} {
  const dimensions = dimensionFilterConditions(filters.resolved.filters);
  const raw = rawFilterConditions(filters.raw);
  return {
    conds: [...dimensions.conds, ...raw.conds],
    params: { ...dimensions.params, ...raw.params },
    usesOperator: dimensions.usesOperator,
  };
}
