import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { loadExplorer, outputOf } from "~/features/flows/explorer.server";
import { ExplorerView } from "~/features/flows/ui/ExplorerView";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";
import { MODERN_BROWSER_HANDLE } from "~/lib/browser-support";
import { ToolError } from "~/components/ToolError";

const TITLE = "Flow Explorer";
const PATH = "/flow-explorer";

/** Charts, pickers and tables need a supported browser: the incompatible-browser warning shows here. */
export const handle = MODERN_BROWSER_HANDLE;

export const meta: MetaFunction = () => [{ title: `${TITLE} · flowlens` }];

/** Everything is computed here from the URL, so a deep link renders fully before (or without) JavaScript. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  const url = new URL(request.url);
  return loadExplorer(services, user, url, { output: outputOf(url) });
}

export default function FlowExplorer() {
  return <ExplorerView data={useLoaderData<typeof loader>()} title={TITLE} path={PATH} />;
}

export function ErrorBoundary() {
  return <ToolError error={useRouteError()} title={TITLE} path={PATH} startLabel="the default view" />;
}
