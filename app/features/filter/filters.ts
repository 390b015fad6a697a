/**
 * Flow filters: parsing from URL parameters, the AS-number rule, negation replacing a positive
 * filter, locked dimensions of delegated users and the IP version filter (shell §5).
 * Pure and isomorphic.
 *
 * URL form: one `filter` parameter per dimension, `DIMENSION:value,value,...`, a value prefixed
 * with `!` is a negation, e.g. `filter=AS_SRC_INGRESS:2906,!AS15169`.
 *
 * Rules:
 * - AS-number dimensions accept `!`? `AS`? (any case) then an integer of 1 to 10 digits, which
 *   may be negative; values are stored normalised as the decimal number ("AS2906" → "2906").
 *   Other dimensions accept any non-empty text.
 * - Every dimension accepts a tag (`#12`) or tag group (`#g3`), optionally negated (`!#12`):
 *   the filter carries `tag` and is expanded to the tag's values on the server
 *   (app/features/filter/tag-filters.server.ts) before anything is queried. Restrictions never
 *   take tags: they must list their values.
 * - A negated value replaces an earlier positive filter of the same dimension and value, with the
 *   notice `negatedFilterReplaced(x)` where x is the positive value as it was written.
 *   A positive value after its negation replaces the negation (no notice; not in the spec).
 *   Exact duplicates are ignored.
 * - Locked dimensions (delegated users' restrictions): their filters are exactly the
 *   constrained values, positive and locked; values for them from the URL or from `addFilter`
 *   are rejected (filters cannot be added to, negated in, nor removed from a locked dimension).
 */
import { invalidInput, negatedFilterReplaced } from "~/lib/messages";
import { formatTagReference, parseTagReference, type TagObjectType } from "~/features/filter/tag-reference";
import { getDimension, isDimensionId, type DimensionId } from "./dimensions";

export type FlowFilter = {
  dimension: DimensionId;
  /** Normalised value: a decimal number for AS dimensions, the text otherwise. */
  value: string;
  isNegation: boolean;
  /** Forced by a delegation restriction: cannot be removed or negated. */
  locked?: boolean;
  /** The value as the user wrote it (without `!`), for messages. */
  raw?: string;
  /** Set when the value names a tag or tag group (`#12`, `#g3`); expanded on the server before querying. */
  tag?: { type: TagObjectType; id: number };
};

export type FlowsRestriction = { dimension: string; constrained_values: readonly (string | number)[]; output?: string };

export type IpVersion = "all" | 4 | 6;

export type FilterRejection = { dimension: string; value: string; reason: "LOCKED" | "UNKNOWN_DIMENSION" };

export type FilterParseResult = {
  filters: FlowFilter[];
  /** invalidInput(...) messages for values that failed validation. */
  errors: string[];
  /** negatedFilterReplaced(...) notices. */
  notices: string[];
  rejected: FilterRejection[];
};

const AS_RE = /^(!)?(?:as)?(-?\d{1,10})$/i;

/** The AS-number rule: returns the normalised number and negation, or null when invalid. */
export function parseAsValue(input: string): { value: string; isNegation: boolean } | null {
  const m = AS_RE.exec(input.trim());
  if (!m) return null;
  return { value: String(Number(m[2])), isNegation: m[1] === "!" };
}

/** Parses one value of a dimension (with optional leading `!`). Error: the invalidInput text. */
export function parseFilterValue(dimension: DimensionId, input: string): { filter: FlowFilter } | { error: string } {
  const def = getDimension(dimension);
  const text = input.trim();
  const tag = parseTagReference(text);
  if (tag) {
    const value = formatTagReference({ type: tag.type, id: tag.id });
    return { filter: { dimension, value, isNegation: tag.isNegation, raw: value, tag: { type: tag.type, id: tag.id } } };
  }
  if (def.filterKind === "AS_NUMBER") {
    const parsed = parseAsValue(text);
    if (!parsed) return { error: invalidInput(text, def.label) };
    return { filter: { dimension, value: parsed.value, isNegation: parsed.isNegation, raw: text.replace(/^!/, "") } };
  }
  const isNegation = text.startsWith("!");
  const value = isNegation ? text.slice(1).trim() : text;
  if (!value) return { error: invalidInput(text, def.label) };
  if (def.filterKind === "IANA_PROTOCOL" && !/^\d{1,3}$/.test(value)) return { error: invalidInput(text, def.label) };
  return { filter: { dimension, value, isNegation, raw: value } };
}

/** The dimensions locked by restrictions (known dimensions only). */
export function lockedDimensions(restrictions: readonly FlowsRestriction[]): Set<DimensionId> {
  return new Set(restrictions.map((r) => r.dimension).filter(isDimensionId));
}

/** The forced, locked filters of restrictions. */
export function restrictionFilters(restrictions: readonly FlowsRestriction[]): FlowFilter[] {
  const out: FlowFilter[] = [];
  for (const r of restrictions) {
    if (!isDimensionId(r.dimension)) continue;
    for (const v of r.constrained_values) {
      const parsed = parseFilterValue(r.dimension, String(v));
      if (
        "filter" in parsed &&
        !parsed.filter.isNegation &&
        !parsed.filter.tag &&
        !out.some((f) => f.dimension === r.dimension && f.value === parsed.filter.value)
      ) {
        out.push({ ...parsed.filter, locked: true });
      }
    }
  }
  return out;
}

export type AddResult = { filters: FlowFilter[]; notice?: string; rejected?: FilterRejection };

/** Adds a filter to a list, applying the negation rule and the locks. Does not mutate. */
export function addFilter(filters: readonly FlowFilter[], filter: FlowFilter, locked: ReadonlySet<DimensionId> = new Set()): AddResult {
  if (locked.has(filter.dimension)) {
    return { filters: [...filters], rejected: { dimension: filter.dimension, value: filter.value, reason: "LOCKED" } };
  }
  const same = (f: FlowFilter) => f.dimension === filter.dimension && f.value === filter.value;
  if (filters.some((f) => same(f) && f.isNegation === filter.isNegation)) return { filters: [...filters] };
  const opposite = filters.find((f) => same(f) && f.isNegation !== filter.isNegation);
  const next = filters.filter((f) => f !== opposite);
  next.push({ ...filter });
  if (opposite && filter.isNegation) return { filters: next, notice: negatedFilterReplaced(opposite.raw ?? opposite.value) };
  return { filters: next };
}

/** Removes a filter unless it is locked (or its dimension is). */
export function removeFilter(
  filters: readonly FlowFilter[],
  filter: Pick<FlowFilter, "dimension" | "value" | "isNegation">,
  locked: ReadonlySet<DimensionId> = new Set(),
): AddResult {
  const target = filters.find((f) => f.dimension === filter.dimension && f.value === filter.value && f.isNegation === filter.isNegation);
  if (!target) return { filters: [...filters] };
  if (target.locked || locked.has(target.dimension)) {
    return { filters: [...filters], rejected: { dimension: filter.dimension, value: filter.value, reason: "LOCKED" } };
  }
  return { filters: filters.filter((f) => f !== target) };
}

/**
 * Parses `filter` parameters (`DIMENSION:v1,!v2`) of a URL. Restrictions' filters come first and
 * are locked; values for locked dimensions are rejected.
 */
export function parseFilterParams(
  params: URLSearchParams | readonly string[],
  restrictions: readonly FlowsRestriction[] = [],
): FilterParseResult {
  const entries = Array.isArray(params) ? (params as readonly string[]) : (params as URLSearchParams).getAll("filter");
  const locked = lockedDimensions(restrictions);
  const result: FilterParseResult = { filters: restrictionFilters(restrictions), errors: [], notices: [], rejected: [] };
  for (const entry of entries) {
    const colon = entry.indexOf(":");
    const dimension = colon < 0 ? entry : entry.slice(0, colon);
    const list = colon < 0 ? "" : entry.slice(colon + 1);
    if (!isDimensionId(dimension)) {
      result.rejected.push({ dimension, value: list, reason: "UNKNOWN_DIMENSION" });
      continue;
    }
    for (const token of list.split(",")) {
      if (!token.trim()) continue;
      const parsed = parseFilterValue(dimension, token);
      if ("error" in parsed) {
        result.errors.push(parsed.error);
        continue;
      }
      const added = addFilter(result.filters, parsed.filter, locked);
      result.filters = added.filters;
      if (added.notice) result.notices.push(added.notice);
      if (added.rejected) result.rejected.push(added.rejected);
    }
  }
  return result;
}

/** Serialises filters back into `filter` parameter values (locked ones are left out: they are implied). */
export function serializeFilters(filters: readonly FlowFilter[]): string[] {
  const byDim = new Map<DimensionId, string[]>();
  for (const f of filters) {
    if (f.locked) continue;
    const list = byDim.get(f.dimension) ?? [];
    list.push(`${f.isNegation ? "!" : ""}${f.value}`);
    byDim.set(f.dimension, list);
  }
  return [...byDim].map(([d, vs]) => `${d}:${vs.join(",")}`);
}

/** The IP version filter: all | 4 | 6; anything else gives "all" and the invalidInput text. */
export function parseIpVersion(input: string | null | undefined): { ipVersion: IpVersion; error?: string } {
  if (input === null || input === undefined || input === "" || input === "all") return { ipVersion: "all" };
  if (input === "4") return { ipVersion: 4 };
  if (input === "6") return { ipVersion: 6 };
  return { ipVersion: "all", error: invalidInput(input, "IP version") };
}
