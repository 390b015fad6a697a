/**
 * 'Show in RNA' on the Flow Explorer's table rows (spec LG §6, shell §6: the RNA permission gates
 * the show-in-RNA actions): the raw flow records behind one row — the row's value as a filter of
 * the table's dimension, the view's own filters, and the range the row covers — as the Raw Network
 * Analyzer's URL. The RNA reads the Flow Explorer's dimension filters with the same parser
 * (`filter=DIMENSION:value`, features/filter/filters.ts) and the spec's URL dates (start and end as
 * unix seconds). Pure and isomorphic.
 */
import { othersValue, type DimensionId } from "~/features/filter/dimensions";
import type { Permission } from "~/lib/permissions";
import { isToolBuilt } from "~/lib/routes";

export const RNA_PATH = "/rna";
const RNA_PERMISSION: Permission = "RAW_NETWORK_ANALYZER";

/** Whether a user is offered 'Show in RNA': the RNA exists in this version and the user may open it. */
export function mayShowInRna(user: { permissions: readonly string[] }, rnaBuilt: boolean = isToolBuilt(RNA_PATH)): boolean {
  return rnaBuilt && user.permissions.includes(RNA_PERMISSION);
}

/**
 * A value the filter syntax can carry as one value: not empty, not read as a negation or a tag,
 * no ',' (it separates values). The folded rest of a top N (Others) is no value of a raw record.
 */
function filterableValue(dimension: DimensionId, value: string): boolean {
  if (value.trim() === "" || value !== value.trim() || /^[!#]/.test(value) || value.includes(",")) return false;
  return value !== String(othersValue(dimension));
}

/**
 * The RNA's address for a table row, or null when its value cannot be a filter (see above).
 * `viewFilters`: the view's `filter` parameters as the URL has them; `range`: unix seconds, the
 * view's range for an aggregated row, the bucket's for a row of the detailed table.
 */
export function flowRowRnaHref(options: {
  dimension: DimensionId;
  value: string;
  viewFilters: readonly string[];
  range: { start: number; end: number };
}): string | null {
  if (!filterableValue(options.dimension, options.value)) return null;
  const search = new URLSearchParams();
  // The protocol views split ICMP by type (`1/8`, `58/128`; `1/-1` for records that said none):
  // the protocol as the filter, the type in the filter language (docs/glossary.md, docs/rna.md).
  const icmp = options.dimension === "IANA_PROTOCOL" ? /^(1|58)\/(-1|\d{1,3})$/.exec(options.value) : null;
  search.append("filter", `${options.dimension}:${icmp ? icmp[1] : options.value}`);
  if (icmp) search.set("q", icmp[2] === "-1" ? "not icmp-type 0-255" : `icmp-type ${icmp[2]}`);
  for (const filter of options.viewFilters) if (filter.trim() !== "") search.append("filter", filter.trim());
  search.set("start", String(options.range.start));
  search.set("end", String(options.range.end));
  return `${RNA_PATH}?${search.toString()}`;
}
