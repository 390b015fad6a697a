import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadDataSourcesScreen } from "~/features/collector/data-sources/data-sources-screen.server";
import { DataSourcesView } from "~/features/collector/data-sources/ui/DataSourcesView";
import { requireSiteAdmin } from "~/server/settings/site-settings-screen.server";

/**
 * /site-settings/data-sources: staff and superusers see the flow collector's listeners, every
 * exporter's figures, and the exporters not in the inventory yet, to adopt. Read only.
 */

export const meta: MetaFunction = () => [{ title: "Data sources · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireSiteAdmin(request);
  return loadDataSourcesScreen(services, user);
}

export default function DataSources() {
  return <DataSourcesView data={useLoaderData<typeof loader>()} />;
}
