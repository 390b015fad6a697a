import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { tablesWithoutData } from "~/server/auth/guard.server";

/** GET api/tables_without_data/: analytics tables that hold no rows (their menu items hide for non-staff). */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "login",
    handler: async ({ context }) => ({ tables: [...(await tablesWithoutData(context.services))].sort() }),
  }),
});

export const loader = route.loader;
export const action = route.action;
