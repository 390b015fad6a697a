import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { firstAvailableRoute } from "~/lib/routes";
import { getRequestContext, userMenu } from "~/server/auth/guard.server";

/** "/" shows login, or sends a logged-in user to their first available route. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { services, session } = await getRequestContext(request);
  if (session.status === "LOGGED_IN" && session.user) {
    const landing = firstAvailableRoute(await userMenu(services, session.user));
    throw redirect(landing ?? "/logout?reason=no-permissions");
  }
  const search = new URL(request.url).search;
  throw redirect(`/login${search}`);
}
