import { z } from "zod";
import { controlPlaneQuery } from "~/features/routing/controlplane.server";
import { inputProblem, LookingGlassInputError } from "~/features/routing/lookingglass.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/** Unix seconds, as a JSON number or a string of digits. */
const unixSeconds = z.preprocess(
  (v) => (typeof v === "string" && /^\d{1,12}$/.test(v.trim()) ? Number(v.trim()) : v),
  z
    .number({ error: "Enter unix seconds." })
    .int("Enter whole unix seconds.")
    .min(0, "Enter unix seconds.")
    .max(253_402_300_799, "Enter a date before the year 10000."),
);

const bodySchema = z.object({
  queryTerm: z.string().max(200, "At most 200 characters."),
  queryType: z.string().min(1, "Choose a query type."),
  startDate: unixSeconds,
  endDate: unixSeconds,
  /** The routing tables: absent or "default" for post-policy and Loc-RIB, else pre-policy, post-policy or loc-rib. */
  ribView: z.string().max(40, "At most 40 characters.").nullish(),
});

/**
 * POST api/controlplane/ (CONTROL_PLANE): the routing history of [startDate, endDate] selected by
 * an AS path pattern or an IP address / prefix, in the tables `ribView` names (default: post-policy
 * and Loc-RIB) → {data: {data: [rows], results_limit, results_maximum, queryTerm, ribView}}.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "CONTROL_PLANE" },
    body: bodySchema,
    handler: async ({ context, body }) => {
      try {
        return { data: await controlPlaneQuery(context.services, body) };
      } catch (error) {
        if (error instanceof LookingGlassInputError) throw inputProblem(error);
        throw error;
      }
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
