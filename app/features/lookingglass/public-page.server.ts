/**
 * The public Looking Glass page's loader, shared by its routes: /public/lookingglass in the
 * analytics deployment (while the site setting public_looking_glass_enabled is on) and, in the
 * public-lg deployment (APP_VARIANT=public-lg), the site's root.
 */
import { data } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { siteSettings } from "~db/postgres/schema";
import { publicLookingGlassEnabled } from "~/features/routing/lookingglass.server";
import { getRequestContext } from "~/server/auth/guard.server";
import { PAGE_CACHE_HEADER, PAGE_CACHE_PUBLIC } from "~/server/public-page-cache.server";
import { requestStyle } from "~/server/site-style.server";
import { loadLookingGlassPage, type LookingGlassPage } from "./page.server";
import { parsePlainTableState } from "./plain-table";

/**
 * Whether every anonymous visitor of this URL would see this page for the next minute: the form,
 * an answer or a deterministic input error — not ping/traceroute jobs (each visitor's own), nor a
 * rate-limit notice or a failure (they must not outlive their moment).
 */
export function shareablePage(page: Pick<LookingGlassPage, "jobs" | "refreshUrl" | "run">): boolean {
  return page.jobs.length === 0 && page.refreshUrl === null && ["IDLE", "COMPLETED", "NO_DATA"].includes(page.run.status);
}

export async function loadPublicLookingGlass(request: Request) {
  const { services } = await getRequestContext(request);
  if (!(await publicLookingGlassEnabled(services))) throw new Response("Not Found", { status: 404 });
  const url = new URL(request.url);
  const [style, settings, page] = await Promise.all([
    requestStyle(request, services.pg.db, null),
    services.pg.db.select({ asName: siteSettings.asNameOfDeployment }).from(siteSettings).where(eq(siteSettings.id, 1)),
    loadLookingGlassPage(services, { variant: "public", url, request, user: null }),
  ]);
  const asNameOfDeployment = settings[0]?.asName ?? "";
  const headers = shareablePage(page) ? { [PAGE_CACHE_HEADER]: PAGE_CACHE_PUBLIC } : undefined;
  return data(
    {
      page,
      style: {
        companyName: style.companyName,
        companyLogo: style.companyLogo,
        font: style.font,
        brandedFooter: style.brandedFooter,
        footerLinks: style.footerLinks,
        colorTertiary: style.colorTertiary,
      },
      asNameOfDeployment,
      title: asNameOfDeployment.trim() || style.companyName,
      tableState: parsePlainTableState(url.searchParams, "public"),
    },
    { headers },
  );
}
/** What the page renders: the loader's body without its response headers. */
export type PublicLookingGlassData = Awaited<ReturnType<typeof loadPublicLookingGlass>>["data"];
