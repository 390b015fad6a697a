import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { ToolError } from "~/components/ToolError";
import { loadMappingsScreen, saveMappingsScreen } from "~/features/mappings/mappings-screen.server";
import { MAPPING_SCREENS } from "~/features/mappings/params";
import { MappingsView } from "~/features/mappings/ui/MappingsView";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";

/** /mappings/as (menu "AS Mappings"): names and colours of ASes per layer and the application and infrastructure each serves; plain tables and POST forms. */
const SCREEN = MAPPING_SCREENS.as;

export const meta: MetaFunction = () => [{ title: `${SCREEN.title} · flowlens` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(SCREEN.path));
  return loadMappingsScreen(services, user, SCREEN, request);
}

export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(SCREEN.path));
  return saveMappingsScreen(services, user, SCREEN, request);
}

export default function AsMappings() {
  return <MappingsView data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  return <ToolError error={useRouteError()} title={SCREEN.title} path={SCREEN.path} startLabel="the list" />;
}
