import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { contractAction } from "~/features/revenues/contracts-screen.server";
import { loadRevenuesScreen } from "~/features/revenues/screen.server";
import { RevenuesView } from "~/features/revenues/ui/RevenuesView";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";
import { ToolError } from "~/components/ToolError";

const TITLE = "Revenues & Costs";
const PATH = "/revenues-and-costs";

export const meta: MetaFunction = () => [{ title: `${TITLE} · flowlens` }];

/** The month's bills computed from the URL, so a deep link renders fully without JavaScript. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  return loadRevenuesScreen(services, user, new URL(request.url));
}

/** Contract changes (create, update, delete): MANAGE_CONTRACTS on top of the screen's permission. */
export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  return contractAction(services, user, request);
}

export default function RevenuesAndCosts() {
  return <RevenuesView data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} path={PATH} />;
}

export function ErrorBoundary() {
  return <ToolError error={useRouteError()} title={TITLE} path={PATH} startLabel="the current month" />;
}
