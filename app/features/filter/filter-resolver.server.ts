/**
 * The one way a request's flow filters become the filters a query runs with, once per request.
 * Never throws for bad input: errors come back as messages naming the field (`filters.0.values.1`),
 * and each caller decides — the API answers them with a 400, the screens show them.
 *
 * Two steps, so a screen can show parse errors before it reads anything:
 * 1. parseRequestFilters (pure): each value of each filter parsed once (filters.ts rules), the
 *    dimension checked against those the caller offers;
 * 2. resolveParsedFilters: the delegation policy (delegation-policy.server.ts) and the tags the
 *    values name are read, tags expanded, then the policy's locks and the negation rule applied.
 * Errors keep the request's order whichever step found them.
 */
import { expandTagFilter, loadFilterTags, type FilterTags } from "~/features/filter/tag-filters.server";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import {
  dimensionRefusal,
  loadDelegationPolicy,
  mayUseDimension,
  refuseLockedFilters,
  type DelegationPolicy,
} from "./delegation-policy.server";
import { availableDimensions, isDimensionId, type DimensionId } from "./dimensions";
import { addFilter, parseFilterValue, type FlowFilter } from "./filters";
import type { RequestFilter } from "./request-filter";

export type FilterError = { field: string; message: string };

/** Position in the request (filter, value; -1 for the dimension) so both steps' errors merge in order. */
type At = readonly [number, number];
type Located<T> = T & { at: At };

export type ParsedFilters = {
  values: Located<{ field: string; filter: FlowFilter }>[];
  errors: Located<FilterError>[];
};

export type ResolvedFilters = {
  /** The policy's locked filters first, then the request's (tags expanded, negation rule applied). */
  filters: FlowFilter[];
  errors: FilterError[];
  /** negatedFilterReplaced(...) notices. */
  notices: string[];
  locked: DimensionId[];
  /** Filters on dimensions the delegation policy does not allow: a 403 for the API, a notice on a screen. */
  refused: FilterError[];
  /** The policy the filters were resolved with (the dimensions a request may use). */
  policy: DelegationPolicy;
};

/** The texts of a filter's dimension problems, which differ between the API and the screens. */
export type DimensionWording = {
  unknown: (dimension: string) => string;
  unavailable: (dimension: DimensionId) => string;
  /** null: a filter without values is no error (it filters nothing). */
  noValue: (dimension: DimensionId) => string | null;
};

/** The API's texts (field names as in the body). */
export function apiWording(version: number): DimensionWording {
  return {
    unknown: (d) => `Unknown dimension ${d}.`,
    unavailable: (d) => `The dimension ${d} is not available to you (permission or API version ${version}).`,
    noValue: () => null,
  };
}

/**
 * Checks that the user may use a dimension in this API version (the API's texts); a 400 naming
 * `field` otherwise. For the dimension a request is about, not the dimensions of its filters.
 */
export function requireDimension(user: Pick<UserContext, "permissions">, version: number, dimension: string, field: string): DimensionId {
  const wording = apiWording(version);
  if (!isDimensionId(dimension)) throw invalidBody(field, wording.unknown(dimension));
  if (!availableDimensions(user.permissions, version).some((d) => d.id === dimension))
    throw invalidBody(field, wording.unavailable(dimension));
  return dimension;
}

const invalidBody = (field: string, message: string) =>
  new ApiProblem(400, { detail: "Invalid request body.", errors: [{ field, message }] });

/** Step 1: every value parsed once; dimensions outside `allowed` are errors. No I/O. */
export function parseRequestFilters(
  requested: readonly RequestFilter[],
  allowed: ReadonlySet<string>,
  wording: DimensionWording,
): ParsedFilters {
  const parsed: ParsedFilters = { values: [], errors: [] };
  requested.forEach((rf, i) => {
    const problem = (message: string | null) =>
      message !== null && parsed.errors.push({ at: [i, -1], field: `filters.${i}.dimension`, message });
    if (!isDimensionId(rf.dimension)) return problem(wording.unknown(rf.dimension));
    const dimension = rf.dimension;
    if (!allowed.has(dimension)) return problem(wording.unavailable(dimension));
    if (!rf.values.length) return problem(wording.noValue(dimension));
    rf.values.forEach((raw, j) => {
      const field = `filters.${i}.values.${j}`;
      const value = parseFilterValue(dimension, raw);
      if ("error" in value) parsed.errors.push({ at: [i, j], field, message: value.error });
      else parsed.values.push({ at: [i, j], field, filter: value.filter });
    });
  });
  return parsed;
}

/** Step 2 without I/O: tags expanded, the policy's locks and the negation rule applied. */
export function applyFilterRules(parsed: ParsedFilters, policy: DelegationPolicy, tags: FilterTags): ResolvedFilters {
  let filters = [...policy.lockedFilters];
  const notices: string[] = [];
  const errors = [...parsed.errors];
  const refused: FilterError[] = [];
  for (const { at, field, filter } of parsed.values) {
    if (!mayUseDimension(policy, filter.dimension)) {
      refused.push({ field, message: dimensionRefusal(policy, filter.dimension) });
      continue;
    }
    const expanded = expandTagFilter(tags, filter);
    if ("error" in expanded) {
      errors.push({ at, field, message: expanded.error });
      continue;
    }
    if (policy.locked.has(filter.dimension)) {
      const refusal = refuseLockedFilters(policy, filter.dimension, expanded.filters);
      if (refusal) errors.push({ at, field, message: refusal });
      continue; // a repeat of a constrained value: already applied
    }
    for (const one of expanded.filters) {
      const added = addFilter(filters, one, policy.locked);
      filters = added.filters;
      if (added.notice) notices.push(added.notice);
    }
  }
  const ordered = errors.sort((a, b) => a.at[0] - b.at[0] || a.at[1] - b.at[1]).map(({ field, message }) => ({ field, message }));
  return { filters, errors: ordered, notices, locked: [...policy.locked], refused, policy };
}

/** Step 2: reads the user's policy (a 403 when it cannot be applied) and the named tags, then applies the rules. */
export async function resolveParsedFilters(
  stores: Pick<Services, "pg">,
  user: Pick<UserContext, "id" | "isDelegated">,
  parsed: ParsedFilters,
  known?: DelegationPolicy,
): Promise<ResolvedFilters> {
  const policy = known ?? (await loadDelegationPolicy(stores, user));
  const tags = await loadFilterTags(
    stores.pg.db,
    user,
    parsed.values.map((v) => v.filter),
  );
  return applyFilterRules(parsed, policy, tags);
}

/** Both steps with the API's rules: the dimensions the user may use in this API version, the API's texts. */
export function parseApiFilters(
  user: Pick<UserContext, "permissions">,
  version: number,
  requested: readonly RequestFilter[],
): ParsedFilters {
  const allowed = new Set(availableDimensions(user.permissions, version).map((d) => d.id));
  return parseRequestFilters(requested, allowed, apiWording(version));
}

/** The request's filters resolved as the API resolves them (errors returned, not thrown). */
export async function resolveFilters(
  stores: Pick<Services, "pg">,
  user: Pick<UserContext, "id" | "isDelegated" | "permissions">,
  version: number,
  requested: readonly RequestFilter[],
): Promise<ResolvedFilters> {
  return resolveParsedFilters(stores, user, parseApiFilters(user, version, requested));
}

/**
 * Both steps for a screen, in one call: the parse errors apart from the rest, because a screen runs
 * the valid values despite a value it cannot parse, but falls back to the policy's filters when the
 * policy or a tag refuses one (`resolved.errors`).
 */
export async function resolveScreenFilters(
  stores: Pick<Services, "pg">,
  user: Pick<UserContext, "id" | "isDelegated">,
  requested: readonly RequestFilter[],
  allowed: ReadonlySet<string>,
  wording: DimensionWording,
  policy?: DelegationPolicy,
): Promise<{ parseErrors: FilterError[]; resolved: ResolvedFilters }> {
  const parsed = parseRequestFilters(requested, allowed, wording);
  const resolved = await resolveParsedFilters(stores, user, { values: parsed.values, errors: [] }, policy);
  return { parseErrors: parsed.errors.map(({ field, message }) => ({ field, message })), resolved };
}

/** The resolution without the request's filters: only what the policy forces (a screen's fallback when some were refused). */
export function policyFiltersOnly(resolved: ResolvedFilters): ResolvedFilters {
  return { ...resolved, filters: resolved.filters.filter((f) => f.locked), errors: [], notices: [], refused: [] };
}
