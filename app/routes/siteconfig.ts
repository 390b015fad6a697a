import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { getSiteConfig } from "~/server/settings/site-settings.server";

/** GET siteconfig/ (shell §7, public): the site settings of shell §3 with the default style. */
const get = endpoint({
  method: "GET",
  access: "public",
  handler: async ({ context }) => getSiteConfig(context.services.pg.db),
});

const route = resourceRoute({ GET: get });

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
