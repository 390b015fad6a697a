import { desc, eq } from "drizzle-orm";
import { apiTokens, delegationRestrictions, styles, users } from "~db/postgres/schema";
import type { Db } from "../postgres.server";
import type { SessionState } from "./session.server";
import type { UserContext } from "./user-context.server";

/**
 * The user's own newest API token as auth/user/ shows it (`auth_token`), or null when they hold
 * none. Only a token's SHA-256 is stored, so the clear token cannot be shown again (it is shown once,
 * by POST auth/token/): this names it — id, name, created and last used — never the token or its hash.
 */
export async function ownApiToken(db: Db, userId: number) {
  const [token] = await db
    .select({ id: apiTokens.id, name: apiTokens.name, createdAt: apiTokens.createdAt, lastUsedAt: apiTokens.lastUsedAt })
    .from(apiTokens)
    .where(eq(apiTokens.userId, userId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
    .limit(1);
  return token
    ? { id: token.id, name: token.name, created_at: token.createdAt.toISOString(), last_used_at: token.lastUsedAt?.toISOString() ?? null }
    : null;
}

/** The user object of the spec (shell §3) as auth/user/ returns it. */
export async function userDetails(db: Db, user: UserContext, session: SessionState) {
  const [row] = await db.select().from(users).where(eq(users.id, user.id));
  const authToken = await ownApiToken(db, user.id);
  const [restrictions] = user.isDelegated
    ? await db.select().from(delegationRestrictions).where(eq(delegationRestrictions.userId, user.id))
    : [];
  const [customStyle] = row?.customStyleId ? await db.select().from(styles).where(eq(styles.id, row.customStyleId)) : [];
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    email: user.email,
    auth_token: authToken,
    permissions: user.permissions,
    feature_flags: user.featureFlags,
    groups: user.groups,
    is_staff: user.isStaff,
    is_superuser: user.isSuperuser,
    is_delegated: user.isDelegated,
    is_2fa_verified: session.status === "LOGGED_IN",
    has_consented: user.hasConsented,
    can_change_own_group: user.canChangeOwnGroup,
    custom_style: customStyle
      ? {
          id: customStyle.id,
          name: customStyle.name,
          company_name: customStyle.companyName,
          color_primary: customStyle.colorPrimary,
          color_secondary: customStyle.colorSecondary,
          color_tertiary: customStyle.colorTertiary,
          company_logo: customStyle.companyLogo,
          font: customStyle.font,
          branded_footer: customStyle.brandedFooter,
          footer_links: customStyle.footerLinks,
        }
      : null,
    delegation_restrictions: restrictions
      ? {
          flows_views_restrictions: restrictions.flowsViewsRestrictions,
          external_links_views_restrictions: restrictions.externalLinksViewsRestrictions,
        }
      : null,
    override_clickhouse_db: row?.overrideClickhouseDb ?? null,
    override_clickhouse_raw_flow_db: row?.overrideClickhouseRawFlowDb ?? null,
    session_status: session.status,
  };
}
