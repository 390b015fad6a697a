import packageJson from "../../package.json";
import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { openApiDocument } from "~/server/api/openapi.server";

/**
 * GET api/openapi.json: the OpenAPI 3.1 description of every JSON endpoint. Public: it describes
 * the contracts and access rules, which are no secret, and lets integrators generate clients
 * before they have an account.
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "public",
    handler: async () => openApiDocument(packageJson.version),
  }),
});

export const loader = route.loader;
export const action = route.action;
