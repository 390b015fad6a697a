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
import { and, asc, eq, ilike, inArray, isNull, or, type SQL } from "drizzle-orm";
import { tagGroupMembers, tagGroups, tags, tagValues } from "~db/postgres/schema";
import type { FilterKind } from "~/features/flows/dimensions";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Db } from "~/server/postgres.server";
import { formatTagReference, type TagObjectType } from "./tag-reference";

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
