import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SupportFormView } from "~/features/help/ui/SupportFormView";
import { readProtectedForm, requireUser } from "~/server/auth/guard.server";
import { supportFormAction, supportFormScreen } from "~/server/support-messages.server";

/** /support: any logged-in user writes to support (reached from the FAQ and the error pages). Stored, and mailed to SUPPORT_EMAIL when set. */

export const meta: MetaFunction = () => [{ title: "Contact support · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return supportFormScreen(new URL(request.url));
}

export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireUser(request);
  return supportFormAction(services.pg.db, user, await readProtectedForm(request));
}

export default function Support() {
  return <SupportFormView data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}
