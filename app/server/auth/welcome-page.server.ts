import { eq } from "drizzle-orm";
import { siteSettings } from "~db/postgres/schema";
import type { Db } from "../postgres.server";
import { readDelegation } from "./delegation.server";
import type { UserContext } from "./user-context.server";

/** `text`: the account's own welcome text (paragraphs), written by whoever manages it; empty: the default text. */
export type WelcomePage = { flowViews: string[]; asNumbers: number[]; text: string };

/** The site setting welcome_page_enabled (shell §3): delegated accounts get the welcome page and its menu item. */
export async function welcomePageEnabled(db: Db): Promise<boolean> {
  const [settings] = await db.select({ welcome: siteSettings.welcomePageEnabled }).from(siteSettings).where(eq(siteSettings.id, 1));
  return settings?.welcome ?? false;
}

/** What the welcome page tells a delegated user about their restrictions; null when the page is not for them or switched off. */
export async function welcomePageFor(db: Db, user: Pick<UserContext, "id" | "isDelegated">): Promise<WelcomePage | null> {
  if (!user.isDelegated || !(await welcomePageEnabled(db))) return null;
  const restrictions = await readDelegation(db, user.id);
  return {
    flowViews: (restrictions?.flows ?? []).map((r) => `${r.dimension}: ${r.constrained_values.join(", ")}`),
    asNumbers: restrictions?.external.ASNumberList ?? [],
    text: restrictions?.welcomeText.trim() ?? "",
  };
}
