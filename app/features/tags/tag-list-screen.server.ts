/**
 * The Tag list screen (/manage-tags, MANAGE_TAGS; shell §2): personal and shared tags of each
 * kind with their values, and tag groups for users with AGGREGATE_TAG_GROUPS. GET parameters
 * choose the kind and what is open (tag-list-params.ts); every change is a POST form with one
 * `intent`, answered by a redirect with `saved=<what>` (PRG), or by the service's refusal (400 with
 * the message next to each field, 403, 404) with the values as typed. Deleting asks first: the
 * Delete links open a confirm step (`delete_tag` / `delete_group`) whose form posts the delete with
 * `confirm=yes`; a delete posted without it is sent to that step.
 */
import { data, redirect } from "@remix-run/node";
import { readProtectedForm } from "~/server/auth/guard.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { formatTagReference } from "~/features/filter/tag-reference";
import { parseTagListParams, tagListUrl, type TagListParams } from "./tag-list-params";
import { isTagKind, TAG_KIND_HINTS, TAG_KIND_LABELS, TAG_KINDS, type TagKind } from "./tag-values";
import {
  createTag,
  createTagGroup,
  deleteTag,
  deleteTagGroup,
  groupsOfTag,
  listAllTagGroups,
  listAllTags,
  mayEditSharedTags,
  mayEditTagGroups,
  TagEditError,
  updateTag,
  updateTagGroup,
  type TagEditor,
} from "./tags.server";
import { parseInt32Id } from "~/lib/input-fields";

const SAVED: Record<string, string> = {
  "tag-created": "The tag was added.",
  "tag-updated": "The tag was saved.",
  "tag-deleted":
    "The tag was deleted, and taken out of its tag groups. Saved links and bookmarks that name it now show a notice in place of its values.",
  "group-created": "The tag group was added.",
  "group-updated": "The tag group was saved.",
  "group-deleted": "The tag group was deleted; its tags stay. Saved links that name it now show a notice in place of its values.",
};

type Stores = Pick<Services, "pg">;

export async function loadTagList(services: Stores, user: UserContext, url: URL) {
  const params: TagListParams = parseTagListParams(url.searchParams);
  const withGroups = mayEditTagGroups(user);
  const [allTags, allGroups] = await Promise.all([
    listAllTags(services.pg.db, user),
    withGroups ? listAllTagGroups(services.pg.db, user) : Promise.resolve([]),
  ]);
  const editShared = mayEditSharedTags(user);
  const mayEdit = (o: { personal: boolean }) => o.personal || editShared;
  const notices = [...params.notApplied];
  let editedTag = params.tag ? (allTags.find((t) => t.id === params.tag) ?? null) : null;
  if (params.tag && !editedTag) notices.push(`There is no tag #${params.tag} (any more): it may have been deleted.`);
  if (editedTag && !mayEdit(editedTag)) {
    notices.push(`The tag "${editedTag.name}" is shared: only staff, superusers and moderators may change it.`);
    editedTag = null;
  }
  let editedGroup = params.group && withGroups ? (allGroups.find((g) => g.id === params.group) ?? null) : null;
  if (params.group && !withGroups) notices.push("Tag groups need the AGGREGATE_TAG_GROUPS permission.");
  else if (params.group && !editedGroup) notices.push(`There is no tag group #g${params.group} (any more): it may have been deleted.`);
  if (editedGroup && !mayEdit(editedGroup)) {
    notices.push(`The tag group "${editedGroup.name}" is shared: only staff, superusers and moderators may change it.`);
    editedGroup = null;
  }
  let deletingTag = params.deleteTag ? (allTags.find((t) => t.id === params.deleteTag) ?? null) : null;
  if (params.deleteTag && !deletingTag) notices.push(`There is no tag #${params.deleteTag} (any more): it may have been deleted.`);
  if (deletingTag && !mayEdit(deletingTag)) {
    notices.push(`The tag "${deletingTag.name}" is shared: only staff, superusers and moderators may delete it.`);
    deletingTag = null;
  }
  let deletingGroup = params.deleteGroup && withGroups ? (allGroups.find((g) => g.id === params.deleteGroup) ?? null) : null;
  if (params.deleteGroup && !withGroups) notices.push("Tag groups need the AGGREGATE_TAG_GROUPS permission.");
  else if (params.deleteGroup && !deletingGroup)
    notices.push(`There is no tag group #g${params.deleteGroup} (any more): it may have been deleted.`);
  if (deletingGroup && !mayEdit(deletingGroup)) {
    notices.push(`The tag group "${deletingGroup.name}" is shared: only staff, superusers and moderators may delete it.`);
    deletingGroup = null;
  }
  // The open object decides the kind: a link to a tag of routers shows the routers.
  const kind: TagKind = deletingTag?.kind ?? deletingGroup?.kind ?? editedTag?.kind ?? editedGroup?.kind ?? params.kind;
  const groupsByTag = new Map<number, string[]>();
  for (const g of allGroups) for (const t of g.tags) groupsByTag.set(t.id, [...(groupsByTag.get(t.id) ?? []), g.name]);
  return {
    kind,
    kindLabel: TAG_KIND_LABELS[kind],
    valuesHint: TAG_KIND_HINTS[kind],
    kinds: TAG_KINDS.map((k) => ({
      kind: k,
      label: TAG_KIND_LABELS[k],
      tags: allTags.filter((t) => t.kind === k).length,
      groups: allGroups.filter((g) => g.kind === k).length,
    })),
    notices,
    savedMessage: params.saved ? (SAVED[params.saved] ?? null) : null,
    mayEditShared: editShared,
    withGroups,
    tags: allTags
      .filter((t) => t.kind === kind)
      .map((t) => ({
        id: t.id,
        reference: formatTagReference(t),
        name: t.name,
        color: t.color,
        personal: t.personal,
        values: t.values,
        groups: groupsByTag.get(t.id) ?? [],
        editable: mayEdit(t),
      })),
    groups: allGroups
      .filter((g) => g.kind === kind)
      .map((g) => ({
        id: g.id,
        reference: formatTagReference(g),
        name: g.name,
        color: g.color,
        personal: g.personal,
        tags: g.tags,
        valueCount: g.values.length,
        editable: mayEdit(g),
      })),
    editedTag: editedTag
      ? {
          id: editedTag.id,
          reference: formatTagReference(editedTag),
          name: editedTag.name,
          color: editedTag.color,
          personal: editedTag.personal,
          values: editedTag.values,
          groups: await groupsOfTag(services.pg.db, user, editedTag.id),
        }
      : null,
    deleting: deletingTag
      ? await deleteStep(services, user, "tag", deletingTag)
      : deletingGroup
        ? await deleteStep(services, user, "group", deletingGroup)
        : null,
    editedGroup: editedGroup
      ? {
          id: editedGroup.id,
          reference: formatTagReference(editedGroup),
          name: editedGroup.name,
          color: editedGroup.color,
          personal: editedGroup.personal,
          tagIds: editedGroup.tags.map((t) => t.id),
        }
      : null,
  };
}

/** What the confirm step of a delete says will happen. */
async function deleteStep(
  services: Stores,
  user: UserContext,
  type: "tag" | "group",
  item: { id: number; name: string; kind: TagKind; personal: boolean; tags?: { name: string }[] },
) {
  const reference = formatTagReference({ type: type === "tag" ? "TAG" : "TAG_GROUP", id: item.id });
  const effects: string[] = [];
  if (type === "tag") {
    const groups = await groupsOfTag(services.pg.db, user, item.id);
    if (groups.length) effects.push(`It is taken out of the tag groups ${groups.join(", ")}.`);
  } else effects.push(`Its tags (${(item.tags ?? []).map((t) => t.name).join(", ")}) stay.`);
  if (!item.personal) effects.push("It is shared: it disappears for every user.");
  effects.push(`Saved links and bookmarks that filter by ${reference} then show a notice that it is gone, in place of its values.`);
  return {
    type,
    id: item.id,
    name: item.name,
    reference,
    intent: type === "tag" ? ("delete-tag" as const) : ("delete-group" as const),
    effects,
  };
}

export type TagListScreen = Awaited<ReturnType<typeof loadTagList>>;

export type TagListIntent = "create-tag" | "update-tag" | "delete-tag" | "create-group" | "update-group" | "delete-group";

export type TagListActionResult = { intent: TagListIntent | ""; errors: Record<string, string>; values: Record<string, string> };

const INTENTS = new Set<string>(["create-tag", "update-tag", "delete-tag", "create-group", "update-group", "delete-group"]);

const kindOf = (raw: string | undefined): TagKind => (raw && isTagKind(raw) ? raw : TAG_KINDS[0]);

export async function saveTagList(services: Stores, user: UserContext & TagEditor, request: Request) {
  const form = await readProtectedForm(request);
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value === "string" && key !== "csrfmiddlewaretoken" && key !== "tags") values[key] = value;
  }
  const tagIds = form
    .getAll("tags")
    .filter((v): v is string => typeof v === "string")
    .filter((v) => /^\d{1,9}$/.test(v))
    .map(Number);
  values.tags = tagIds.join(",");
  const intent = (INTENTS.has(values.intent ?? "") ? values.intent : "") as TagListIntent | "";
  const refuse = (errors: Record<string, string>, status: 400 | 403 | 404 = 400) =>
    data<TagListActionResult>({ intent, errors, values }, { status });
  const id = parseInt32Id(values.id) ?? 0;
  const db = services.pg.db;
  const tagInput = {
    name: values.name ?? "",
    color: values.color ?? "",
    kind: values.kind,
    shared: values.scope === "shared",
    values: values.values ?? "",
  };
  const groupInput = { name: values.name ?? "", color: values.color ?? "", kind: values.kind, shared: values.scope === "shared", tagIds };
  try {
    switch (intent) {
      case "create-tag": {
        const made = await createTag(db, user, tagInput);
        return redirect(tagListUrl({ kind: made.kind, saved: "tag-created" }));
      }
      case "update-tag": {
        const saved = await updateTag(db, user, id, tagInput);
        return redirect(tagListUrl({ kind: saved.kind, tag: saved.id, saved: "tag-updated" }));
      }
      case "delete-tag": {
        if (values.confirm !== "yes") return redirect(tagListUrl({ kind: kindOf(values.kind), deleteTag: id || undefined }));
        const gone = await deleteTag(db, user, id);
        return redirect(tagListUrl({ kind: gone.kind, saved: "tag-deleted" }));
      }
      case "create-group": {
        const made = await createTagGroup(db, user, groupInput);
        return redirect(tagListUrl({ kind: made.kind, saved: "group-created" }));
      }
      case "update-group": {
        const saved = await updateTagGroup(db, user, id, groupInput);
        return redirect(tagListUrl({ kind: saved.kind, group: saved.id, saved: "group-updated" }));
      }
      case "delete-group": {
        if (values.confirm !== "yes") return redirect(tagListUrl({ kind: kindOf(values.kind), deleteGroup: id || undefined }));
        const gone = await deleteTagGroup(db, user, id);
        return redirect(tagListUrl({ kind: gone.kind, saved: "group-deleted" }));
      }
      default:
        return refuse({ "": "Unknown action." });
    }
  } catch (error) {
    if (error instanceof TagEditError) return refuse(error.errors, error.status);
    throw error;
  }
}
