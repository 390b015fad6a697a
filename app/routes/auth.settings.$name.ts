import { z } from "zod";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { requireIdentityForApi } from "~/server/auth/reauthentication.server";
import { setEnable2fa, TwoFactorError } from "~/server/auth/two-factor.server";
import { getUserSettings, settingsForPermissions, SettingsError, updateUserSetting } from "~/server/settings/user-settings.server";

/**
 * POST auth/settings/{name}/ (shell §7): body { value, level? } — level (medium|high) for the
 * *_util_threshold names. Answers the whole, updated settings object; a bad value is a 400 whose
 * `errors` name the setting; a setting of a tool the user may not use a 403. enable_2fa goes to the two-factor module (on needs a confirmed device; off the
 * current password or a code in the X-Current-Password / X-OTP-Code header).
 */
const post = endpoint({
  method: "POST",
  access: "login",
  body: z.object({ value: z.unknown(), level: z.enum(["medium", "high"]).nullish() }),
  handler: async ({ request, params, context, user, body }) => {
    try {
      if (params.name === "enable_2fa") {
        const value = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]).safeParse(body.value);
        if (!value.success)
          return apiError(400, "Invalid request body.", { errors: [{ field: "enable_2fa", message: "must be true or false" }] });
        // Turning it off weakens the account: the current password or a code, in headers, as for new recovery codes.
        if (!value.data) await requireIdentityForApi(context.services.pg.db, request, user.id);
        await setEnable2fa(context.services.pg.db, user.id, value.data);
        return await getUserSettings(context.services.pg.db, user.id);
      }
      return await updateUserSetting(
        context.services.pg.db,
        user.id,
        params.name ?? "",
        body.value,
        body.level,
        settingsForPermissions(user.permissions),
      );
    } catch (error) {
      if (error instanceof SettingsError) return apiError(error.status, error.message, { errors: error.errors });
      if (error instanceof TwoFactorError)
        return apiError(error.status, error.message, { errors: [{ field: "enable_2fa", message: error.message }] });
      throw error;
    }
  },
});

const route = resourceRoute({ POST: post });

// Plain `export const loader =` (not a destructuring export): Remix strips only that form from the client bundle.
export const loader = route.loader;
export const action = route.action;
