import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { loadRoutingDataScreen, routingDataAction } from "~/features/routing/routing-data-screen.server";
import { RoutingDataView } from "~/features/routing/ui/RoutingDataView";
import { requireSiteAdmin } from "~/server/settings/site-settings-screen.server";

/**
 * /site-settings/routing-data: staff and superusers upload MRT files (RIB dumps, BGP4MP updates;
 * gzip or bzip2) into the routing history of a vantage point (the same importer as
 * `npm run rib:import`), VRP files for RPKI route origin validation (as `npm run rpki:import`),
 * PeeringDB's JSON (as `npm run peeringdb:import`), and keep the community labels the private
 * Looking Glass shows. Works without JavaScript (plain forms
 * with an `intent`).
 */

export const meta: MetaFunction = () => [{ title: "Routing data · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const context = await requireSiteAdmin(request);
  return loadRoutingDataScreen(context, request);
}

export async function action({ request }: ActionFunctionArgs) {
  return routingDataAction(await requireSiteAdmin(request), request);
}

export default function RoutingData() {
  return <RoutingDataView data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}
