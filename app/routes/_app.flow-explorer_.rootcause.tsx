import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { loadRootCauseScreen } from "~/features/flows/rootcause/screen.server";
import { RootCauseView } from "~/features/flows/ui/RootCauseView";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";
import { ToolError } from "~/components/ToolError";

const TITLE = "Root-cause analysis";
const PATH = "/flow-explorer";

export const meta: MetaFunction = () => [{ title: `${TITLE} · flowlens` }];

/** The Flow Explorer's analysis sub-view: computed from the URL, so it renders fully without JavaScript. */
export async function loader({ request }: LoaderFunctionArgs) {
  // The Flow Explorer's permission; never a delegated account (the analysis reads the whole network's routing).
  const explorer = findToolRoute(PATH);
  const { services, user } = await requireUser(request, explorer && { ...explorer, notForDelegated: true });
  return loadRootCauseScreen(services, user, new URL(request.url));
}

export default function RootCause() {
  return <RootCauseView data={useLoaderData<typeof loader>()} explorerHref={PATH} />;
}

export function ErrorBoundary() {
  return <ToolError error={useRouteError()} title={TITLE} path={`${PATH}/rootcause`} startLabel="an empty analysis" />;
}
