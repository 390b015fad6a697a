import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { loadExplorer, outputOf } from "~/features/flows/explorer.server";
import { ExplorerView } from "~/features/flows/ui/ExplorerView";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";
import { MODERN_BROWSER_HANDLE } from "~/lib/browser-support";
import { ToolError } from "~/components/ToolError";

const TITLE = "AS Flows Egress";
const PATH = "/as-flows-egress";

/** Charts, pickers and tables need a supported browser: the incompatible-browser warning shows here. */
export const handle = MODERN_BROWSER_HANDLE;

export const meta: MetaFunction = () => [{ title: `${TITLE} · flowlens` }];

/**
 * Traffic leaving the network (handover AS = the operator, next-hop AS a neighbour): the Flow
 * Explorer restricted to egress traffic, offering the egress and direction-free dimensions.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  const url = new URL(request.url);
  return loadExplorer(services, user, url, { scope: "EGRESS", output: outputOf(url) });
}

export default function AsFlowsEgress() {
  return <ExplorerView data={useLoaderData<typeof loader>()} title={TITLE} path={PATH} />;
}

export function ErrorBoundary() {
  return <ToolError error={useRouteError()} title={TITLE} path={PATH} startLabel="the default view" />;
}
