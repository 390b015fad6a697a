import { ApiProblem, endpoint, resourceRoute } from "~/server/api/contract.server";
import { userDetails } from "~/server/auth/user-details.server";

/** GET auth/user/: the logged-in user with permissions, flags, restrictions and session status. */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "session",
    handler: async ({ context }) => {
      const { session, services } = context;
      if (!session.user || session.status !== "LOGGED_IN") {
        throw new ApiProblem(403, {
          detail:
            session.status === "PENDING_2FA" ? "Two-factor authentication is pending." : "Authentication credentials were not provided.",
          exception_code: "not_authenticated",
          ...({ session_status: session.status } as object),
        });
      }
      return userDetails(services.pg.db, session.user, session);
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
