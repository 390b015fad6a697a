import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { getRequestContext, landingRoute } from "~/server/auth/guard.server";

/** "/" shows login, or sends a logged-in user to their landing route. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { services, session } = await getRequestContext(request);
  if (session.status === "LOGGED_IN" && session.user && session.user.hasConsented) {
    throw redirect(await landingRoute(services, session.user));
  }
  if (session.status === "LOGGED_IN" && session.user) throw redirect("/consent?next=%2F");
  const search = new URL(request.url).search;
  throw redirect(`/login${search}`);
}
