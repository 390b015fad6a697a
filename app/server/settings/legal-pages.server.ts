import { eq } from "drizzle-orm";
import { siteSettings } from "~db/postgres/schema";
import { LEGAL_PAGES, LEGAL_TEXT_MAX, type LegalField, type LegalPageKey } from "~/lib/legal-pages";
import type { UserContext } from "../auth/user-context.server";
import type { Db } from "../postgres.server";
import { siteSettingsRole } from "./site-settings.server";
import { SettingsError } from "./user-settings.server";

export type LegalTexts = Record<LegalField, string>;

/** The texts of the imprint and the privacy policy as staff wrote them ("" when not yet). */
export async function getLegalTexts(db: Db): Promise<LegalTexts> {
  const [row] = await db
    .select({ imprint: siteSettings.imprintText, privacy: siteSettings.privacyPolicyText })
    .from(siteSettings)
    .where(eq(siteSettings.id, 1));
  return { imprint_text: row?.imprint ?? "", privacy_policy_text: row?.privacy ?? "" };
}

/** What a public legal page shows: the staff's text, or the notice that it has not been written yet. */
export async function legalPageText(db: Db, page: LegalPageKey): Promise<{ text: string; filledIn: boolean }> {
  const text = (await getLegalTexts(db))[LEGAL_PAGES[page].field].trim();
  return text ? { text, filledIn: true } : { text: LEGAL_PAGES[page].placeholder, filledIn: false };
}

/** Form input → clean texts, or errors by field. */
export function validateLegalTexts(raw: Record<string, unknown>): { values: LegalTexts | null; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const values = {} as LegalTexts;
  for (const { field } of Object.values(LEGAL_PAGES)) {
    const value = raw[field] ?? "";
    if (typeof value !== "string") errors[field] = "Enter text.";
    else if (value.includes("\u0000")) errors[field] = "The text contains a character that cannot be stored (NUL).";
    else if (value.length > LEGAL_TEXT_MAX) errors[field] = `At most ${LEGAL_TEXT_MAX.toLocaleString("en-US")} characters.`;
    else values[field] = value.trim();
  }
  return Object.keys(errors).length ? { values: null, errors } : { values, errors };
}

/** Staff and superusers only, like the other site settings. */
export async function updateLegalTexts(db: Db, actor: UserContext, values: LegalTexts): Promise<void> {
  if (siteSettingsRole(actor) !== "admin") throw new SettingsError(403, "Only staff and superusers may change the site settings.");
  await db.insert(siteSettings).values({ id: 1 }).onConflictDoNothing();
  await db
    .update(siteSettings)
    .set({ imprintText: values.imprint_text, privacyPolicyText: values.privacy_policy_text })
    .where(eq(siteSettings.id, 1));
}
