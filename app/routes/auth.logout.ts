import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { destroySession } from "~/server/auth/session.server";

/** POST auth/logout/: ends the session; clears the session and logged_in cookies. */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "session",
    handler: async ({ request, context }) => {
      const { services, session } = context;
      const headers = await destroySession(services.pg.db, services.config.sessionSecret, request, session.idHash);
      return Response.json({ status: "ANONYMOUS" }, { headers });
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
