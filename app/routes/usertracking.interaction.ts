import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { interactionBody, recordInteraction, usageLimiter } from "~/server/usage-tracking.server";

/**
 * POST usertracking/interaction/ {target}: records that the caller (logged in, consent given) used a
 * screen (route path) or named action; at most 60 a minute per user (429 beyond).
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "login",
    body: interactionBody,
    handler: async ({ context, user, body }) => {
      const decision = usageLimiter.take(`user:${user.id}`);
      if (!decision.allowed)
        return apiError(429, `Too many interactions recorded. Please try again in ${decision.retryAfterSeconds} seconds.`);
      await recordInteraction(context.services.pg.db, user.id, body.target);
      return { status: "ok" };
    },
  }),
});

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
