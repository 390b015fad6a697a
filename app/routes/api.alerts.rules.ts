import { alertRuleBodySchema } from "~/features/alerts/request-schema";
import { createAlertRule, listAlertRules } from "~/features/alerts/rules.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * api/alerts/rules/ (an extension of the spec, docs/alerts.md):
 * GET → the alert rules the caller sees, each with its state (VIEW_ALERTS; a delegated account its own only);
 * POST → a new rule owned by the caller (MANAGE_ALERTS with VIEW_ALERTS); its view must be readable by the caller
 * (inside a delegated restriction): a 400 naming `view` otherwise.
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "VIEW_ALERTS" },
    handler: async ({ context, user }) => ({ rules: await listAlertRules(context.services.pg.db, user) }),
  }),
  POST: endpoint({
    method: "POST",
    access: { permission: "MANAGE_ALERTS", also: ["VIEW_ALERTS"] },
    body: alertRuleBodySchema,
    handler: async ({ context, user, body }) =>
      Response.json(await createAlertRule(context.services, user, body), { status: 201, headers: { "Cache-Control": "no-store" } }),
  }),
});

export const loader = route.loader;
export const action = route.action;
