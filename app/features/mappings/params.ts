/**
 * The mappings screens (shell §2 menu: Applications, Infrastructures, AS Mappings; the spec gives
 * no paths, this version uses /mappings/applications, /mappings/infrastructures and /mappings/as)
 * and their URL state. Pure and isomorphic.
 *
 * Parameters: q (search), page (1-based), id (the object whose layers are open), saved (the PRG
 * notice after a change). A bad page or id falls back (first page, nothing open) and is reported.
 */
import { normalizeObjectId, type MappingModel } from "../tags/mapping-model";

export const MAPPINGS_PAGE_SIZE = 50;
export const SEARCH_MAX = 100;

export type MappingScreenKind = "applications" | "infrastructures" | "as";

export type MappingScreenDef = { kind: MappingScreenKind; path: string; model: MappingModel; title: string; noun: string };

export const MAPPING_SCREENS: Record<MappingScreenKind, MappingScreenDef> = {
  applications: { kind: "applications", path: "/mappings/applications", model: "Application", title: "Applications", noun: "application" },
  infrastructures: {
    kind: "infrastructures",
    path: "/mappings/infrastructures",
    model: "Infrastructure",
    title: "Infrastructures",
    noun: "infrastructure",
  },
  as: { kind: "as", path: "/mappings/as", model: "AS", title: "AS Mappings", noun: "AS" },
};

export type MappingParams = { search: string; page: number; id: string | null; saved: string | null; notices: string[] };

export function parseMappingParams(model: MappingModel, searchParams: URLSearchParams): MappingParams {
  const notices: string[] = [];
  const search = (searchParams.get("q") ?? "").trim();
  if (search.length > SEARCH_MAX) notices.push(`The search was cut to its first ${SEARCH_MAX} characters.`);
  const rawPage = searchParams.get("page");
  let page = 1;
  if (rawPage !== null && rawPage !== "") {
    if (/^\d{1,6}$/.test(rawPage) && Number(rawPage) >= 1) page = Number(rawPage);
    else notices.push(`Page "${rawPage.slice(0, 20)}" is no page number: the first page is shown.`);
  }
  const rawId = searchParams.get("id");
  let id: string | null = null;
  if (rawId !== null && rawId.trim() !== "") {
    id = /[\u0000-\u001f\u007f]/.test(rawId) ? null : normalizeObjectId(model, rawId);
    if (id === null)
      notices.push(model === "AS" ? `"${rawId.slice(0, 40)}" is no AS number.` : `"${rawId.slice(0, 40)}" is no valid name.`);
  }
  return { search: search.slice(0, SEARCH_MAX), page, id, saved: searchParams.get("saved"), notices };
}

/** How an object is written for people: AS numbers as AS2906, names as they are. */
export const objectLabel = (model: MappingModel, id: string) => (model === "AS" ? `AS${id}` : id);
