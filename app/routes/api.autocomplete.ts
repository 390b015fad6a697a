import { z } from "zod";
import { autocompleteFor } from "~/features/flows/lookup-access.server";
import { requireDimension } from "~/features/filter/filter-resolver.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * POST api/autocomplete/ {searchTerm, dimension} → {results: [{id, name, value, type}]} (RNA API §7,
 * shell §5). Access: API_FLOWS_4D, plus the dimension's own permission (400 without it, as in
 * api/flows/). Empty terms, terms with * or _, and terms below the site's minimum length give
 * {results: []}; a leading ! and a trailing # are carried over to the values. At most 20 plain
 * results, then at most 20 of the user's tags and tag groups whose name matches (type TAG /
 * TAG_GROUP, value #<id> / #g<id>). A delegated user may complete only the restricted dimension
 * and its output (403 otherwise), and on the restricted dimension only gets its constrained values.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "API_FLOWS_4D" },
    body: z.object({
      searchTerm: z.string().max(200),
      dimension: z.string().min(1).max(64),
    }),
    handler: async ({ context, user, body, version }) => {
      const dimension = requireDimension(user, version, body.dimension, "dimension");
      return {
        results: await autocompleteFor(context.services, user, dimension, body.searchTerm),
      };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
