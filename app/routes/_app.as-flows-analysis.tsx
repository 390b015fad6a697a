import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { loadAsFlowsAnalysis } from "~/features/flows/analysis.server";
import { AnalysisView } from "~/features/flows/ui/AnalysisView";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";
import { MODERN_BROWSER_HANDLE } from "~/lib/browser-support";
import { ToolError } from "~/components/ToolError";

const PATH = "/as-flows-analysis";
const TITLE = "AS Flows Analysis";

/** Charts, pickers and tables need a supported browser: the incompatible-browser warning shows here. */
export const handle = MODERN_BROWSER_HANDLE;

export const meta: MetaFunction = () => [{ title: `${TITLE} · flowlens` }];

/** Computed from the URL on the server, so a deep link (or a form sent without JavaScript) renders fully. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  return loadAsFlowsAnalysis(services, user, new URL(request.url));
}

export default function AsFlowsAnalysis() {
  return <AnalysisView data={useLoaderData<typeof loader>()} title={TITLE} path={PATH} />;
}

export function ErrorBoundary() {
  return <ToolError error={useRouteError()} title={TITLE} path={PATH} startLabel="the empty form" />;
}
