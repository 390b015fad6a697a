/**
 * The Tag list's URL (/manage-tags) → a typed state. Pure and tolerant: a bad value falls back to
 * its default and is named in `notApplied`, which the screen shows; never an error page.
 *
 * - `kind`: what the listed tags hold (AS_NUMBER …), default AS numbers;
 * - `tag=<id>` / `group=<id>`: the tag or tag group whose edit form is open;
 * - `delete_tag=<id>` / `delete_group=<id>`: the confirm step of deleting a tag or tag group (a page
 *   of its own, so deleting asks first without JavaScript too);
 * - `saved=<what>`: the notice after a change (post, redirect, get).
 */
import { isTagKind, TAG_KINDS, type TagKind } from "./tag-values";

export const TAG_LIST_PATH = "/manage-tags";

export type TagListParams = {
  kind: TagKind;
  tag: number | null;
  group: number | null;
  deleteTag: number | null;
  deleteGroup: number | null;
  saved: string | null;
  notApplied: string[];
};

const id = (raw: string | null, what: string, notApplied: string[]) => {
  if (raw === null || raw === "") return null;
  if (/^\d{1,9}$/.test(raw) && Number(raw) > 0) return Number(raw);
  notApplied.push(`"${raw.slice(0, 40)}" is not a ${what} id.`);
  return null;
};

export function parseTagListParams(search: URLSearchParams): TagListParams {
  const notApplied: string[] = [];
  const rawKind = search.get("kind");
  let kind: TagKind = TAG_KINDS[0];
  if (rawKind !== null && rawKind !== "") {
    if (isTagKind(rawKind)) kind = rawKind;
    else notApplied.push(`"${rawKind.slice(0, 40)}" is not a kind of tag: AS numbers are shown.`);
  }
  return {
    kind,
    tag: id(search.get("tag"), "tag", notApplied),
    group: id(search.get("group"), "tag group", notApplied),
    deleteTag: id(search.get("delete_tag"), "tag", notApplied),
    deleteGroup: id(search.get("delete_group"), "tag group", notApplied),
    saved: search.get("saved"),
    notApplied,
  };
}

/** The Tag list's URL for a state (empty parts left out). */
export function tagListUrl(params: {
  kind: TagKind;
  tag?: number;
  group?: number;
  deleteTag?: number;
  deleteGroup?: number;
  saved?: string;
}): string {
  const search = new URLSearchParams({ kind: params.kind });
  if (params.tag) search.set("tag", String(params.tag));
  if (params.group) search.set("group", String(params.group));
  if (params.deleteTag) search.set("delete_tag", String(params.deleteTag));
  if (params.deleteGroup) search.set("delete_group", String(params.deleteGroup));
  if (params.saved) search.set("saved", params.saved);
  return `${TAG_LIST_PATH}?${search}`;
}
