import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SettingsView } from "~/features/settings/ui/SettingsView";
import { requireUser } from "~/server/auth/guard.server";
import { loadSettingsScreen, saveSettingsScreen } from "~/server/settings/settings-screen.server";

/**
 * /settings — the "Settings (user profile)" screen (shell §2 dialogs, §3 user_settings): timezone,
 * CSV delimiter, utilization thresholds, build-out settings and a personal style override. Works
 * as plain forms; with JavaScript the thresholds also save themselves (debounced 500 ms, §7/§9).
 */

export const meta: MetaFunction = () => [{ title: "Settings · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request);
  return loadSettingsScreen(services, user, new URL(request.url));
}

export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireUser(request);
  return saveSettingsScreen(services, user, request);
}

export default function SettingsPage() {
  return <SettingsView data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}
