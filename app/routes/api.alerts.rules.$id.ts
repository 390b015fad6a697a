import { alertIdParamsSchema, alertRuleActionSchema, alertRuleBodySchema } from "~/features/alerts/request-schema";
import { actOnAlertRule, deleteAlertRule, getAlertRule, updateAlertRule } from "~/features/alerts/rules.server";
import { endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * api/alerts/rules/{id}/ (an extension of the spec, docs/alerts.md): GET one rule with its state
 * (VIEW_ALERTS); PUT replaces it (its state starts again from OK), DELETE removes it with its
 * history, PATCH acknowledges or silences it (MANAGE_ALERTS with VIEW_ALERTS). A rule the caller
 * does not see (a delegated account: another account's) is a 404.
 */
const manage = { permission: "MANAGE_ALERTS", also: ["VIEW_ALERTS"] } as const;
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "VIEW_ALERTS" },
    params: alertIdParamsSchema,
    handler: async ({ context, user, params }) => getAlertRule(context.services.pg.db, user, params.id),
  }),
  PUT: endpoint({
    method: "PUT",
    access: manage,
    params: alertIdParamsSchema,
    body: alertRuleBodySchema,
    handler: async ({ context, user, params, body }) => updateAlertRule(context.services, user, params.id, body),
  }),
  PATCH: endpoint({
    method: "PATCH",
    access: manage,
    params: alertIdParamsSchema,
    body: alertRuleActionSchema,
    handler: async ({ context, user, params, body }) => actOnAlertRule(context.services.pg.db, user, params.id, body),
  }),
  DELETE: endpoint({
    method: "DELETE",
    access: manage,
    params: alertIdParamsSchema,
    handler: async ({ context, user, params }) => {
      await deleteAlertRule(context.services.pg.db, user, params.id);
      return new Response(null, { status: 204 });
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
