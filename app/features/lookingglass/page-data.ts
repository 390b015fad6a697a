/** The screen's data as the loaders send it (page.server.ts computes it); isomorphic type only. */
export type { LookingGlassPage as LookingGlassPageData } from "./page.server";
