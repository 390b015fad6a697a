/**
 * How a flow filter value names a tag or a tag group. Pure and isomorphic (the URL form, the
 * explorer and the server parse the same syntax).
 *
 * - `#12`   the tag with id 12: stands for all of its values;
 * - `#g3`   the tag group with id 3: the union of its tags' values;
 * - `!#12`, `!#g3`   negated: excludes all of those values.
 *
 * In the body of api/tag/values/ an id is the tag id (`12`, or `"12"`) or `"group:3"` for a group.
 */
export type TagObjectType = "TAG" | "TAG_GROUP";

export type TagReference = { type: TagObjectType; id: number; isNegation: boolean };

/** Ids are serial integers; nine digits keep them inside PostgreSQL's integer. */
const REFERENCE = /^(!)?\s*#(g)?(\d{1,9})$/i;
const VALUES_ID = /^(?:(group):)?(\d{1,9})$/i;

/** `#12`, `!#g3` … → the reference; anything else → null. */
export function parseTagReference(input: string): TagReference | null {
  const m = REFERENCE.exec(input.trim());
  if (!m) return null;
  const id = Number(m[3]);
  if (id < 1) return null;
  return { type: m[2] ? "TAG_GROUP" : "TAG", id, isNegation: m[1] === "!" };
}

/** The filter value of a tag or group, e.g. `#12`, `#g3` (with `!` when negated). */
export function formatTagReference(ref: { type: TagObjectType; id: number; isNegation?: boolean }): string {
  return `${ref.isNegation ? "!" : ""}#${ref.type === "TAG_GROUP" ? "g" : ""}${ref.id}`;
}

/** The id of api/tag/values/: a tag id (`12`) or `group:3`; null when it is neither. */
export function parseValuesId(input: string | number): { type: TagObjectType; id: number } | null {
  const m = VALUES_ID.exec(String(input).trim());
  if (!m) return null;
  const id = Number(m[2]);
  if (id < 1) return null;
  return { type: m[1] ? "TAG_GROUP" : "TAG", id };
}
