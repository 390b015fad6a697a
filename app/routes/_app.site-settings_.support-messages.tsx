import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { SiteSettingsForbidden } from "~/features/settings/ui/SiteSettingsView";
import { SupportMessagesView } from "~/features/settings/ui/SupportMessagesView";
import { readProtectedForm } from "~/server/auth/guard.server";
import { requireSiteAdmin } from "~/server/settings/site-settings-screen.server";
import { loadSupportMessagesScreen, supportMessagesAction } from "~/server/support-messages.server";

/** /site-settings/support-messages: staff and superusers read the support messages, answer them by mail and mark them as done. */

export const meta: MetaFunction = () => [{ title: "Support messages · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireSiteAdmin(request);
  return loadSupportMessagesScreen(services, user, new URL(request.url));
}

export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireSiteAdmin(request);
  return supportMessagesAction(services, user, await readProtectedForm(request));
}

export default function SupportMessages() {
  return <SupportMessagesView data={useLoaderData<typeof loader>()} />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403) return <SiteSettingsForbidden />;
  throw error;
}
