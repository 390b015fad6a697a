import { dimensionQuerySchema } from "~/features/tags/request-schema";
import { tagGroupsForDimension } from "~/features/tags/tags-api.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * GET api/tag_groups/?dimension= (RNA API §7) → the tag groups the user can see whose kind matches
 * the dimension's filter kind: [{type: "TAG_GROUP", id, name, value ("#g<id>"), color, dimension,
 * dimensionKind, values (the union of its tags' values), tags, isNegation, personal}].
 * Access: API_FLOWS_4D plus the dimension's own permission.
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "API_FLOWS_4D" },
    query: dimensionQuerySchema,
    handler: async ({ context, user, query, version }) => tagGroupsForDimension(context.services.pg.db, user, version, query.dimension),
  }),
});

export const loader = route.loader;
export const action = route.action;
