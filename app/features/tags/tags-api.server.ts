/**
 * What the tag endpoints answer (api/tags/, api/tag_groups/, api/tag/values/), kept out of the
 * route modules. Every call checks the flow dimension against the user's permissions and API
 * version first (requireDimension), and against a delegated user's restriction, so a tag list never
 * opens a dimension the user cannot query.
 */
import { getDimension, type DimensionId } from "~/features/filter/dimensions";
import { requireDimension } from "~/features/filter/filter-resolver.server";
import { delegationPolicyOf, requireAllowedDimensions } from "~/features/filter/delegation-policy.server";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Db } from "~/server/postgres.server";
import { formatTagReference, parseValuesId } from "~/features/filter/tag-reference";
import { listTagGroups, listTags, loadTagObjects, toFilterTagValue } from "./tags.server";

/** requireDimension for a dimension given as a query parameter (its 400 names the query, not a body). */
function queryDimension(user: UserContext, version: number, dimension: string): DimensionId {
  try {
    return requireDimension(user, version, dimension, "dimension");
  } catch (e) {
    if (e instanceof ApiProblem && e.status === 400) throw new ApiProblem(400, { ...e.body, detail: "Invalid query parameters." });
    throw e;
  }
}

/** A delegated user may only ask about the restricted dimension and its output (403 otherwise, docs/delegated-users.md). */
async function requirePolicyDimension(db: Db, user: UserContext, dimension: DimensionId): Promise<void> {
  requireAllowedDimensions(await delegationPolicyOf(db, user), [dimension]);
}

/** GET api/tags/?dimension=: the visible tags of the dimension's kind as filter tag values. */
export async function tagsForDimension(db: Db, user: UserContext, version: number, dimensionParam: string) {
  const dimension = queryDimension(user, version, dimensionParam);
  await requirePolicyDimension(db, user, dimension);
  return (await listTags(db, user, getDimension(dimension).filterKind)).map((t) => toFilterTagValue(t, dimension));
}

/** GET api/tag_groups/?dimension=: the visible tag groups of the dimension's kind, with their tags. */
export async function tagGroupsForDimension(db: Db, user: UserContext, version: number, dimensionParam: string) {
  const dimension = queryDimension(user, version, dimensionParam);
  await requirePolicyDimension(db, user, dimension);
  return (await listTagGroups(db, user, getDimension(dimension).filterKind)).map((g) => toFilterTagValue(g, dimension));
}

/**
 * POST api/tag/values/ {dimension, id}: the values a tag (`12`) or tag group (`group:3`) stands
 * for in that dimension. 404 for an id that is unknown or not visible; 400 for a tag of another kind.
 */
export async function tagValuesFor(db: Db, user: UserContext, version: number, body: { dimension: string; id: string | number }) {
  const dimension = requireDimension(user, version, body.dimension, "dimension");
  await requirePolicyDimension(db, user, dimension);
  const ref = parseValuesId(body.id);
  if (!ref)
    throw new ApiProblem(400, {
      detail: "Invalid request body.",
      errors: [{ field: "id", message: "id must be a tag id or group:<id>." }],
    });
  const object = (await loadTagObjects(db, user, [ref])).get(formatTagReference(ref));
  const what = ref.type === "TAG" ? "tag" : "tag group";
  if (!object) throw new ApiProblem(404, { detail: `Unknown ${what} ${ref.id}.` });
  const kind = getDimension(dimension).filterKind;
  if (object.kind !== kind) {
    throw new ApiProblem(400, {
      detail: "Invalid request body.",
      errors: [
        { field: "id", message: `The ${what} "${object.name}" holds ${object.kind} values and cannot filter ${dimension} (${kind}).` },
      ],
    });
  }
  return toFilterTagValue(object, dimension);
}
