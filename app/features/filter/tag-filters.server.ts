/**
 * Tags as flow filter values: `#12` (a tag), `#g3` (a tag group), negated `!#12` / `!#g3`.
 *
 * A reference expands into the values of the tag (or the union of the group's tags) for the
 * filter's dimension: positive references into positive values, negated ones into negated values,
 * so a negated tag excludes every one of its values. The expanded values are then ordinary filter
 * values: the filter resolver (app/features/filter/filter-resolver.server.ts) applies the negation rule and the
 * locks of delegated users to each of them, so a tag can never widen a restricted view.
 *
 * Refused with a message (a 400 for the caller): an id that is unknown or not visible to the user,
 * a tag of another kind than the dimension's, a tag without values (a positive empty tag would
 * otherwise silently remove the filter and widen the result), and stored values that are not
 * valid for the dimension.
 */
import { getDimension, type DimensionId } from "~/features/filter/dimensions";
import { parseFilterValue, type FlowFilter } from "~/features/filter/filters";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Db } from "~/server/postgres.server";
import { formatTagReference, parseTagReference, type TagObjectType } from "./tag-reference";
import { loadTagObjects, type AnyTagObject, type TagRef } from "~/features/tags/tags.server";

/** The tags and groups a request's filters name, loaded once per request. */
export type FilterTags = ReadonlyMap<string, AnyTagObject>;

const label = (type: TagObjectType) => (type === "TAG" ? "tag" : "tag group");

/** Loads every tag and group the parsed filter values name (no query when there is none). */
export async function loadFilterTags(db: Db, user: Pick<UserContext, "id">, parsed: readonly FlowFilter[]): Promise<FilterTags> {
  const refs: TagRef[] = parsed.flatMap((f) => (f.tag ? [{ type: f.tag.type, id: f.tag.id }] : []));
  return refs.length ? loadTagObjects(db, user, refs) : new Map();
}

/**
 * The filters a parsed filter stands for: itself when it is not a tag reference, otherwise one
 * filter per value of the tag or group (negated when the reference is). An error message otherwise.
 */
export function expandTagFilter(found: FilterTags, filter: FlowFilter): { filters: FlowFilter[] } | { error: string } {
  if (!filter.tag) return { filters: [filter] };
  const reference = formatTagReference(filter.tag);
  const object = found.get(reference);
  if (!object) return { error: `Unknown ${label(filter.tag.type)} ${reference}: it was deleted, or it is another user's personal one.` };
  const def = getDimension(filter.dimension);
  const what = `The ${label(object.type)} "${object.name}" (${reference})`;
  if (object.kind !== def.filterKind) {
    return { error: `${what} holds ${object.kind} values and cannot filter ${filter.dimension} (${def.filterKind}).` };
  }
  if (!object.values.length) return { error: `${what} has no values.` };
  const filters: FlowFilter[] = [];
  for (const value of object.values) {
    const expanded = expandValue(filter.dimension, value, filter.isNegation);
    if ("error" in expanded) return { error: `${what} holds a value that cannot filter ${filter.dimension}: ${expanded.error}` };
    filters.push(expanded.filter);
  }
  return { filters };
}

/** One stored value as a filter: it must be a plain value (no `!`, no nested tag reference). */
function expandValue(dimension: DimensionId, value: string, isNegation: boolean): { filter: FlowFilter } | { error: string } {
  const text = value.trim();
  if (text.startsWith("!") || parseTagReference(text)) return { error: `"${value}" is not a plain value.` };
  const parsed = parseFilterValue(dimension, text);
  if ("error" in parsed) return parsed;
  return { filter: { ...parsed.filter, isNegation } };
}
