import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { SiteSettingsForbidden } from "~/features/settings/ui/SiteSettingsView";
import { UsageReportView } from "~/features/settings/ui/UsageReportView";
import { loadUsageReportScreen } from "~/server/usage-report.server";
import { requireSiteAdmin } from "~/server/settings/site-settings-screen.server";

/**
 * /site-settings/usage: staff and superusers see which screens and named actions were used per week
 * (events and distinct users), from the usage tracking of the users who gave consent.
 */

export const meta: MetaFunction = () => [{ title: "Usage · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services } = await requireSiteAdmin(request);
  return loadUsageReportScreen(services, new URL(request.url));
}

export default function UsageReport() {
  return <UsageReportView data={useLoaderData<typeof loader>()} />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403) return <SiteSettingsForbidden />;
  throw error;
}
