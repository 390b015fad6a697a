/**
 * The /site-settings screen (shell §6): staff and superusers edit every site setting and the
 * whole default style; moderators the default style's names and colours. Anyone else gets a 403.
 */
import { data, redirect } from "@remix-run/node";
import { MAX_FOOTER_ROWS } from "~/lib/footer-links";
import { MESSAGES } from "~/lib/messages";
import { readProtectedForm, requireUser } from "../auth/guard.server";
import { getLegalTexts, updateLegalTexts, validateLegalTexts } from "./legal-pages.server";
import {
  AUTOCOMPLETE_KEYS,
  ensureDefaultStyle,
  FONTS,
  getSiteSettingsForm,
  LOGO_MAX_BYTES,
  siteSettingsRole,
  styleToJson,
  updateDefaultStyle,
  updateSiteSettings,
  validateSiteSettings,
  validateStylePatch,
} from "./site-settings.server";
import { SettingsError } from "./user-settings.server";

const SAVED: Record<string, string> = {
  site: "The site settings were saved.",
  style: "The default style was saved. Users without a personal style see it now.",
  legal: "The imprint and the privacy policy were saved.",
};

export type SiteSettingsActionResult = {
  intent: "site" | "style" | "legal";
  errors: Record<string, string>;
  values: Record<string, string>;
};

/** The logged-in user's role on the site settings screens; 403 for users who are neither moderators, staff nor superusers. */
export async function requireSiteRole(request: Request) {
  const context = await requireUser(request);
  const role = siteSettingsRole(context.user);
  if (!role) throw data({ detail: MESSAGES.permissionDenied }, { status: 403 });
  return { ...context, role };
}

export type SiteRoleContext = Awaited<ReturnType<typeof requireSiteRole>>;

/** The logged-in user, if a staff member or superuser (the screens only they use); 403 for anyone else. */
export async function requireSiteAdmin(request: Request) {
  const context = await requireUser(request);
  if (siteSettingsRole(context.user) !== "admin") throw data({ detail: MESSAGES.permissionDenied }, { status: 403 });
  return context;
}

export async function loadSiteSettingsScreen({ services, role }: SiteRoleContext, request: Request) {
  const db = services.pg.db;
  const style = styleToJson(await ensureDefaultStyle(db));
  const saved = new URL(request.url).searchParams.get("saved");
  return {
    role,
    fonts: [...FONTS],
    autocompleteKeys: [...AUTOCOMPLETE_KEYS],
    site: role === "admin" ? await getSiteSettingsForm(db) : null,
    legal: role === "admin" ? await getLegalTexts(db) : null,
    style,
    savedMessage: saved ? (SAVED[saved] ?? null) : null,
  };
}

export type SiteSettingsScreen = Awaited<ReturnType<typeof loadSiteSettingsScreen>>;

export async function saveSiteSettingsScreen({ services, user, role }: SiteRoleContext, request: Request) {
  const db = services.pg.db;
  const form = await readProtectedForm(request);
  const intent = String(form.get("intent") ?? "");
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string" && key !== "csrfmiddlewaretoken") values[key] = value;

  /** The forms only staff and superusers may save: check, validate, store, then back with `saved=<intent>`. */
  async function saveAsAdmin<T>(
    form: "site" | "legal",
    checked: { values: T | null; errors: Record<string, string> },
    store: (clean: T) => Promise<unknown>,
  ) {
    if (role !== "admin") throw data({ detail: MESSAGES.permissionDenied }, { status: 403 });
    if (!checked.values) return data<SiteSettingsActionResult>({ intent: form, errors: checked.errors, values }, { status: 400 });
    await store(checked.values);
    return redirect(`/site-settings?saved=${form}`);
  }
  if (intent === "site") return saveAsAdmin("site", validateSiteSettings(values), (clean) => updateSiteSettings(db, user, clean));
  if (intent === "legal") return saveAsAdmin("legal", validateLegalTexts(values), (clean) => updateLegalTexts(db, user, clean));

  if (intent === "style") {
    const raw: Record<string, unknown> = {
      name: values.name ?? "",
      company_name: values.company_name ?? "",
      color_primary: values.color_primary ?? "",
      color_secondary: values.color_secondary ?? "",
      color_tertiary: values.color_tertiary ?? "",
    };
    if (role === "admin") {
      raw.font = values.font ?? "default";
      raw.branded_footer = values.branded_footer ?? "";
      const logo = form.get("company_logo");
      if (values.remove_logo) raw.company_logo = null;
      else if (logo && typeof logo !== "string" && logo.size > 0) {
        if (logo.size > LOGO_MAX_BYTES) raw.company_logo = new Uint8Array(LOGO_MAX_BYTES + 1);
        else raw.company_logo = new Uint8Array(await logo.arrayBuffer());
      }
      const links: { text: string; link: string }[] = [];
      const rowErrors: Record<string, string> = {};
      for (let i = 0; i < MAX_FOOTER_ROWS; i++) {
        const text = (values[`footer_text_${i}`] ?? "").trim();
        const link = (values[`footer_link_${i}`] ?? "").trim();
        if (!text && !link) continue;
        links.push({ text, link });
        rowErrors[String(links.length - 1)] = String(i);
      }
      raw.footer_links = links;
      const { patch, errors } = validateStylePatch(raw);
      // Footer errors come back per list index; the form shows them next to its own row.
      const shown: Record<string, string> = {};
      for (const [field, message] of Object.entries(errors)) {
        const m = /^footer_links\.(\d+)\.(text|link)$/.exec(field);
        shown[m ? `footer_${m[2]}_${rowErrors[m[1]]}` : field] = message;
      }
      if (Object.keys(shown).length) return data<SiteSettingsActionResult>({ intent, errors: shown, values }, { status: 400 });
      await updateDefaultStyle(db, user, patch);
      return redirect("/site-settings?saved=style");
    }
    const { patch, errors } = validateStylePatch(raw);
    if (Object.keys(errors).length) return data<SiteSettingsActionResult>({ intent, errors, values }, { status: 400 });
    try {
      await updateDefaultStyle(db, user, patch);
    } catch (error) {
      if (error instanceof SettingsError) throw data({ detail: error.message }, { status: error.status });
      throw error;
    }
    return redirect("/site-settings?saved=style");
  }
  return data<SiteSettingsActionResult>({ intent: "site", errors: { intent: "Unknown action." }, values }, { status: 400 });
}
