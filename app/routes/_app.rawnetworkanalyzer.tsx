import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";

/** /rawnetworkanalyzer: the spec's alias of the Raw Network Analyzer; redirects to /rna keeping the search params. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, findToolRoute("/rawnetworkanalyzer"));
  return redirect(`/rna${new URL(request.url).search}`);
}
