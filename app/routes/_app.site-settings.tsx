import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { SiteSettingsForbidden, SiteSettingsView } from "~/features/settings/ui/SiteSettingsView";
import { loadSiteSettingsScreen, requireSiteRole, saveSiteSettingsScreen } from "~/server/settings/site-settings-screen.server";

/**
 * /site-settings: staff and superusers edit every site setting and the whole default style;
 * moderators the default style's names and colours (shell §6). Anyone else gets a 403.
 */

export const meta: MetaFunction = () => [{ title: "Site settings · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadSiteSettingsScreen(await requireSiteRole(request), request);
}

export async function action({ request }: ActionFunctionArgs) {
  return saveSiteSettingsScreen(await requireSiteRole(request), request);
}

export default function SiteSettingsPage() {
  return <SiteSettingsView data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403) return <SiteSettingsForbidden />;
  throw error;
}
