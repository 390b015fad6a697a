/**
 * The /settings screen, "Settings (user profile)" (shell §2 dialogs, §3 user_settings): the
 * user's preferences and a personal style override, read and saved as plain forms.
 */
import { data, redirect } from "@remix-run/node";
import { readProtectedForm } from "../auth/guard.server";
import type { UserContext } from "../auth/user-context.server";
import type { Services } from "../services.server";
import {
  ensureDefaultStyle,
  getPersonalStyle,
  PERSONAL_FIELDS,
  resetPersonalStyle,
  setPersonalStyle,
  siteSettingsRole,
  styleToJson,
} from "./site-settings.server";
import {
  getUserSettings,
  settingsForPermissions,
  SETTING_LABELS,
  TIMEZONES,
  updateUserSettings,
  type EditableSettingName,
} from "./user-settings.server";

const SAVED_MESSAGES: Record<string, string> = {
  settings: "Your settings were saved.",
  style: "Your personal style was saved. Only you see it.",
  "style-reset": "Your personal style was removed: you see the site's default style again.",
};

export async function loadSettingsScreen(services: Services, user: UserContext, url: URL) {
  const db = services.pg.db;
  const [all, personal, siteDefault] = await Promise.all([
    getUserSettings(db, user.id),
    getPersonalStyle(db, user.id),
    ensureDefaultStyle(db),
  ]);
  const saved = url.searchParams.get("saved");
  // Only the settings of tools the user can use reach the page (a delegated user has no Core Planner thresholds).
  const visible = settingsForPermissions(user.permissions);
  const settings = Object.fromEntries(visible.map((name) => [name, all[name]])) as Partial<Pick<typeof all, EditableSettingName>>;
  return {
    settings,
    visible,
    timezones: TIMEZONES,
    personal,
    siteDefault: styleToJson(siteDefault),
    savedMessage: saved ? (SAVED_MESSAGES[saved] ?? null) : null,
    canEditSite: siteSettingsRole(user) !== null,
    /** The developer panel (/settings/request-history) is for holders of DEVELOPER_API_TOKEN. */
    isDeveloper: user.permissions.includes("DEVELOPER_API_TOKEN"),
    labels: SETTING_LABELS,
  };
}

export type SettingsScreen = Awaited<ReturnType<typeof loadSettingsScreen>>;

export type SettingsFormErrors = Record<string, string>;
export type SettingsActionResult = { intent: string; errors: SettingsFormErrors; values: Record<string, string> };

export async function saveSettingsScreen(services: Services, user: UserContext, request: Request) {
  const form = await readProtectedForm(request);
  const db = services.pg.db;
  const intent = String(form.get("intent") ?? "settings");
  const values: Record<string, string> = {};
  if (intent === "settings") {
    // Fields of settings the user may not see are ignored, whatever the form carried.
    for (const name of settingsForPermissions(user.permissions)) {
      const v = form.get(name);
      if (typeof v === "string") values[name] = v;
    }
    const result = await updateUserSettings(db, user.id, values);
    if (!result.ok) return data<SettingsActionResult>({ intent, errors: result.errors as SettingsFormErrors, values }, { status: 400 });
    return redirect("/settings?saved=settings");
  }
  if (intent === "style") {
    for (const name of PERSONAL_FIELDS) values[name] = String(form.get(name) ?? "");
    const result = await setPersonalStyle(db, user.id, values);
    if (!result.ok) return data<SettingsActionResult>({ intent, errors: result.errors, values }, { status: 400 });
    return redirect("/settings?saved=style");
  }
  if (intent === "style-reset") {
    await resetPersonalStyle(db, user.id);
    return redirect("/settings?saved=style-reset");
  }
  return data<SettingsActionResult>({ intent, errors: { intent: "Unknown action." }, values }, { status: 400 });
}
