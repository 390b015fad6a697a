import { describeMapping, deleteMapping, putMapping, requireObjectId } from "~/features/tags/mappings.server";
import { mappingBodySchema, mappingLayerQuerySchema, mappingQuerySchema } from "~/features/tags/request-schema";
import { ApiProblem, endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * api/mapping/ (RNA API §7): names and colours of an AS, application or infrastructure per layer
 * (base 0, product 10, site 20, user 30; per field the highest layer that sets it wins).
 *
 * - GET ?id=&type= → {type, id, layers: [{priority, layer, name, color, own}], effective: {name, color, nameLayer, colorLayer}}
 * - PUT ?id=&priority=&type= with {color, id, name} → the same, after creating or replacing that layer's row
 * - DELETE ?id=&priority=&type= → the same, after removing it (404 when it did not exist)
 *
 * Access: API_FLOWS_4D. Layer 30 is each user's own row (an AS's name there needs
 * API_CHANGE_AS_INFO); layer 20, the site's defaults, is written by moderators, staff and
 * superusers (shell §6); layers 0 and 10 by staff and superusers only (403 for others). Another
 * user's layer-30 row is never read nor written.
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "API_FLOWS_4D" },
    query: mappingQuerySchema,
    handler: async ({ context, user, query }) =>
      describeMapping(context.services.pg.db, user, query.type, requireObjectId(query.type, query.id, "id")),
  }),
  PUT: endpoint({
    method: "PUT",
    access: { permission: "API_FLOWS_4D" },
    query: mappingLayerQuerySchema,
    body: mappingBodySchema,
    handler: async ({ context, user, query, body }) => {
      const objectId = requireObjectId(query.type, query.id, "id");
      if (body.id !== undefined && requireObjectId(query.type, body.id, "id", "Invalid request body.") !== objectId) {
        throw new ApiProblem(400, {
          detail: "Invalid request body.",
          errors: [{ field: "id", message: `The body's id (${body.id}) differs from the id parameter (${query.id}).` }],
        });
      }
      const db = context.services.pg.db;
      await putMapping(db, user, {
        model: query.type,
        objectId,
        layer: query.priority,
        name: body.name ?? null,
        color: body.color ?? null,
      });
      return describeMapping(db, user, query.type, objectId);
    },
  }),
  DELETE: endpoint({
    method: "DELETE",
    access: { permission: "API_FLOWS_4D" },
    query: mappingLayerQuerySchema,
    handler: async ({ context, user, query }) => {
      const objectId = requireObjectId(query.type, query.id, "id");
      const db = context.services.pg.db;
      if (!(await deleteMapping(db, user, { model: query.type, objectId, layer: query.priority }))) {
        throw new ApiProblem(404, { detail: `No ${query.type} mapping for ${objectId} in layer ${query.priority}.` });
      }
      return describeMapping(db, user, query.type, objectId);
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
