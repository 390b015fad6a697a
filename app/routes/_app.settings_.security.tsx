import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SecurityView } from "~/features/settings/ui/SecurityView";
import { requireUser } from "~/server/auth/guard.server";
import { loadSecurityScreen, saveSecurityScreen } from "~/server/auth/security-screen.server";
import { neverCachedHeaders } from "~/server/security-headers.server";

/** /settings/security: the user's two-factor devices, the voluntary 2FA switch and recovery codes. */

export const meta: MetaFunction = () => [{ title: "Security · flowlens" }];

/** Secrets and recovery codes are shown here: never cached. */
export const headers = neverCachedHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request);
  return loadSecurityScreen(services, user);
}

export async function action({ request }: ActionFunctionArgs) {
  return saveSecurityScreen(request);
}

export default function SecuritySettings() {
  return <SecurityView data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}
