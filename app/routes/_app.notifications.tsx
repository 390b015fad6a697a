import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { NotificationsView } from "~/features/notifications/ui/NotificationsView";
import { requireUser } from "~/server/auth/guard.server";
import { applyNotificationAction, loadNotificationsScreen } from "~/server/notifications/notifications-screen.server";

export const meta: MetaFunction = () => [{ title: "Notifications · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request);
  return loadNotificationsScreen(services, user, new URL(request.url));
}

/** The page's buttons: one form per action, so they work without JavaScript. */
export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireUser(request);
  return applyNotificationAction(services, user, request);
}

export default function Notifications() {
  return <NotificationsView data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}
