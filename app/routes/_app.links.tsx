import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";

/** /links: the old name of the Core Planner; redirects there keeping the search params. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, findToolRoute("/links"));
  return redirect(`/core-planner${new URL(request.url).search}`);
}
