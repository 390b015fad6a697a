/**
 * The filter bar's state, pure: the filters of the URL (`filter` parameters) plus the locked
 * filters of a delegation, what picking or removing a value does (with the texts the user is
 * told), the rows shown (one per dimension) and the `filter` parameters the state serialises to.
 * The URL stays the single source of truth: the bar starts from it and writes it back.
 */
import { MESSAGES } from "~/lib/messages";
import { DIMENSION_IDS, isDimensionId, type DimensionId } from "~/features/filter/dimensions";
import {
  addFilter,
  lockedDimensions,
  parseFilterParams,
  parseFilterValue,
  removeFilter,
  serializeFilters,
  type FlowFilter,
  type FlowsRestriction,
} from "~/features/filter/filters";

/** A filter the server applied; `locked` ones come from the user's delegation. */
export type AppliedFilter = { dimension: string; value: string; isNegation: boolean; locked: boolean };

export type FilterBarState = { filters: FlowFilter[]; locked: ReadonlySet<DimensionId> };

/** What a change did: the new filters, or a refusal, and a notice to show as a toast. */
export type FilterChange = { filters: FlowFilter[]; error?: string; notice?: string };

/** The locked filters of the server's answer as restrictions, so they lead the list and lock their dimensions. */
function lockedAsRestrictions(applied: readonly AppliedFilter[]): FlowsRestriction[] {
  const byDimension = new Map<string, string[]>();
  for (const f of applied) {
    if (!f.locked || f.isNegation) continue;
    byDimension.set(f.dimension, [...(byDimension.get(f.dimension) ?? []), f.value]);
  }
  return [...byDimension].map(([dimension, constrained_values]) => ({ dimension, constrained_values }));
}

/**
 * The bar's starting state: the URL's filters (invalid values and unknown dimensions are left out:
 * the server already reports them for this view) after the locked ones.
 */
export function initialFilterState(filterParams: readonly string[], applied: readonly AppliedFilter[]): FilterBarState {
  const restrictions = lockedAsRestrictions(applied);
  return { filters: parseFilterParams(filterParams, restrictions).filters, locked: lockedDimensions(restrictions) };
}

/** Adds a typed or picked value (`!` negates) to a dimension: validated, with the negation rule and the locks. */
export function pickValue(state: FilterBarState, dimension: DimensionId, text: string): FilterChange {
  const parsed = parseFilterValue(dimension, text);
  if ("error" in parsed) return { filters: state.filters, error: parsed.error };
  const added = addFilter(state.filters, parsed.filter, state.locked);
  if (added.rejected) return { filters: state.filters, error: MESSAGES.filterLockedAdd };
  return { filters: added.filters, notice: added.notice };
}

/** Removes a chip; locked chips (and chips of locked dimensions) stay. */
export function dropValue(state: FilterBarState, filter: Pick<FlowFilter, "dimension" | "value" | "isNegation">): FilterChange {
  const removed = removeFilter(state.filters, filter, state.locked);
  if (removed.rejected) return { filters: state.filters, error: MESSAGES.filterLockedRemove };
  return { filters: removed.filters };
}

export type FilterRow = { dimension: DimensionId; locked: boolean; filters: FlowFilter[] };

/** One row per dimension with filters, in catalogue order. */
export function filterRows(state: FilterBarState): FilterRow[] {
  const rows = new Map<DimensionId, FlowFilter[]>();
  for (const f of state.filters) rows.set(f.dimension, [...(rows.get(f.dimension) ?? []), f]);
  return DIMENSION_IDS.filter((d) => rows.has(d)).map((dimension) => ({
    dimension,
    locked: state.locked.has(dimension),
    filters: rows.get(dimension)!,
  }));
}

/** The `filter` URL parameters of the state (locked filters are implied by the account, not written). */
export function filterParams(state: FilterBarState): string[] {
  return serializeFilters(state.filters);
}

/**
 * The values of the advanced query filter dialog as filter texts: each bare value, negated when
 * the dialog says so. The first invalid value stops it with the invalid-input text.
 */
export function advancedFilterValues(
  dimension: string,
  values: readonly string[],
  negate: boolean,
): { texts: string[] } | { error: string } {
  if (!isDimensionId(dimension)) return { error: "Choose a dimension." };
  const bares = values.map((v) => v.trim().replace(/^!/, "").trim()).filter((v) => v !== "");
  if (!bares.length) return { error: "Add at least one value." };
  const texts: string[] = [];
  for (const bare of bares) {
    // Checked as typed (without the `!`), so the message names the value the user wrote.
    const parsed = parseFilterValue(dimension, bare);
    if ("error" in parsed) return { error: parsed.error };
    texts.push(`${negate ? "!" : ""}${bare}`);
  }
  return { texts };
}
