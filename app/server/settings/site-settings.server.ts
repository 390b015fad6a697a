import { and, eq, isNotNull } from "drizzle-orm";
import { siteSettings, styles, users, type AutocompleteMinLengths } from "~db/postgres/schema";
import { isHexColor } from "~/lib/colors";
import { MODERATORS_GROUP } from "~/lib/permissions";
import type { UserContext } from "../auth/user-context.server";
import type { Db } from "../postgres.server";
import { DEFAULT_FOOTER_LINKS } from "../reference-data.server";
import { siteSettingProblem } from "./site-setting-checks.server";
import { SettingsError } from "./user-settings.server";

/**
 * Site settings (shell §3), the default style and personal style overrides (shell §6: moderators
 * set the site defaults for names and colours; any user may keep an override only they see).
 */

export type FooterLink = { id: number; link: string; text: string };

/** The spec's Style object, as GET siteconfig/ carries it. */
export type StyleJson = {
  id: number;
  name: string;
  branded_footer: boolean;
  color_primary: string;
  color_secondary: string;
  color_tertiary: string;
  company_name: string;
  company_logo: string | null;
  font: Font;
  footer_links: FooterLink[];
};

export type SiteConfigJson = {
  mandatory_2fa: boolean;
  welcome_page_enabled: boolean;
  clickhouse_db_version: string;
  default_style: StyleJson;
  autocomplete_min_lengths: AutocompleteMinLengths;
  as_name_of_deployment: string;
  enable_user_self_signup: boolean;
  rna_default_query: Record<string, unknown>;
};

export const FONTS = ["default", "TeleGroteskNext"] as const;
export type Font = (typeof FONTS)[number];
export const LOGO_MAX_BYTES = 256 * 1024;
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
export const AUTOCOMPLETE_KEYS = ["primary_as", "secondary_as", "application", "infrastructure"] as const;
export const AUTOCOMPLETE_MAX = 20;
export const MAX_FOOTER_LINKS = 20;

/** Who may change what: staff and superusers everything, moderators the default style's names and colours. */
export type SiteRole = "admin" | "moderator";

export function siteSettingsRole(user: Pick<UserContext, "isSuperuser" | "isStaff" | "groups">): SiteRole | null {
  if (user.isSuperuser || user.isStaff) return "admin";
  if (user.groups.includes(MODERATORS_GROUP)) return "moderator";
  return null;
}

type StyleRow = typeof styles.$inferSelect;

export function styleToJson(row: StyleRow): StyleJson {
  return {
    id: row.id,
    name: row.name,
    branded_footer: row.brandedFooter,
    color_primary: row.colorPrimary,
    color_secondary: row.colorSecondary,
    color_tertiary: row.colorTertiary,
    company_name: row.companyName,
    company_logo: row.companyLogo,
    font: (FONTS as readonly string[]).includes(row.font) ? (row.font as Font) : "default",
    footer_links: row.footerLinks,
  };
}

async function settingsRow(db: Db) {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1));
  if (row) return row;
  await db.insert(siteSettings).values({ id: 1 }).onConflictDoNothing();
  const [created] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1));
  return created;
}

/** The site's default style row; recreated (with the spec's defaults) should it have gone missing. */
export async function ensureDefaultStyle(db: Db): Promise<StyleRow> {
  const settings = await settingsRow(db);
  if (settings.defaultStyleId !== null) {
    const [style] = await db.select().from(styles).where(eq(styles.id, settings.defaultStyleId));
    if (style) return style;
  }
  const [style] = await db.insert(styles).values({ name: "Default", footerLinks: DEFAULT_FOOTER_LINKS }).returning();
  await db.update(siteSettings).set({ defaultStyleId: style.id }).where(eq(siteSettings.id, 1));
  return style;
}

/** GET siteconfig/ (public). */
export async function getSiteConfig(db: Db): Promise<SiteConfigJson> {
  const settings = await settingsRow(db);
  const style = await ensureDefaultStyle(db);
  return {
    mandatory_2fa: settings.mandatory2fa,
    welcome_page_enabled: settings.welcomePageEnabled,
    clickhouse_db_version: settings.clickhouseDbVersion,
    default_style: styleToJson(style),
    autocomplete_min_lengths: settings.autocompleteMinLengths,
    as_name_of_deployment: settings.asNameOfDeployment,
    enable_user_self_signup: settings.enableUserSelfSignup,
    rna_default_query: settings.rnaDefaultQuery,
  };
}

/** Everything the /site-settings page edits (the spec's fields plus the public looking glass switch). */
export type SiteSettingsForm = Omit<SiteConfigJson, "default_style"> & { public_looking_glass_enabled: boolean };

export async function getSiteSettingsForm(db: Db): Promise<SiteSettingsForm> {
  const settings = await settingsRow(db);
  const { default_style: _style, ...rest } = await getSiteConfig(db);
  return { ...rest, public_looking_glass_enabled: settings.publicLookingGlassEnabled };
}

export type FieldErrors = Record<string, string>;

function bool(raw: unknown): boolean | null {
  if (typeof raw === "boolean") return raw;
  if (raw === undefined || raw === null) return false;
  const v = String(raw).trim().toLowerCase();
  if (["on", "true", "1", "yes"].includes(v)) return true;
  if (["", "off", "false", "0", "no"].includes(v)) return false;
  return null;
}

/** Raw site-settings input (form or JSON) → clean values, or errors by field. All fields are required. */
export function validateSiteSettings(raw: Record<string, unknown>): { values: SiteSettingsForm | null; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const flag = (name: string) => {
    const v = bool(raw[name]);
    if (v === null) errors[name] = "Choose on or off.";
    return v ?? false;
  };
  const text = (name: string, max: number) => {
    const v = typeof raw[name] === "string" ? (raw[name] as string).trim() : raw[name] == null ? "" : null;
    if (v === null) errors[name] = "Enter text.";
    else if (v.length > max) errors[name] = `At most ${max} characters.`;
    return v ?? "";
  };
  const mandatory = flag("mandatory_2fa");
  const welcome = flag("welcome_page_enabled");
  const signup = flag("enable_user_self_signup");
  const publicLg = flag("public_looking_glass_enabled");
  const version = text("clickhouse_db_version", 100);
  const asName = text("as_name_of_deployment", 200);
  const lengths = {} as AutocompleteMinLengths;
  const rawLengths = (
    typeof raw.autocomplete_min_lengths === "object" && raw.autocomplete_min_lengths !== null ? raw.autocomplete_min_lengths : {}
  ) as Record<string, unknown>;
  for (const key of AUTOCOMPLETE_KEYS) {
    const field = `autocomplete_min_lengths.${key}`;
    const value = raw[field] ?? rawLengths[key];
    const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
    if (!Number.isInteger(n) || n < 0 || n > AUTOCOMPLETE_MAX) errors[field] = `Enter a whole number from 0 to ${AUTOCOMPLETE_MAX}.`;
    else lengths[key] = n;
  }
  let rnaQuery: Record<string, unknown> = {};
  const rawQuery = raw.rna_default_query;
  if (typeof rawQuery === "string") {
    const trimmed = rawQuery.trim();
    if (trimmed === "") rnaQuery = {};
    else {
      try {
        const parsed: unknown = JSON.parse(trimmed);
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
          errors.rna_default_query = "Enter a JSON object, e.g. {}.";
        else rnaQuery = parsed as Record<string, unknown>;
      } catch {
        errors.rna_default_query = "This is not valid JSON.";
      }
    }
  } else if (typeof rawQuery === "object" && rawQuery !== null && !Array.isArray(rawQuery)) {
    rnaQuery = rawQuery as Record<string, unknown>;
  } else if (rawQuery !== undefined && rawQuery !== null) {
    errors.rna_default_query = "Enter a JSON object, e.g. {}.";
  }
  // The Raw Network Analyzer gives the object its shape (app/features/rna/default-query.ts).
  if (!errors.rna_default_query) {
    const problem = siteSettingProblem("rna_default_query", rnaQuery);
    if (problem) errors.rna_default_query = problem;
  }
  if (Object.keys(errors).length) return { values: null, errors };
  return {
    values: {
      mandatory_2fa: mandatory,
      welcome_page_enabled: welcome,
      clickhouse_db_version: version,
      autocomplete_min_lengths: lengths,
      as_name_of_deployment: asName,
      enable_user_self_signup: signup,
      rna_default_query: rnaQuery,
      public_looking_glass_enabled: publicLg,
    },
    errors,
  };
}

function forbidden(message = "Only staff and superusers may change the site settings."): SettingsError {
  return new SettingsError(403, message);
}

/** Staff and superusers only. */
export async function updateSiteSettings(db: Db, actor: UserContext, values: SiteSettingsForm): Promise<SiteSettingsForm> {
  if (siteSettingsRole(actor) !== "admin") throw forbidden();
  await settingsRow(db);
  await db
    .update(siteSettings)
    .set({
      mandatory2fa: values.mandatory_2fa,
      welcomePageEnabled: values.welcome_page_enabled,
      clickhouseDbVersion: values.clickhouse_db_version,
      autocompleteMinLengths: values.autocomplete_min_lengths,
      asNameOfDeployment: values.as_name_of_deployment,
      enableUserSelfSignup: values.enable_user_self_signup,
      rnaDefaultQuery: values.rna_default_query,
      publicLookingGlassEnabled: values.public_looking_glass_enabled,
    })
    .where(eq(siteSettings.id, 1));
  return getSiteSettingsForm(db);
}

// ---------------------------------------------------------------------------------------------
// Styles

/** Fields a moderator may set on the default style, and a user on their personal override. */
export const NAME_AND_COLOUR_FIELDS = ["name", "company_name", "color_primary", "color_secondary", "color_tertiary"] as const;
/** Fields only staff and superusers may set. */
export const BRANDING_FIELDS = ["company_logo", "font", "branded_footer", "footer_links"] as const;

export type StylePatch = {
  name?: string;
  company_name?: string;
  color_primary?: string;
  color_secondary?: string;
  color_tertiary?: string;
  /** base64 PNG, or null to remove the logo. */
  company_logo?: string | null;
  font?: Font;
  branded_footer?: boolean;
  footer_links?: FooterLink[];
};

export function isSafeLink(link: string): boolean {
  if (/^\/(?!\/)[^\s\\]*$/.test(link)) return true;
  try {
    const url = new URL(link);
    return (url.protocol === "http:" || url.protocol === "https:") && !/\s/.test(link);
  } catch {
    return false;
  }
}

/** A PNG (by its magic bytes) of at most 256 kB → base64; otherwise the reason it is refused. */
export function checkPngLogo(bytes: Uint8Array): { ok: true; base64: string } | { ok: false; message: string } {
  if (bytes.length > LOGO_MAX_BYTES)
    return { ok: false, message: `The logo may be at most 256 kB (this file has ${Math.ceil(bytes.length / 1024)} kB).` };
  if (bytes.length < PNG_MAGIC.length || PNG_MAGIC.some((b, i) => bytes[i] !== b))
    return { ok: false, message: "The logo must be a PNG image." };
  return { ok: true, base64: Buffer.from(bytes).toString("base64") };
}

function decodeBase64Logo(value: string): Uint8Array | null {
  const clean = value.replace(/^data:image\/png;base64,/, "").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return null;
  return new Uint8Array(Buffer.from(clean, "base64"));
}

/** Raw style input (form values or JSON) → a clean patch, or errors by field. Absent fields stay as they are. */
export function validateStylePatch(raw: Record<string, unknown>): { patch: StylePatch; errors: FieldErrors } {
  const patch: StylePatch = {};
  const errors: FieldErrors = {};
  for (const field of ["name", "company_name"] as const) {
    if (!(field in raw)) continue;
    const v = typeof raw[field] === "string" ? (raw[field] as string).trim() : "";
    if (!v) errors[field] = "This field may not be empty.";
    else if (v.length > 100) errors[field] = "At most 100 characters.";
    else patch[field] = v;
  }
  for (const field of ["color_primary", "color_secondary", "color_tertiary"] as const) {
    if (!(field in raw)) continue;
    const v = typeof raw[field] === "string" ? (raw[field] as string).trim() : "";
    if (!isHexColor(v)) errors[field] = "Enter a colour as #rrggbb, for example #137cbd.";
    else patch[field] = v.toLowerCase();
  }
  if ("font" in raw) {
    const v = raw.font;
    if (typeof v === "string" && (FONTS as readonly string[]).includes(v)) patch.font = v as Font;
    else errors.font = `Choose one of: ${FONTS.join(", ")}.`;
  }
  if ("branded_footer" in raw) {
    const v = bool(raw.branded_footer);
    if (v === null) errors.branded_footer = "Choose on or off.";
    else patch.branded_footer = v;
  }
  if ("company_logo" in raw) {
    const v = raw.company_logo;
    if (v === null || v === "") patch.company_logo = null;
    else if (v instanceof Uint8Array) {
      const checked = checkPngLogo(v);
      if (checked.ok) patch.company_logo = checked.base64;
      else errors.company_logo = checked.message;
    } else if (typeof v === "string") {
      const bytes = decodeBase64Logo(v);
      const checked = bytes ? checkPngLogo(bytes) : { ok: false as const, message: "The logo must be a base64-encoded PNG image." };
      if (checked.ok) patch.company_logo = checked.base64;
      else errors.company_logo = checked.message;
    } else errors.company_logo = "The logo must be a PNG image.";
  }
  if ("footer_links" in raw) {
    const list = raw.footer_links;
    if (!Array.isArray(list)) errors.footer_links = "Footer links must be a list of { text, link }.";
    else if (list.length > MAX_FOOTER_LINKS) errors.footer_links = `At most ${MAX_FOOTER_LINKS} footer links.`;
    else {
      const links: FooterLink[] = [];
      list.forEach((item: unknown, index) => {
        const entry = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
        const text = typeof entry.text === "string" ? entry.text.trim() : "";
        const link = typeof entry.link === "string" ? entry.link.trim() : "";
        if (!text || text.length > 100) errors[`footer_links.${index}.text`] = text ? "At most 100 characters." : "Enter the link's text.";
        if (!isSafeLink(link)) errors[`footer_links.${index}.link`] = "Enter an http(s):// address or a path starting with /.";
        links.push({ id: index + 1, text, link });
      });
      patch.footer_links = links;
    }
  }
  return { patch, errors };
}

function patchToColumns(patch: StylePatch): Partial<StyleRow> {
  const set: Partial<StyleRow> = {};
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.company_name !== undefined) set.companyName = patch.company_name;
  if (patch.color_primary !== undefined) set.colorPrimary = patch.color_primary;
  if (patch.color_secondary !== undefined) set.colorSecondary = patch.color_secondary;
  if (patch.color_tertiary !== undefined) set.colorTertiary = patch.color_tertiary;
  if (patch.company_logo !== undefined) set.companyLogo = patch.company_logo;
  if (patch.font !== undefined) set.font = patch.font;
  if (patch.branded_footer !== undefined) set.brandedFooter = patch.branded_footer;
  if (patch.footer_links !== undefined) set.footerLinks = patch.footer_links;
  return set;
}

function brandingOf(row: StyleRow): Pick<StyleRow, "companyLogo" | "font" | "brandedFooter" | "footerLinks"> {
  return { companyLogo: row.companyLogo, font: row.font, brandedFooter: row.brandedFooter, footerLinks: row.footerLinks };
}

/**
 * Changes the site's default style. Moderators may change names and colours only; staff and
 * superusers everything. Personal overrides follow the default's logo, font and footer (they
 * override names and colours only).
 */
export async function updateDefaultStyle(db: Db, actor: UserContext, patch: StylePatch): Promise<StyleJson> {
  const role = siteSettingsRole(actor);
  if (!role) throw forbidden("Only moderators, staff and superusers may change the default style.");
  if (role === "moderator") {
    const refused = BRANDING_FIELDS.filter((f) => patch[f] !== undefined);
    if (refused.length) {
      throw new SettingsError(
        403,
        "Moderators may change the default style's names and colours only.",
        refused.map((field) => ({ field, message: "Only staff and superusers may change this." })),
      );
    }
  }
  const style = await ensureDefaultStyle(db);
  const set = patchToColumns(patch);
  if (Object.keys(set).length === 0) return styleToJson(style);
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(styles)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(styles.id, style.id))
      .returning();
    if (BRANDING_FIELDS.some((f) => patch[f] !== undefined)) {
      await tx.update(styles).set(brandingOf(updated)).where(isNotNull(styles.ownerUserId));
    }
    return styleToJson(updated);
  });
}

// ---------------------------------------------------------------------------------------------
// Personal style overrides

export type PersonalStyleInput = Pick<StylePatch, "company_name" | "color_primary" | "color_secondary" | "color_tertiary">;
export const PERSONAL_FIELDS = ["company_name", "color_primary", "color_secondary", "color_tertiary"] as const;

/** The user's own override (a styles row they own that users.custom_style_id points at), if any. */
export async function getPersonalStyle(db: Db, userId: number): Promise<StyleJson | null> {
  const [row] = await db
    .select({ style: styles })
    .from(users)
    .innerJoin(styles, and(eq(styles.id, users.customStyleId), eq(styles.ownerUserId, userId)))
    .where(eq(users.id, userId));
  return row ? styleToJson(row.style) : null;
}

/** Validates and saves the user's override: creates it on first use (branding copied from the default). */
export async function setPersonalStyle(
  db: Db,
  userId: number,
  raw: Record<string, unknown>,
): Promise<{ ok: true; style: StyleJson } | { ok: false; errors: FieldErrors }> {
  const picked: Record<string, unknown> = {};
  for (const field of PERSONAL_FIELDS) picked[field] = raw[field] ?? "";
  const { patch, errors } = validateStylePatch(picked);
  if (Object.keys(errors).length) return { ok: false, errors };
  const set = patchToColumns(patch);
  const existing = await getPersonalStyle(db, userId);
  if (existing) {
    const [updated] = await db
      .update(styles)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(styles.id, existing.id))
      .returning();
    return { ok: true, style: styleToJson(updated) };
  }
  const base = await ensureDefaultStyle(db);
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(styles)
      .values({ ...brandingOf(base), name: `Personal style of user ${userId}`, ownerUserId: userId, companyName: base.companyName, ...set })
      .returning();
    await tx.update(users).set({ customStyleId: created.id }).where(eq(users.id, userId));
    return { ok: true as const, style: styleToJson(created) };
  });
}

/** Back to the site default: the user's own style rows go, users.custom_style_id is cleared. */
export async function resetPersonalStyle(db: Db, userId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ customStyleId: null }).where(eq(users.id, userId));
    await tx.delete(styles).where(eq(styles.ownerUserId, userId));
  });
}
