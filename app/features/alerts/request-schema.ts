/**
 * The request schemas of api/alerts/ (rules and events): one zod schema per body, the form on the
 * Alerts screen sends the same fields. Isomorphic.
 */
import { z } from "zod";
import { int32Id, int32IdText } from "~/lib/input-fields";
import { ALERT_SEVERITIES } from "~db/postgres/schema/alerts";
import { MAX_SILENCE_SECONDS } from "./state-machine";

const text = (max: number) => z.string().trim().min(1, "This field is required.").max(max, `At most ${max} characters.`);

export const alertViewSchema = z.object({
  dimension: text(64),
  filter: z.array(z.string().trim().max(2000)).max(50).default([]),
  ipVersion: z.enum(["all", "4", "6"]).default("all"),
  /** One value of the dimension, or null for the view's total. */
  value: z.string().trim().max(200).nullable().default(null),
});

export const alertRecipientsSchema = z.object({
  userIds: z.array(int32Id).max(100).default([]),
  groupIds: z.array(int32Id).max(100).default([]),
  emails: z.array(z.string().trim().email("Enter a valid e-mail address.").max(254)).max(20).default([]),
  /** One of the team-chat webhooks staff configured (ALERT_WEBHOOK_URL: main, ALERT_WEBHOOK_TEST_URL: test); never a URL. */
  webhook: z.enum(["main", "test"]).nullable().default(null),
});

export const alertRuleBodySchema = z
  .object({
    name: text(200),
    view: alertViewSchema,
    metric: z.enum(["bps", "pps"]),
    condition: z.enum(["above", "below", "outside_band"]),
    threshold: z.number().finite().min(0, "The threshold is a number of at least 0.").nullable().default(null),
    bandFactor: z
      .number()
      .finite()
      .gt(0, "The band factor is a number above 0 and at most 100.")
      .max(100, "The band factor is a number above 0 and at most 100.")
      .nullable()
      .default(null),
    minDurationSeconds: z.number().int("The minimum duration is a whole number of seconds from 0 to 86400.").min(0).max(86_400).default(0),
    hysteresis: z.number().min(0).lt(1, "The hysteresis is a fraction from 0 up to (not including) 1.").default(0),
    severity: z.enum(ALERT_SEVERITIES).default("warning"),
    recipients: alertRecipientsSchema.default({ userIds: [], groupIds: [], emails: [], webhook: null }),
    enabled: z.boolean().default(true),
  })
  .superRefine((b, ctx) => {
    if (b.condition === "outside_band" && b.bandFactor === null)
      ctx.addIssue({ code: "custom", path: ["bandFactor"], message: "A band rule needs its band factor." });
    if (b.condition !== "outside_band" && b.threshold === null)
      ctx.addIssue({ code: "custom", path: ["threshold"], message: "An above or below rule needs its threshold." });
  });
export type AlertRuleBody = z.infer<typeof alertRuleBodySchema>;

/** PATCH api/alerts/rules/{id}/: acknowledge the triggered rule, or silence it for `seconds` (0 ends a silence). */
export const alertRuleActionSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("acknowledge") }),
  z.object({
    action: z.literal("silence"),
    seconds: z.number().int().min(0).max(MAX_SILENCE_SECONDS, "A silence lasts a whole number of seconds from 0 to 604800."),
  }),
]);

export const alertIdParamsSchema = z.object({ id: int32IdText });

export const alertEventsQuerySchema = z.object({
  rule: int32IdText.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
