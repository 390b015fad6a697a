import { z } from "zod";
import { errorReports } from "~db/postgres/schema";
import { endpoint, resourceRoute } from "~/server/api/contract.server";
import { log } from "~/server/log.server";

const Report = z.object({
  message: z.string().trim().min(1, "required").max(2000),
  stacktrace: z.string().max(20_000).default(""),
  url: z.string().max(2000).default(""),
});

/** POST api/error_report/: a client-side error, kept for the operators of the installation. */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "session",
    body: Report,
    handler: async ({ context, body, user }) => {
      await context.services.pg.db.insert(errorReports).values({ userId: user?.id ?? null, ...body });
      log.warn(`client error reported: ${body.message} at ${body.url}`);
      return { status: "ok" };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
