import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { ToolError } from "~/components/ToolError";
import { USERS_PATH as PATH } from "~/features/users/params";
import { loadUsersScreen, saveUsersScreen } from "~/features/users/users-screen.server";
import { UsersView } from "~/features/users/ui/UsersView";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";

const TITLE = "Users";

export const meta: MetaFunction = () => [{ title: `${TITLE} · flowlens` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  return loadUsersScreen(services, user, new URL(request.url));
}

export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  return saveUsersScreen(services, user, request);
}

export default function Users() {
  return <UsersView data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  return <ToolError error={useRouteError()} title={TITLE} path={PATH} startLabel="the list" />;
}
