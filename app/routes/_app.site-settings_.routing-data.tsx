import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { loadRoutingDataScreen, routingDataAction } from "~/features/routing/routing-data-screen.server";
import { RoutingDataView } from "~/features/routing/ui/RoutingDataView";
import { requireSiteAdmin } from "~/server/settings/site-settings-screen.server";

/**
 * /site-settings/routing-data: staff and superusers upload MRT files (RIB dumps, BGP4MP updates;
 * gzip or bzip2) into the routing history of a vantage point. The same importer as
 * `npm run rib:import`; works without JavaScript (a plain multipart form). The community labels the
 * private Looking Glass shows are kept here too (plain POST forms with an `intent`).
 */

export const meta: MetaFunction = () => [{ title: "Routing data · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services } = await requireSiteAdmin(request);
  return loadRoutingDataScreen(services, request);
}

export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireSiteAdmin(request);
  return routingDataAction(services, user, request);
}

export default function RoutingData() {
  return <RoutingDataView data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}
