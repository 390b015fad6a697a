import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { dataSourcesAction, loadDataSourcesScreen } from "~/features/collector/data-sources/data-sources-screen.server";
import { DataSourcesView } from "~/features/collector/data-sources/ui/DataSourcesView";
import { readProtectedForm } from "~/server/auth/guard.server";
import { clientAddress } from "~/server/auth/session.server";
import { requireSiteAdmin } from "~/server/settings/site-settings-screen.server";

/**
 * /site-settings/data-sources: staff and superusers see the flow collector's listeners, every
 * exporter's figures, the exporters not in the inventory yet (to adopt), the SNMP polls, and
 * confirm a capacity a device reports that differs from the inventory's (the only change here).
 */

export const meta: MetaFunction = () => [{ title: "Data sources · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireSiteAdmin(request);
  return loadDataSourcesScreen(services, user, new Date(), new URL(request.url));
}

export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireSiteAdmin(request);
  return dataSourcesAction(services, user, await readProtectedForm(request), clientAddress(request));
}

export default function DataSources() {
  return <DataSourcesView data={useLoaderData<typeof loader>()} />;
}
