import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { ToolError } from "~/components/ToolError";
import { TAG_LIST_PATH as PATH } from "~/features/tags/tag-list-params";
import { loadTagList, saveTagList } from "~/features/tags/tag-list-screen.server";
import { TagListView } from "~/features/tags/ui/TagListView";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";

const TITLE = "Tag list";

export const meta: MetaFunction = () => [{ title: `${TITLE} · flowlens` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  return loadTagList(services, user, new URL(request.url));
}

export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  return saveTagList(services, user, request);
}

export default function TagList() {
  return <TagListView data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  return <ToolError error={useRouteError()} title={TITLE} path={PATH} startLabel="the list" />;
}
