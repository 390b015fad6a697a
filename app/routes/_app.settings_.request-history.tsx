import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { Alert } from "@mantine/core";
import { RequestHistoryView } from "~/features/settings/ui/RequestHistoryView";
import { MESSAGES } from "~/lib/messages";
import { requireUser } from "~/server/auth/guard.server";

/**
 * /settings/request-history: the developer panel, for holders of DEVELOPER_API_TOKEN. The calls
 * themselves are kept by the browser tab (app/lib/request-history.ts); the server decides who may
 * open the panel.
 */

export const meta: MetaFunction = () => [{ title: "Request history · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  if (!user.permissions.includes("DEVELOPER_API_TOKEN")) throw data({ detail: MESSAGES.permissionDenied }, { status: 403 });
  return { ok: true };
}

export default function RequestHistory() {
  return <RequestHistoryView />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403)
    return (
      <Alert color="red" title="Request history" role="alert">
        The request history is for users who may create API tokens. {MESSAGES.permissionDenied}
      </Alert>
    );
  throw error;
}
