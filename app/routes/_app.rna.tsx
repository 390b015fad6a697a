import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { loadRnaScreen } from "~/features/rna/screen.server";
import { RnaView } from "~/features/rna/ui/RnaView";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";
import { MODERN_BROWSER_HANDLE } from "~/lib/browser-support";
import { ToolError } from "~/components/ToolError";

const TITLE = "Raw Network Analyzer";
const PATH = "/rna";

/** Charts, pickers and tables need a supported browser: the incompatible-browser warning shows here. */
export const handle = MODERN_BROWSER_HANDLE;

export const meta: MetaFunction = () => [{ title: `${TITLE} · flowlens` }];

/** Everything is computed here from the URL, so a deep link (a 'Show in RNA' tab) renders fully without JavaScript. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  return loadRnaScreen(services, user, new URL(request.url));
}

export default function RawNetworkAnalyzer() {
  return <RnaView data={useLoaderData<typeof loader>()} path={PATH} />;
}

export function ErrorBoundary() {
  return <ToolError error={useRouteError()} title={TITLE} path={PATH} startLabel="the default view" />;
}
