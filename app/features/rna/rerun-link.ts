/**
 * A query as the /rna address that runs it again: the screen's URL parameters, so a history entry
 * is re-run with one plain link (also without JavaScript). Isomorphic.
 *
 * - `filter` — repeated, one `DIMENSION:value` each (the Flow Explorer's form, which 'Show in RNA' emits too);
 * - `q` — the filter expression in nfdump's language;
 * - `columns` — the column ids, comma-separated, in their order;
 * - `aggregationPrefixV4`, `aggregationPrefixV6` — the prefix lengths, absent when off;
 * - `copies` — `1` when re-exported copies are shown as well;
 * - `sort` — `column:asc` or `column:desc`, as the screen's sort links write it (params.ts);
 * - `start`, `end` — unix seconds.
 */
import type { RnaHistoryQuery } from "./history-schema";

export const RNA_PATH = "/rna";

export function rnaQueryParams(query: RnaHistoryQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const filter of query.filters) for (const value of filter.values) params.append("filter", `${filter.dimension}:${value}`);
  if (query.expression.trim() !== "") params.set("q", query.expression);
  params.set("columns", query.columns.join(","));
  if (query.aggregation.v4 !== null) params.set("aggregationPrefixV4", String(query.aggregation.v4));
  if (query.aggregation.v6 !== null) params.set("aggregationPrefixV6", String(query.aggregation.v6));
  if (query.includeCopies) params.set("copies", "1");
  if (query.sort) params.set("sort", `${query.sort.column}:${query.sort.direction}`);
  params.set("start", String(query.start));
  params.set("end", String(query.end));
  return params;
}

export function rnaRerunUrl(query: RnaHistoryQuery): string {
  return `${RNA_PATH}?${rnaQueryParams(query).toString()}`;
}
