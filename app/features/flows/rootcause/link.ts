/**
 * The root-cause analysis's address (/flow-explorer/rootcause) for an object and a period: from a value
 * of the Flow Explorer's current view (an AS, a router, an interface) over the view's range, the period
 * cut to the analysis's longest (7 days, its end kept). Pure and isomorphic.
 */
import { othersValue, type DimensionId } from "~/features/filter/dimensions";
import { formatDuration, MAX_DURATION_SECONDS } from "./duration";

/** The dimensions an anomaly can be selected on: a value of the ingress views. */
export const OBJECT_DIMENSIONS = [
  "AS_SRC_INGRESS",
  "AS_HND_INGRESS",
  "ROUTER_IN",
  "INTERFACE_IN",
] as const satisfies readonly DimensionId[];
export type ObjectDimension = (typeof OBJECT_DIMENSIONS)[number];
export const isObjectDimension = (d: string): d is ObjectDimension => (OBJECT_DIMENSIONS as readonly string[]).includes(d);

export const ROOT_CAUSE_PATH = "/flow-explorer/rootcause";

export type RootCauseParams = { dimension: string; value: string; start: string; duration: string };

/** The sub-view's address for an object and a period given as the URL's texts (without a value: the form, prefilled). */
export function rootCauseHref(p: RootCauseParams | Omit<RootCauseParams, "value">): string {
  return `${ROOT_CAUSE_PATH}?${new URLSearchParams(p)}`;
}

/** The range as the analysis's period: its start in ISO form and its duration, cut to the last 7 days of it. */
function period(range: { start: number; end: number }): { start: string; duration: string } {
  const start = Math.max(range.start, range.end - MAX_DURATION_SECONDS);
  return { start: new Date(start * 1000).toISOString().replace(/\.000Z$/, "Z"), duration: formatDuration(range.end - start) };
}

/** The analysis of one row's value over a range (unix seconds), or null for a dimension the analysis does not take (or Others). */
export function rootCauseRowHref(dimension: DimensionId, value: string, range: { start: number; end: number }): string | null {
  if (!isObjectDimension(dimension) || value.trim() === "" || value === String(othersValue(dimension)) || range.end <= range.start)
    return null;
  return rootCauseHref({ dimension, value, ...period(range) });
}

/** The analysis's form for the view's dimension and range, the value to choose (the link without JavaScript). */
export function rootCauseFormHref(dimension: DimensionId, range: { start: number; end: number }): string | null {
  if (!isObjectDimension(dimension) || range.end <= range.start) return null;
  return rootCauseHref({ dimension, ...period(range) });
}
