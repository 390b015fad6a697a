import type { ReactNode } from "react";
import classes from "./HydrationFallback.module.css";

/**
 * Marks the document as running JavaScript before its first paint (an inline script in the head of
 * root.tsx, with the CSP nonce): `html.js`. Should the app's scripts never hydrate the page (a
 * failed download), the mark is taken back after HYDRATION_GRACE_MS so the fallbacks show again.
 */
export const HYDRATION_GRACE_MS = 10_000;
export const HYDRATED_FLAG = "__flowlensHydrated";
export const JS_MARK_SCRIPT = `document.documentElement.classList.add("js");setTimeout(function(){if(!window.${HYDRATED_FLAG})document.documentElement.classList.remove("js")},${HYDRATION_GRACE_MS});`;

/** Called once the app has hydrated (root's Layout): the mark stays. */
export function markHydrated(): void {
  (window as unknown as Record<string, boolean>)[HYDRATED_FLAG] = true;
}

/**
 * The no-JavaScript fallback of a control that replaces it after hydration (useHydrated), e.g. the
 * Flow Explorer's filter text fields before the filter bar. With JavaScript it is invisible from the
 * first paint but keeps its space, which the replacement then takes: no flash of the fallback, and
 * the page below does not jump twice. Without JavaScript it is what the page shows.
 */
export function HydrationFallback({ children }: { children: ReactNode }) {
  return <div className={classes.fallback}>{children}</div>;
}
