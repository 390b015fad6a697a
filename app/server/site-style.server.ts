import { eq } from "drizzle-orm";
import { siteSettings, styles, users } from "~db/postgres/schema";
import { DEFAULT_COLORS } from "~/lib/colors";
import type { Db } from "./postgres.server";
import { oncePerRequest } from "./request-scope.server";

export type SiteStyle = {
  companyName: string;
  colorPrimary: string;
  colorSecondary: string;
  colorTertiary: string;
  companyLogo: string | null;
  font: string;
  brandedFooter: boolean;
  footerLinks: { id: number; link: string; text: string }[];
};

export const FALLBACK_STYLE: SiteStyle = {
  companyName: "flowlens",
  colorPrimary: DEFAULT_COLORS.primary,
  colorSecondary: DEFAULT_COLORS.secondary,
  colorTertiary: DEFAULT_COLORS.tertiary,
  companyLogo: null,
  font: "default",
  brandedFooter: false,
  footerLinks: [],
};

/** resolveStyle for a request's page, read once for its root loader and its frame (`null`: the site default). */
export function requestStyle(request: Request, db: Db, userId: number | null): Promise<SiteStyle> {
  return oncePerRequest(request, `style ${userId ?? "site"}`, () => resolveStyle(db, userId));
}

/** The style a page is drawn with: the user's personal override if any, else the site default. */
export async function resolveStyle(db: Db, userId: number | null): Promise<SiteStyle> {
  let styleId: number | null = null;
  if (userId !== null) {
    const [user] = await db.select({ customStyleId: users.customStyleId }).from(users).where(eq(users.id, userId));
    styleId = user?.customStyleId ?? null;
  }
  if (styleId === null) {
    const [settings] = await db.select({ defaultStyleId: siteSettings.defaultStyleId }).from(siteSettings).where(eq(siteSettings.id, 1));
    styleId = settings?.defaultStyleId ?? null;
  }
  if (styleId === null) return FALLBACK_STYLE;
  const [style] = await db.select().from(styles).where(eq(styles.id, styleId));
  if (!style) return FALLBACK_STYLE;
  return {
    companyName: style.companyName,
    colorPrimary: style.colorPrimary,
    colorSecondary: style.colorSecondary,
    colorTertiary: style.colorTertiary,
    companyLogo: style.companyLogo,
    font: style.font,
    brandedFooter: style.brandedFooter,
    footerLinks: style.footerLinks,
  };
}
