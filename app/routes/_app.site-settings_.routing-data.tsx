import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { importRoutingData, loadRoutingDataScreen } from "~/features/routing/routing-data-screen.server";
import { RoutingDataView } from "~/features/routing/ui/RoutingDataView";
import { requireSiteAdmin } from "~/server/settings/site-settings-screen.server";

/**
 * /site-settings/routing-data: staff and superusers upload MRT files (RIB dumps, BGP4MP updates;
 * gzip or bzip2) into the routing history of a vantage point. The same importer as
 * `npm run rib:import`; works without JavaScript (a plain multipart form).
 */

export const meta: MetaFunction = () => [{ title: "Routing data · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services } = await requireSiteAdmin(request);
  return loadRoutingDataScreen(services);
}

export async function action({ request }: ActionFunctionArgs) {
  const { services } = await requireSiteAdmin(request);
  return importRoutingData(services, request);
}

export default function RoutingData() {
  return <RoutingDataView data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}
