import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";

/** /external-links: the old name of the Border Planner; redirects there keeping the search params. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, findToolRoute("/external-links"));
  return redirect(`/border-planner${new URL(request.url).search}`);
}
