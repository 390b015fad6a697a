/**
 * Site settings whose shape a feature defines: the kernel stores them as JSON objects, and the
 * feature that reads them registers the check a saved value must pass (app/wiring.server.ts), so
 * the settings form refuses what the feature could not apply, with the feature's own words.
 */

/** The JSON site settings a feature gives the shape of (shell §3). */
export type CheckedSiteSetting = "rna_default_query";

/** What is wrong with a value, or null when it fits. */
export type SiteSettingCheck = (value: Record<string, unknown>) => string | null;

const checks = new Map<CheckedSiteSetting, SiteSettingCheck>();

export function checkSiteSettingWith(field: CheckedSiteSetting, check: SiteSettingCheck): void {
  checks.set(field, check);
}

/** The registered check's answer; null when nothing registered one (any object is kept then). */
export function siteSettingProblem(field: CheckedSiteSetting, value: Record<string, unknown>): string | null {
  return checks.get(field)?.(value) ?? null;
}
