import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";

/** /as-flows: the old name of the Flow Explorer; redirects there keeping the search params. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, findToolRoute("/as-flows"));
  return redirect(`/flow-explorer${new URL(request.url).search}`);
}
