/** The OpenAPI description of api/alerts/ (an extension of the spec, docs/alerts.md), handed to the catalogue by app/wiring.server.ts. */
import { arr, bool, int, nullable, num, obj, str, type Operation } from "~/server/api/openapi.server";
import { alertEventsQuerySchema, alertRuleActionSchema, alertRuleBodySchema } from "./request-schema";

const state = obj({
  status: { enum: ["OK", "Triggered", "Resolved", "No data"] },
  since: nullable(int),
  lastBucket: nullable(int),
  breachSince: nullable(int),
  crossingValue: nullable(num),
  triggeredAt: nullable(int),
  resolvedAt: nullable(int),
  acknowledgedAt: nullable(int),
  acknowledgedBy: nullable(str),
  silencedUntil: nullable(int),
});

const rule = obj({
  id: int,
  ownerId: int,
  name: str,
  view: obj({ dimension: str, filter: arr(str), ipVersion: { enum: ["all", "4", "6"] }, value: nullable(str) }),
  metric: { enum: ["bps", "pps"] },
  condition: { enum: ["above", "below", "outside_band"] },
  threshold: nullable(num),
  bandFactor: nullable(num),
  minDurationSeconds: int,
  hysteresis: num,
  severity: { enum: ["info", "warning", "critical"] },
  recipients: obj({ userIds: arr(int), groupIds: arr(int), emails: arr(str), webhook: nullable({ enum: ["main", "test"] }) }),
  enabled: bool,
  state,
});

const event = obj({
  id: int,
  ruleId: int,
  from: str,
  to: str,
  bucketStart: int,
  at: int,
  value: nullable(num),
  limit: nullable(num),
  notified: bool,
});

const idParam = "The rule's id; a rule the caller does not see is a 404.";
const EXTENSION = "An extension of the spec (docs/alerts.md); times are unix seconds.";

export const ALERTS_OPERATIONS: Operation[] = [
  {
    file: "api.alerts.rules.ts",
    method: "GET",
    path: "/api/alerts/rules/",
    summary: "The alert rules the caller sees, each with its state (a delegated account: its own rules only).",
    description: EXTENSION,
    access: { permission: "VIEW_ALERTS" },
    response: obj({ rules: arr(rule) }),
  },
  {
    file: "api.alerts.rules.ts",
    method: "POST",
    path: "/api/alerts/rules/",
    summary: "Creates an alert rule owned by the caller: a Flow Explorer view plus a condition; 201 with the rule.",
    description: `${EXTENSION} The view must be readable by the caller (a delegated account: inside its restriction), else a 400 naming view; threshold for above/below, bandFactor for outside_band.`,
    access: { permission: "MANAGE_ALERTS", also: ["VIEW_ALERTS"] },
    body: alertRuleBodySchema,
    response: rule,
  },
  {
    file: "api.alerts.rules.$id.ts",
    method: "GET",
    path: "/api/alerts/rules/{id}/",
    summary: "One alert rule with its state.",
    description: `${EXTENSION} ${idParam}`,
    access: { permission: "VIEW_ALERTS" },
    response: rule,
  },
  {
    file: "api.alerts.rules.$id.ts",
    method: "PUT",
    path: "/api/alerts/rules/{id}/",
    summary: "Replaces an alert rule; its state starts again from OK, its history stays.",
    description: `${EXTENSION} ${idParam}`,
    access: { permission: "MANAGE_ALERTS", also: ["VIEW_ALERTS"] },
    body: alertRuleBodySchema,
    response: rule,
  },
  {
    file: "api.alerts.rules.$id.ts",
    method: "PATCH",
    path: "/api/alerts/rules/{id}/",
    summary:
      "Acknowledges a triggered rule ({action: acknowledge}; 409 when it is not triggered) or silences it ({action: silence, seconds}, 0 ends a silence).",
    description: `${EXTENSION} ${idParam}`,
    access: { permission: "MANAGE_ALERTS", also: ["VIEW_ALERTS"] },
    body: alertRuleActionSchema,
    response: rule,
  },
  {
    file: "api.alerts.rules.$id.ts",
    method: "DELETE",
    path: "/api/alerts/rules/{id}/",
    summary: "Deletes an alert rule with its state and history; 204.",
    description: `${EXTENSION} ${idParam}`,
    access: { permission: "MANAGE_ALERTS", also: ["VIEW_ALERTS"] },
    response: obj({}),
  },
  {
    file: "api.alerts.events.ts",
    method: "GET",
    path: "/api/alerts/events/",
    summary: "The alert history, newest first: each transition with its bucket, time, value, limit and whether it was told.",
    description: `${EXTENSION} rule: one rule's history (404 when the caller does not see it); limit 1–500 (100).`,
    access: { permission: "VIEW_ALERTS" },
    query: alertEventsQuerySchema,
    response: obj({ events: arr(event) }),
  },
];
