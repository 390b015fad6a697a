import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";

export class TestError extends Error {
  constructor() {
    super("Test error raised on purpose by the error test endpoint.");
    this.name = "TestError";
  }
}

/** GET api/error/{secret}/: raises a server error on purpose (to test reporting); 404 unless the secret matches. */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "session",
    handler: async ({ context, params }) => {
      const secret = context.services.config.ERROR_PAGE_SECRET;
      if (!secret || params.secret !== secret) return apiError(404, "Not found.");
      throw new TestError();
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
