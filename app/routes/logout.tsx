import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getRequestContext } from "~/server/auth/guard.server";
import { destroySession } from "~/server/auth/session.server";

async function logout(request: Request) {
  const { services, session } = await getRequestContext(request);
  const headers = await destroySession(services.pg.db, services.config.sessionSecret, request, session.idHash);
  const reason = new URL(request.url).searchParams.get("reason");
  return redirect(reason === "no-permissions" ? "/login?reason=no-permissions" : "/login", { headers });
}

export const loader = ({ request }: LoaderFunctionArgs) => logout(request);
export const action = ({ request }: ActionFunctionArgs) => logout(request);
