import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { loadInventoryScreen, saveInventoryScreen } from "~/features/inventory/inventory-screen.server";
import { InventoryView } from "~/features/inventory/ui/InventoryView";
import { requireSiteAdmin } from "~/server/settings/site-settings-screen.server";

/**
 * /site-settings/inventory: staff and superusers edit the network inventory (routers with their
 * exporters, SNMP and SSH settings; interfaces; vantage points). Plain tables and POST forms, so it
 * works without JavaScript; the same service as `npm run inventory`.
 */

export const meta: MetaFunction = () => [{ title: "Network inventory · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services } = await requireSiteAdmin(request);
  return loadInventoryScreen(services, request);
}

export async function action({ request }: ActionFunctionArgs) {
  const { services } = await requireSiteAdmin(request);
  return saveInventoryScreen(services, request);
}

export default function Inventory() {
  return <InventoryView data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}
