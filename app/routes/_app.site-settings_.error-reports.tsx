import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { SiteSettingsForbidden } from "~/features/settings/ui/SiteSettingsView";
import { ErrorReportsView } from "~/features/settings/ui/ErrorReportsView";
import { readProtectedForm } from "~/server/auth/guard.server";
import { errorReportsAction, loadErrorReportsScreen } from "~/server/error-reports.server";
import { requireSiteAdmin } from "~/server/settings/site-settings-screen.server";

/**
 * /site-settings/error-reports: staff and superusers see the client error reports grouped by
 * message (first and last seen, count, URL paths, release) and mark a group as handled.
 */

export const meta: MetaFunction = () => [{ title: "Error reports · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireSiteAdmin(request);
  return loadErrorReportsScreen(services, user, new URL(request.url));
}

export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireSiteAdmin(request);
  return errorReportsAction(services, user, await readProtectedForm(request));
}

export default function ErrorReports() {
  return <ErrorReportsView data={useLoaderData<typeof loader>()} />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403) return <SiteSettingsForbidden />;
  throw error;
}
