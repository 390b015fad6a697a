import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { ToolError } from "~/components/ToolError";
import { DELEGATED_USERS_PATH as PATH } from "~/features/users/delegated-users/params";
import { loadDelegatedUsers, saveDelegatedUsers } from "~/features/users/delegated-users/delegated-users-screen.server";
import { DelegatedUsersView } from "~/features/users/delegated-users/ui/DelegatedUsersView";
import { restrictedTraffic } from "~/features/flows/restriction-preview.server";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";

const TITLE = "Delegated Users";

export const meta: MetaFunction = () => [{ title: `${TITLE} · flowlens` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  return loadDelegatedUsers(services, user, new URL(request.url));
}

export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  return saveDelegatedUsers(services, user, request, restrictedTraffic);
}

export default function DelegatedUsers() {
  return <DelegatedUsersView data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  return <ToolError error={useRouteError()} title={TITLE} path={PATH} startLabel="the list" />;
}
