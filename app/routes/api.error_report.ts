import { z } from "zod";
import { multiLineText, singleLineText } from "~/lib/input-fields";
import { apiError, endpoint, resourceRoute } from "~/server/api/contract.server";
import { raiseAlert } from "~/server/alerts.server";
import { clientAddress } from "~/server/auth/session.server";
import { errorReportLimiter } from "~/server/error-report-limit.server";
import { keepErrorReport } from "~/server/error-reports.server";
import { log, logValue } from "~/server/log.server";

export const errorReportBodySchema = z.object({
  message: multiLineText(2000).trim().min(1, "required"),
  stacktrace: multiLineText(20_000).default(""),
  url: singleLineText(2000).default(""),
});

/** POST api/error_report/: a client-side error, kept for the operators of the installation (throttled: error-report-limit.server). */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: "session",
    body: errorReportBodySchema,
    handler: async ({ request, context, body, user }) => {
      const decision = errorReportLimiter.take(user ? `user:${user.id}` : clientAddress(request));
      if (!decision.allowed) {
        const response = apiError(429, `Too many error reports. Please try again in ${decision.retryAfterSeconds} seconds.`);
        response.headers.set("Retry-After", String(decision.retryAfterSeconds));
        return response;
      }
      await keepErrorReport(context.services.pg.db, user?.id ?? null, body);
      raiseAlert(context.services.pg.db, context.services.config, {
        kind: "client error",
        message: body.message,
        url: body.url,
        host: new URL(request.url).host,
      });
      log.warn(`client error reported: ${logValue(body.message)} at ${logValue(body.url, 200)}`);
      return { status: "ok" };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
