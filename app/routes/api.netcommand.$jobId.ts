import { requestOwner, requireNetcommandScope } from "~/features/netcommand/access.server";
import { readNetcommandJob } from "~/features/netcommand/jobs.server";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * GET api/netcommand/{jobId}/: {state, result} of one's own job. Someone else's job answers 404
 * like a missing one, so a job id alone reveals nothing.
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "public",
    handler: async ({ request, params, context, user }) => {
      await requireNetcommandScope(context, user);
      const { owner } = requestOwner(request, user);
      const job = await readNetcommandJob(context.services, params.jobId ?? "", owner);
      if (!job) return apiError(404, "Job not found.");
      return Response.json(job, { headers: { "Cache-Control": "no-store" } });
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
