import { z } from "zod";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { SettingsError, updateUserSetting } from "~/server/settings/user-settings.server";

/**
 * POST auth/settings/{name}/ (shell §7): body { value, level? } — level (medium|high) for the
 * *_util_threshold names. Answers the whole, updated settings object; a bad value is a 400 whose
 * `errors` name the setting; enable_2fa is refused here (the two-factor settings own it).
 */
const post = endpoint({
  method: "POST",
  access: "login",
  body: z.object({ value: z.unknown(), level: z.enum(["medium", "high"]).nullish() }),
  handler: async ({ params, context, user, body }) => {
    try {
      return await updateUserSetting(context.services.pg.db, user!.id, params.name ?? "", body.value, body.level);
    } catch (error) {
      if (error instanceof SettingsError) return apiError(error.status, error.message, { errors: error.errors });
      throw error;
    }
  },
});

const route = resourceRoute({ POST: post });

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
