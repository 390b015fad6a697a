/**
 * Vantage points of the Looking Glass (spec §3): the routers whose routing tables are queried.
 * The public variant lists only those marked public; display names differ per variant.
 */
import { asc, eq } from "drizzle-orm";
import { vantagePoints } from "~db/postgres/schema";
import type { Services } from "~/server/services.server";

export type LookingGlassVariant = "public" | "private";

/** One vantage point as GET api/lookingglass/vantagepoints/ lists it. */
export type VantagePointJson = {
  id: number;
  key: string;
  city: string;
  country: string;
  router: string;
  legacy_description: string;
  description: string;
  ip: string;
  /** 'City, Country' (public; numbered when several share a city) or 'Router City, Country' (private). */
  display_name: string;
};

type VantagePointRow = typeof vantagePoints.$inferSelect;

/**
 * Display names (spec §3): public 'City, Country', with " 1", " 2", … (in id order) when several
 * listed vantage points share the city; private 'Router City, Country'.
 */
export function displayNames(
  rows: Pick<VantagePointRow, "id" | "city" | "country" | "router">[],
  variant: LookingGlassVariant,
): Map<number, string> {
  const names = new Map<number, string>();
  if (variant === "private") {
    for (const row of rows) names.set(row.id, `${row.router} ${row.city}, ${row.country}`);
    return names;
  }
  const byPlace = new Map<string, number[]>();
  for (const row of [...rows].sort((a, b) => a.id - b.id)) {
    const place = `${row.city}, ${row.country}`;
    byPlace.set(place, [...(byPlace.get(place) ?? []), row.id]);
  }
  for (const [place, ids] of byPlace) {
    ids.forEach((id, i) => names.set(id, ids.length > 1 ? `${place} ${i + 1}` : place));
  }
  return names;
}

/**
 * The vantage points a variant may query, in id order, with their display names. `routers`: a
 * delegated user's routerList (only the vantage points of those routers; none for an empty list);
 * null or absent: no such restriction. Names are given over the variant's whole list, so a
 * vantage point keeps its name whoever lists it.
 */
export async function listVantagePoints(
  stores: Pick<Services, "pg">,
  options: { variant: LookingGlassVariant; routers?: readonly string[] | null },
): Promise<VantagePointJson[]> {
  const query = stores.pg.db.select().from(vantagePoints);
  const all = await (options.variant === "public" ? query.where(eq(vantagePoints.isPublic, true)) : query).orderBy(asc(vantagePoints.id));
  const names = displayNames(all, options.variant);
  const routers = options.routers ? new Set(options.routers) : null;
  const rows = routers ? all.filter((row) => routers.has(row.router)) : all;
  return rows.map((row) => ({
    id: row.id,
    key: row.key,
    city: row.city,
    country: row.country,
    router: row.router,
    legacy_description: row.legacyDescription,
    description: row.description,
    ip: row.ip,
    display_name: names.get(row.id)!,
  }));
}

/** The vantage points of `selected` outside a delegated user's routers (none without a restriction). */
export function forbiddenVantagePoints<T extends Pick<VantagePointJson, "router">>(
  selected: readonly T[],
  routers: readonly string[] | null,
): T[] {
  if (routers === null) return [];
  const mine = new Set(routers);
  return selected.filter((vp) => !mine.has(vp.router));
}

/** The 403 text naming vantage points a delegated user may not use. */
export function vantagePointsRefusal(names: readonly string[]): string {
  return names.length
    ? `Not available to your account: ${names.join(", ")}. Your account may only use the vantage points of its routers.`
    : "No vantage point is available to your account.";
}
