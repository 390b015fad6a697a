import { dimensionQuerySchema } from "~/features/tags/request-schema";
import { tagsForDimension } from "~/features/tags/tags-api.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * GET api/tags/?dimension= (RNA API §7) → the tags the user can see whose kind matches the
 * dimension's filter kind: [{type: "TAG", id, name, value ("#<id>"), color, dimension,
 * dimensionKind, values, isNegation, personal}]. Access: API_FLOWS_4D plus the dimension's own
 * permission (400 without it, as in api/flows/).
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "API_FLOWS_4D" },
    query: dimensionQuerySchema,
    handler: async ({ context, user, query, version }) => tagsForDimension(context.services.pg.db, user, version, query.dimension),
  }),
});

export const loader = route.loader;
export const action = route.action;
