import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { getRequestContext, landingRoute } from "~/server/auth/guard.server";

/**
 * "/" shows login, or sends a logged-in user to their landing route. A public Looking Glass
 * deployment (APP_VARIANT=public-lg) opens on the Looking Glass itself, query kept.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { services, session } = await getRequestContext(request);
  if (services.config.APP_VARIANT === "public-lg") throw redirect(`/public/lookingglass${new URL(request.url).search}`);
  if (session.status === "LOGGED_IN" && session.user && session.user.hasConsented) {
    throw redirect(await landingRoute(services, session.user));
  }
  if (session.status === "LOGGED_IN" && session.user) throw redirect("/consent?next=%2F");
  const search = new URL(request.url).search;
  throw redirect(`/login${search}`);
}
