/**
 * Tags and tag groups as the flows tools use them (RNA API §3 "Filter tag value", §7 api/tags/,
 * api/tag_groups/, api/tag/values/): lists per filter kind, values, and the search behind
 * autocomplete.
 *
 * Visibility: a tag or group without owner is visible to every user; one with an owner only to
 * that owner. An invisible object is treated exactly like a missing one, so ids of other users'
 * tags reveal nothing. A group stands for the union of the values of its tags that the user can
 * see and that share the group's kind.
 */
import { and, asc, eq, ilike, inArray, isNull, ne, or, type SQL } from "drizzle-orm";
import { tagGroupMembers, tagGroups, tags, tagValues } from "~db/postgres/schema";
import type { FilterKind } from "~/features/filter/dimensions";
import { isHexColor } from "~/lib/colors";
import { MODERATORS_GROUP } from "~/lib/permissions";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Db } from "~/server/postgres.server";
import { formatTagReference, type TagObjectType } from "~/features/filter/tag-reference";
import { inventoryNames } from "~/features/inventory/inventory.server";
import { checkInventoryValues, INVENTORY_TAG_KINDS, isTagKind, parseTagValues, TAG_KIND_LABELS, type TagKind } from "./tag-values";

export type TagObject = {
  type: "TAG";
  id: number;
  name: string;
  color: string;
  kind: FilterKind;
  personal: boolean;
  values: string[];
};

export type TagGroupObject = {
  type: "TAG_GROUP";
  id: number;
  name: string;
  color: string;
  kind: FilterKind;
  personal: boolean;
  values: string[];
  tags: { id: number; name: string; color: string }[];
};

export type AnyTagObject = TagObject | TagGroupObject;

const tagVisibleTo = (user: Pick<UserContext, "id">) => or(isNull(tags.ownerUserId), eq(tags.ownerUserId, user.id));
const groupVisibleTo = (user: Pick<UserContext, "id">) => or(isNull(tagGroups.ownerUserId), eq(tagGroups.ownerUserId, user.id));

/** `%term%` with LIKE's own wildcards escaped. */
const contains = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Visible tags matching `condition`, with their values (in the order they were added), by name. */
async function selectTags(db: Db, user: Pick<UserContext, "id">, condition?: SQL, limit?: number): Promise<TagObject[]> {
  const query = db
    .select({ id: tags.id, name: tags.name, color: tags.color, kind: tags.dimension, owner: tags.ownerUserId })
    .from(tags)
    .where(and(tagVisibleTo(user), condition))
    .orderBy(asc(tags.name), asc(tags.id));
  const rows = limit === undefined ? await query : await query.limit(limit);
  if (!rows.length) return [];
  const values = await db
    .select({ tagId: tagValues.tagId, value: tagValues.value })
    .from(tagValues)
    .where(
      inArray(
        tagValues.tagId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(tagValues.id));
  const byTag = new Map<number, string[]>();
  for (const v of values) byTag.set(v.tagId, [...(byTag.get(v.tagId) ?? []), v.value]);
  return rows.map((r) => ({
    type: "TAG",
    id: r.id,
    name: r.name,
    color: r.color,
    kind: r.kind,
    personal: r.owner !== null,
    values: byTag.get(r.id) ?? [],
  }));
}

/** Visible groups matching `condition`, with their visible member tags of the same kind and the union of their values. */
async function selectGroups(db: Db, user: Pick<UserContext, "id">, condition?: SQL, limit?: number): Promise<TagGroupObject[]> {
  const query = db
    .select({ id: tagGroups.id, name: tagGroups.name, color: tagGroups.color, kind: tagGroups.dimension, owner: tagGroups.ownerUserId })
    .from(tagGroups)
    .where(and(groupVisibleTo(user), condition))
    .orderBy(asc(tagGroups.name), asc(tagGroups.id));
  const groups = limit === undefined ? await query : await query.limit(limit);
  if (!groups.length) return [];
  const members = await db
    .select({ groupId: tagGroupMembers.groupId, tagId: tagGroupMembers.tagId })
    .from(tagGroupMembers)
    .where(
      inArray(
        tagGroupMembers.groupId,
        groups.map((g) => g.id),
      ),
    );
  const memberTags = members.length ? await selectTags(db, user, inArray(tags.id, [...new Set(members.map((m) => m.tagId))])) : [];
  return groups.map((g) => {
    // Tags in name order (selectTags' order); another kind cannot filter the group's dimensions.
    const own = new Set(members.filter((m) => m.groupId === g.id).map((m) => m.tagId));
    const groupTags = memberTags.filter((t) => own.has(t.id) && t.kind === g.kind);
    const values = [...new Set(groupTags.flatMap((t) => t.values))];
    return {
      type: "TAG_GROUP",
      id: g.id,
      name: g.name,
      color: g.color,
      kind: g.kind,
      personal: g.owner !== null,
      values,
      tags: groupTags.map((t) => ({ id: t.id, name: t.name, color: t.color })),
    };
  });
}

/** Every tag the user can see, of every kind (the Tag list). */
export function listAllTags(db: Db, user: Pick<UserContext, "id">): Promise<TagObject[]> {
  return selectTags(db, user);
}

/** Every tag group the user can see, of every kind (the Tag list). */
export function listAllTagGroups(db: Db, user: Pick<UserContext, "id">): Promise<TagGroupObject[]> {
  return selectGroups(db, user);
}

/** The tags of a filter kind the user can see. */
export function listTags(db: Db, user: Pick<UserContext, "id">, kind: FilterKind): Promise<TagObject[]> {
  return selectTags(db, user, eq(tags.dimension, kind));
}

/** The tag groups of a filter kind the user can see. */
export function listTagGroups(db: Db, user: Pick<UserContext, "id">, kind: FilterKind): Promise<TagGroupObject[]> {
  return selectGroups(db, user, eq(tagGroups.dimension, kind));
}

/** Tags and groups (of any kind) whose name contains the term, for autocomplete. */
export async function searchTagObjects(
  db: Db,
  user: Pick<UserContext, "id">,
  kind: FilterKind,
  term: string,
  limit: number,
): Promise<AnyTagObject[]> {
  const [found, groups] = await Promise.all([
    selectTags(db, user, and(eq(tags.dimension, kind), ilike(tags.name, contains(term))), limit),
    selectGroups(db, user, and(eq(tagGroups.dimension, kind), ilike(tagGroups.name, contains(term))), limit),
  ]);
  return [...found, ...groups];
}

export type TagRef = { type: TagObjectType; id: number };

/** The visible tags and groups among `refs` (any kind), keyed by formatTagReference (`#12`, `#g3`). */
export async function loadTagObjects(db: Db, user: Pick<UserContext, "id">, refs: readonly TagRef[]): Promise<Map<string, AnyTagObject>> {
  const tagIds = [...new Set(refs.filter((r) => r.type === "TAG").map((r) => r.id))];
  const groupIds = [...new Set(refs.filter((r) => r.type === "TAG_GROUP").map((r) => r.id))];
  const [found, groups] = await Promise.all([
    tagIds.length ? selectTags(db, user, inArray(tags.id, tagIds)) : Promise.resolve([]),
    groupIds.length ? selectGroups(db, user, inArray(tagGroups.id, groupIds)) : Promise.resolve([]),
  ]);
  return new Map<string, AnyTagObject>([...found, ...groups].map((o) => [formatTagReference(o), o]));
}

/**
 * A tag or group as a filter tag value (RNA API §3: type, id, name, value, color, dimension,
 * values, isNegation) for a flow dimension, plus its kind, whether it is personal and, for a
 * group, its tags.
 */
export function toFilterTagValue(o: AnyTagObject, dimension: string) {
  return {
    type: o.type,
    id: o.id,
    name: o.name,
    value: formatTagReference(o),
    color: o.color,
    dimension,
    dimensionKind: o.kind,
    values: o.values,
    isNegation: false,
    personal: o.personal,
    ...(o.type === "TAG_GROUP" ? { tags: o.tags } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Editing (the Tag list screen, /manage-tags, MANAGE_TAGS)
//
// Who may change what: a personal tag or group only its owner (nobody else can see it); a shared one
// staff, superusers and moderators (shell §6: moderators set the site's names and colours), since it
// changes what every user's filters and saved links stand for. Groups need AGGREGATE_TAG_GROUPS on
// top. A shared group holds shared tags only: a personal tag in it would be a different set for
// every user. A tag's kind is fixed when it is made: its groups and the links that name it are of it.

export type TagEditor = Pick<UserContext, "id" | "isStaff" | "isSuperuser" | "groups" | "permissions">;

/** Refused input or access, with the message of each field ("" for the form as a whole). */
export class TagEditError extends Error {
  constructor(
    readonly status: 400 | 403 | 404,
    readonly errors: Record<string, string>,
  ) {
    super(Object.values(errors).join(" "));
    this.name = "TagEditError";
  }
}

export function mayEditSharedTags(user: Pick<UserContext, "isStaff" | "isSuperuser" | "groups">): boolean {
  return user.isStaff || user.isSuperuser || user.groups.includes(MODERATORS_GROUP);
}

export function mayEditTagGroups(user: Pick<UserContext, "permissions">): boolean {
  return user.permissions.includes("AGGREGATE_TAG_GROUPS");
}

export type TagInput = { name: string; color: string; kind?: string; shared: boolean; values: string };
export type TagGroupInput = { name: string; color: string; kind?: string; shared: boolean; tagIds: readonly number[] };

const MAX_NAME = 100;
const DEFAULT_COLOR = "#5c7080";

/** Name and colour as stored, or their messages. */
function checkNameAndColor(input: { name: string; color: string }, errors: Record<string, string>) {
  const name = input.name.trim();
  if (!name) errors.name = "Give the name.";
  else if (name.length > MAX_NAME) errors.name = `The name is at most ${MAX_NAME} characters.`;
  else if (/[\u0000-\u001f\u007f]/.test(name)) errors.name = "The name is one line of text.";
  const color = input.color.trim() || DEFAULT_COLOR;
  if (!isHexColor(color)) errors.color = "The colour is #rrggbb, e.g. #137cbd.";
  return { name, color: color.toLowerCase() };
}

function checkScope(user: TagEditor, shared: boolean, what: string, errors: Record<string, string>) {
  if (shared && !mayEditSharedTags(user)) errors.scope = `Only staff, superusers and moderators may make a shared ${what}.`;
}

function refuseIfAny(errors: Record<string, string>, status: 400 | 403 = 400) {
  if (Object.keys(errors).length) throw new TagEditError(status, errors);
}

/** The tag as the editor may change it: visible, and shared ones only for those who may edit them. */
async function editableTag(db: Db, user: TagEditor, id: number): Promise<TagObject> {
  const [tag] = await selectTags(db, user, eq(tags.id, id));
  if (!tag) throw new TagEditError(404, { "": `There is no tag #${id} (any more).` });
  if (!tag.personal && !mayEditSharedTags(user)) {
    throw new TagEditError(403, { "": `The tag "${tag.name}" is shared: only staff, superusers and moderators may change it.` });
  }
  return tag;
}

async function editableGroup(db: Db, user: TagEditor, id: number): Promise<TagGroupObject> {
  if (!mayEditTagGroups(user)) throw new TagEditError(403, { "": "Tag groups need the AGGREGATE_TAG_GROUPS permission." });
  const [group] = await selectGroups(db, user, eq(tagGroups.id, id));
  if (!group) throw new TagEditError(404, { "": `There is no tag group #g${id} (any more).` });
  if (!group.personal && !mayEditSharedTags(user)) {
    throw new TagEditError(403, { "": `The tag group "${group.name}" is shared: only staff, superusers and moderators may change it.` });
  }
  return group;
}

/** A name a visible tag (or group) of the kind has already: two of them could not be told apart in a filter. */
async function nameTaken(db: Db, user: TagEditor, table: "tag" | "group", kind: FilterKind, name: string, except?: number) {
  const objects =
    table === "tag" ? await selectTags(db, user, eq(tags.dimension, kind)) : await selectGroups(db, user, eq(tagGroups.dimension, kind));
  return objects.some((o) => o.id !== except && o.name.toLowerCase() === name.toLowerCase());
}

/** A pasted list checked for the kind, then (routers, interfaces) against the network inventory. */
async function tagValuesOf(db: Db, kind: TagKind, pasted: string): Promise<{ values: string[]; errors: string[] }> {
  const parsed = parseTagValues(kind, pasted);
  if (parsed.errors.length || !INVENTORY_TAG_KINDS.includes(kind)) return parsed;
  return checkInventoryValues(kind, parsed.values, await inventoryNames(db));
}

/** Creates a tag; the values are a pasted list (parseTagValues, and the inventory for routers and interfaces). */
export async function createTag(db: Db, user: TagEditor, input: TagInput): Promise<TagObject> {
  const errors: Record<string, string> = {};
  const { name, color } = checkNameAndColor(input, errors);
  const kind = input.kind ?? "";
  if (!isTagKind(kind)) errors.kind = "Choose what the tag holds.";
  checkScope(user, input.shared, "tag", errors);
  const parsed = isTagKind(kind) ? await tagValuesOf(db, kind, input.values) : { values: [], errors: [] };
  if (parsed.errors.length) errors.values = parsed.errors.join(" ");
  else if (isTagKind(kind) && !parsed.values.length) errors.values = "Give at least one value.";
  if (!errors.name && isTagKind(kind) && (await nameTaken(db, user, "tag", kind, name))) {
    errors.name = `There is a tag "${name}" of ${TAG_KIND_LABELS[kind]} already.`;
  }
  refuseIfAny(errors);
  const id = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const [row] = await tx
      .insert(tags)
      .values({ name, color, dimension: kind as FilterKind, ownerUserId: input.shared ? null : user.id })
      .returning({ id: tags.id });
    await tx.insert(tagValues).values(parsed.values.map((value) => ({ tagId: row.id, value })));
    return row.id;
  });
  return (await selectTags(db, user, eq(tags.id, id)))[0];
}

/** Changes a tag's name, colour, scope and values (its kind stays). */
export async function updateTag(db: Db, user: TagEditor, id: number, input: TagInput): Promise<TagObject> {
  const stored = await editableTag(db, user, id);
  const errors: Record<string, string> = {};
  const { name, color } = checkNameAndColor(input, errors);
  checkScope(user, input.shared, "tag", errors);
  const parsed = await tagValuesOf(db, stored.kind, input.values);
  if (parsed.errors.length) errors.values = parsed.errors.join(" ");
  else if (!parsed.values.length) errors.values = "Give at least one value (or delete the tag).";
  if (!errors.name && (await nameTaken(db, user, "tag", stored.kind, name, id))) {
    errors.name = `There is a tag "${name}" of ${TAG_KIND_LABELS[stored.kind]} already.`;
  }
  if (!stored.personal && !input.shared) {
    // Made personal, it would vanish from the groups of everybody else.
    const foreign = await db
      .select({ name: tagGroups.name })
      .from(tagGroupMembers)
      .innerJoin(tagGroups, eq(tagGroups.id, tagGroupMembers.groupId))
      .where(and(eq(tagGroupMembers.tagId, id), or(isNull(tagGroups.ownerUserId), ne(tagGroups.ownerUserId, user.id))));
    if (foreign.length) {
      errors.scope = `The tag is in tag groups of other users or shared ones (${foreign.map((g) => g.name).join(", ")}): it stays shared.`;
    }
  }
  refuseIfAny(errors);
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await tx
      .update(tags)
      .set({ name, color, ownerUserId: input.shared ? null : user.id })
      .where(eq(tags.id, id));
    await tx.delete(tagValues).where(eq(tagValues.tagId, id));
    await tx.insert(tagValues).values(parsed.values.map((value) => ({ tagId: id, value })));
  });
  return (await selectTags(db, user, eq(tags.id, id)))[0];
}

/** The groups a tag belongs to, as the user sees them (said before and after a delete). */
export async function groupsOfTag(db: Db, user: Pick<UserContext, "id">, id: number): Promise<string[]> {
  const rows = await db
    .select({ name: tagGroups.name })
    .from(tagGroupMembers)
    .innerJoin(tagGroups, eq(tagGroups.id, tagGroupMembers.groupId))
    .where(and(eq(tagGroupMembers.tagId, id), groupVisibleTo(user)))
    .orderBy(asc(tagGroups.name));
  return rows.map((r) => r.name);
}

/** Deletes a tag (its values and group memberships go with it). Links naming it then get a notice, not a result. */
export async function deleteTag(db: Db, user: TagEditor, id: number): Promise<TagObject> {
  const stored = await editableTag(db, user, id);
  await db.delete(tags).where(eq(tags.id, id));
  return stored;
}

/** The member tags of a group as given: visible tags of the group's kind, shared ones only for a shared group. */
async function checkMembers(
  db: Db,
  user: TagEditor,
  kind: FilterKind,
  shared: boolean,
  tagIds: readonly number[],
  errors: Record<string, string>,
) {
  const ids = [...new Set(tagIds)];
  if (!ids.length) {
    errors.tags = "Choose at least one tag.";
    return ids;
  }
  const found = await selectTags(db, user, inArray(tags.id, ids));
  const missing = ids.filter((id) => !found.some((t) => t.id === id));
  const otherKind = found.filter((t) => t.kind !== kind);
  const personal = shared ? found.filter((t) => t.personal) : [];
  if (missing.length) errors.tags = `There is no tag ${missing.map((id) => `#${id}`).join(", ")} (any more).`;
  else if (otherKind.length)
    errors.tags = `Only tags of ${TAG_KIND_LABELS[kind]} can join this group, not ${otherKind.map((t) => t.name).join(", ")}.`;
  else if (personal.length) {
    errors.tags = `A shared group holds shared tags only; ${personal.map((t) => t.name).join(", ")} ${personal.length > 1 ? "are" : "is"} personal.`;
  }
  return ids;
}

async function writeMembers(tx: Db, groupId: number, tagIds: readonly number[]) {
  await tx.delete(tagGroupMembers).where(eq(tagGroupMembers.groupId, groupId));
  await tx.insert(tagGroupMembers).values(tagIds.map((tagId) => ({ groupId, tagId })));
}

export async function createTagGroup(db: Db, user: TagEditor, input: TagGroupInput): Promise<TagGroupObject> {
  if (!mayEditTagGroups(user)) throw new TagEditError(403, { "": "Tag groups need the AGGREGATE_TAG_GROUPS permission." });
  const errors: Record<string, string> = {};
  const { name, color } = checkNameAndColor(input, errors);
  const kind = input.kind ?? "";
  if (!isTagKind(kind)) errors.kind = "Choose what the group holds.";
  checkScope(user, input.shared, "tag group", errors);
  const ids = isTagKind(kind) ? await checkMembers(db, user, kind, input.shared, input.tagIds, errors) : [];
  if (!errors.name && isTagKind(kind) && (await nameTaken(db, user, "group", kind, name))) {
    errors.name = `There is a tag group "${name}" of ${TAG_KIND_LABELS[kind]} already.`;
  }
  refuseIfAny(errors);
  const id = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const [row] = await tx
      .insert(tagGroups)
      .values({ name, color, dimension: kind as FilterKind, ownerUserId: input.shared ? null : user.id })
      .returning({ id: tagGroups.id });
    await writeMembers(tx, row.id, ids);
    return row.id;
  });
  return (await selectGroups(db, user, eq(tagGroups.id, id)))[0];
}

export async function updateTagGroup(db: Db, user: TagEditor, id: number, input: TagGroupInput): Promise<TagGroupObject> {
  const stored = await editableGroup(db, user, id);
  const errors: Record<string, string> = {};
  const { name, color } = checkNameAndColor(input, errors);
  checkScope(user, input.shared, "tag group", errors);
  const ids = await checkMembers(db, user, stored.kind, input.shared, input.tagIds, errors);
  if (!errors.name && (await nameTaken(db, user, "group", stored.kind, name, id))) {
    errors.name = `There is a tag group "${name}" of ${TAG_KIND_LABELS[stored.kind]} already.`;
  }
  refuseIfAny(errors);
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await tx
      .update(tagGroups)
      .set({ name, color, ownerUserId: input.shared ? null : user.id })
      .where(eq(tagGroups.id, id));
    await writeMembers(tx, id, ids);
  });
  return (await selectGroups(db, user, eq(tagGroups.id, id)))[0];
}

/** Deletes a group; its tags stay. */
export async function deleteTagGroup(db: Db, user: TagEditor, id: number): Promise<TagGroupObject> {
  const stored = await editableGroup(db, user, id);
  await db.delete(tagGroups).where(eq(tagGroups.id, id));
  return stored;
}
