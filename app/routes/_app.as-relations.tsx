import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { loadAsRelationsScreen } from "~/features/asrelations/screen.server";
import { transitPricesFor } from "~/features/revenues/transit-prices.server";
import { AsRelationsView } from "~/features/asrelations/ui/AsRelationsView";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";
import { MODERN_BROWSER_HANDLE } from "~/lib/browser-support";
import { ToolError } from "~/components/ToolError";

const TITLE = "AS Relations";
const PATH = "/as-relations";

/** An interactive table: the incompatible-browser warning shows here. */
export const handle = MODERN_BROWSER_HANDLE;

export const meta: MetaFunction = () => [{ title: `${TITLE} · flowlens` }];

/** Everything is computed here from the URL (month, asn), so the screen renders fully without JavaScript. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  // The peering candidates price transit traffic with Revenues & Costs' bills (for a viewer who may see them).
  return loadAsRelationsScreen(services, user, new URL(request.url), { prices: transitPricesFor(services, user) });
}

export default function AsRelations() {
  return <AsRelationsView data={useLoaderData<typeof loader>()} path={PATH} />;
}

export function ErrorBoundary() {
  return <ToolError error={useRouteError()} title={TITLE} path={PATH} startLabel="the default view" />;
}
