/**
 * The one rule by which a name picks a vantage point, for the Looking Glass screens' URLs and for
 * api/lookingglass/ alike (so both pick the same vantage point for the same name). Pure and isomorphic.
 *
 * A name is, in this order: the display name (unique within a variant, spec §3), the key, the
 * legacy description, or a description or router name that names exactly one vantage point — two
 * routers may share a plain "City, Country" description, a router may have several vantage points,
 * and picking one of them silently would answer for one the caller did not choose. The single
 * entry "all" (spec §2) names every available one. Only the available vantage points (the caller's
 * variant) are searched, so a private one is as unknown to the public variant as a missing one.
 * The Looking Glass screens, api/lookingglass/, the Control Plane and api/netcommand/ all use it.
 */

export const ALL_VANTAGE_POINTS = "all";

/** What a name can match of a vantage point. */
export type VantagePointRef = { key: string; display_name: string; description: string; legacy_description: string; router: string };

/** The available vantage point a name refers to, or undefined. */
export function findVantagePoint<T extends VantagePointRef>(available: readonly T[], name: string): T | undefined {
  const wanted = name.trim();
  const exact =
    available.find((vp) => vp.display_name === wanted) ??
    available.find((vp) => vp.key === wanted) ??
    available.find((vp) => vp.legacy_description === wanted);
  if (exact) return exact;
  return onlyOne(available.filter((vp) => vp.description === wanted)) ?? onlyOne(available.filter((vp) => vp.router === wanted));
}

const onlyOne = <T>(matches: readonly T[]): T | undefined => (matches.length === 1 ? matches[0] : undefined);

/** The vantage points the names pick, in the order named (each once), and the names that pick none. */
export function resolveVantagePoints<T extends VantagePointRef>(
  available: readonly T[],
  names: readonly string[],
): { selected: T[]; unknown: string[] } {
  if (names.length === 1 && names[0].trim() === ALL_VANTAGE_POINTS) return { selected: [...available], unknown: [] };
  const selected = new Set<T>();
  const unknown: string[] = [];
  for (const name of names) {
    const found = findVantagePoint(available, name);
    if (found) selected.add(found);
    else unknown.push(name);
  }
  return { selected: [...selected], unknown };
}
