/**
 * What the header's help button shows of a tour without the catalogue (tours.ts, every step's text): the
 * server sends these entries with every page, and the catalogue loads only when a tour starts — the pages'
 * script budget. Pure and isomorphic; no import of the catalogue.
 */
export type TourIndexEntry = { id: string; title: string; summary: string; screens: string[]; steps: number };

/** The entries of the index on a screen (path without query). */
export function indexOfScreen<T extends { screens: readonly string[] }>(pathname: string, entries: readonly T[]): T[] {
  const path = pathname.replace(/\/+$/, "") || "/";
  return entries.filter((t) => t.screens.includes(path));
}
