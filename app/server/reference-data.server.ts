import { sql } from "drizzle-orm";
import { featureFlags, groups, permissions, siteSettings, styles } from "~db/postgres/schema";
import { FEATURE_FLAGS, MODERATORS_GROUP, PERMISSIONS } from "~/lib/permissions";
import type { Db } from "./postgres.server";

/**
 * Rows every installation needs before anyone logs in: the permission catalogue, the feature
 * flags, the moderators group, a default style and the single site-settings row. Idempotent.
 */
export async function ensureReferenceData(db: Db): Promise<void> {
  await db
    .insert(permissions)
    .values(PERMISSIONS.map((code) => ({ code })))
    .onConflictDoNothing();
  await db
    .insert(featureFlags)
    .values(FEATURE_FLAGS.map((name) => ({ name })))
    .onConflictDoNothing();
  await db.insert(groups).values({ name: MODERATORS_GROUP }).onConflictDoNothing();
  await db.transaction(async (tx) => {
    const existing = await tx
      .select({ id: siteSettings.id })
      .from(siteSettings)
      .where(sql`${siteSettings.id} = 1`);
    if (existing.length > 0) return;
    const [style] = await tx.insert(styles).values({ name: "Default", footerLinks: DEFAULT_FOOTER_LINKS }).returning({ id: styles.id });
    await tx.insert(siteSettings).values({ id: 1, defaultStyleId: style.id }).onConflictDoNothing();
  });
}

/** The spec's default footer links: imprint and privacy policy. */
export const DEFAULT_FOOTER_LINKS = [
  { id: 1, link: "/imprint", text: "Imprint" },
  { id: 2, link: "/privacy-policy", text: "Privacy policy" },
];
