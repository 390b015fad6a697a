import { tagValuesBodySchema } from "~/features/tags/request-schema";
import { tagValuesFor } from "~/features/tags/tags-api.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * POST api/tag/values/ {dimension, id} (RNA API §7) → the tag or tag group as a filter tag value
 * with its values for the dimension. id: a tag id (12 or "12") or "group:<id>" for a tag group.
 * 404 for an unknown (or someone else's personal) id; 400 for a tag of another kind than the
 * dimension's. Access: API_FLOWS_4D plus the dimension's own permission.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "API_FLOWS_4D" },
    body: tagValuesBodySchema,
    handler: async ({ context, user, body, version }) => tagValuesFor(context.services.pg.db, user, version, body),
  }),
});

export const loader = route.loader;
export const action = route.action;
