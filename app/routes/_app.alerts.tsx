import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { ToolError } from "~/components/ToolError";
import { ALERTS_PATH as PATH } from "~/features/alerts/params";
import { loadAlerts, saveAlerts } from "~/features/alerts/screen.server";
import { AlertsView } from "~/features/alerts/ui/AlertsView";
import { rootCauseRowHref } from "~/features/flows/rootcause/link";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";

const TITLE = "Alerts";

export const meta: MetaFunction = () => [{ title: `${TITLE} · flowlens` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  return loadAlerts(services, user, new URL(request.url), rootCauseRowHref);
}

export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  return saveAlerts(services, user, request);
}

export default function Alerts() {
  return <AlertsView data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  return <ToolError error={useRouteError()} title={TITLE} path={PATH} startLabel="the list" />;
}
