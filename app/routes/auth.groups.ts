import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { listGroups, parseGroupList, setOwnGroups } from "~/server/settings/groups.server";
import { SettingsError } from "~/server/settings/user-settings.server";

/** GET auth/groups/ → { allGroups, myGroups } of the logged-in user. */
const get = endpoint({
  method: "GET",
  access: "login",
  handler: async ({ context, user }) => listGroups(context.services.pg.db, user.id),
});

/**
 * POST auth/groups/ { groups: [ids or names] } → the new { allGroups, myGroups }. Failures carry
 * the spec's "The application failed to set the Group." with the reason in `errors`.
 */
const post = endpoint({
  method: "POST",
  access: "login",
  handler: async ({ context, user, body }) => {
    try {
      const raw = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).groups : body;
      return await setOwnGroups(context.services.pg.db, user, parseGroupList(raw));
    } catch (error) {
      if (error instanceof SettingsError) return apiError(error.status, error.message, { errors: error.errors });
      throw error;
    }
  },
});

const route = resourceRoute({ GET: get, POST: post });

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
