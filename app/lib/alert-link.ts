/**
 * The Alerts screen's address (/alerts) and the Flow Explorer view a rule watches, as URLs: the
 * Flow Explorer's "Alert on this view" link opens the new-rule form prefilled from the view's URL
 * state (dimension, filters, IP version), and a rule links back to its view. Pure and isomorphic,
 * in app/lib because both tools use it (neither imports the other).
 */

export const ALERTS_PATH = "/alerts";
export const FLOW_EXPLORER_PATH = "/flow-explorer";

export type AlertViewState = { dimension: string; filter: readonly string[]; ipVersion: string; value?: string | null };

/** The new-rule form of /alerts prefilled with a view (`new=1`, then the Flow Explorer's own parameter names). */
export function alertOnViewHref(view: AlertViewState): string {
  const s = new URLSearchParams({ new: "1", dimension: view.dimension });
  for (const f of view.filter) if (f.trim()) s.append("filter", f);
  if (view.ipVersion && view.ipVersion !== "all") s.set("ipVersion", view.ipVersion);
  if (view.value) s.set("value", view.value);
  return `${ALERTS_PATH}?${s}`;
}

/** The Flow Explorer showing a rule's view: its dimension and filters, and a filter on its value when it watches one. */
export function flowExplorerViewHref(view: AlertViewState): string {
  const s = new URLSearchParams({ dimension: view.dimension });
  for (const f of view.filter) if (f.trim()) s.append("filter", f);
  if (view.value) s.append("filter", `${view.dimension}:${view.value}`);
  if (view.ipVersion && view.ipVersion !== "all") s.set("ipVersion", view.ipVersion);
  return `${FLOW_EXPLORER_PATH}?${s}`;
}
