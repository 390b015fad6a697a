import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { ToolError } from "~/components/ToolError";
import { loadMappingsScreen, saveMappingsScreen } from "~/features/mappings/mappings-screen.server";
import { MAPPING_SCREENS } from "~/features/mappings/params";
import { MappingsView } from "~/features/mappings/ui/MappingsView";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";

/** /mappings/infrastructures (menu "Infrastructures"): names and colours of infrastructures per layer; plain tables and POST forms, so it works without JavaScript. */
const SCREEN = MAPPING_SCREENS.infrastructures;

export const meta: MetaFunction = () => [{ title: `${SCREEN.title} · flowlens` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(SCREEN.path));
  return loadMappingsScreen(services, user, SCREEN, request);
}

export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(SCREEN.path));
  return saveMappingsScreen(services, user, SCREEN, request);
}

export default function Infrastructures() {
  return <MappingsView data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  return <ToolError error={useRouteError()} title={SCREEN.title} path={SCREEN.path} startLabel="the list" />;
}
