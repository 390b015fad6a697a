import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { users } from "./auth";

/** An alert rule's severity (docs/alerts.md). */
export const ALERT_SEVERITIES = ["info", "warning", "critical"] as const;
export const ALERT_STATUSES = ["OK", "Triggered", "Resolved", "No data"] as const;

/** The Flow Explorer view a rule watches: its URL state (docs/alerts.md), and one value of the dimension or the total. */
export type AlertRuleView = {
  dimension: string;
  /** `filter` parameters as in the Flow Explorer's URL (`DIMENSION:v1,!v2`). */
  filter: string[];
  ipVersion: "all" | "4" | "6";
  /** One value of the dimension (one AS, one interface …); null: the view's total. */
  value: string | null;
};

/** Who a rule tells: users and groups (notifications), e-mail addresses, and one of the staff-configured webhooks. */
export type AlertRecipients = { userIds: number[]; groupIds: number[]; emails: string[]; webhook: "main" | "test" | null };

/**
 * Alert rules (issue 32, an extension of the spec): a Flow Explorer view plus a condition. The
 * owner's delegation restriction (if any) applies when the rule is evaluated.
 */
export const alertRules = pgTable(
  "alert_rules",
  {
    id: serial("id").primaryKey(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    view: jsonb("view").$type<AlertRuleView>().notNull(),
    metric: text("metric", { enum: ["bps", "pps"] }).notNull(),
    conditionKind: text("condition_kind", { enum: ["above", "below", "outside_band"] }).notNull(),
    /** above / below: the fixed limit in the metric's unit. */
    threshold: doublePrecision("threshold"),
    /** outside_band: the band's width in spreads (seasonal-band.ts). */
    bandFactor: doublePrecision("band_factor"),
    minDurationSeconds: integer("min_duration_seconds").notNull().default(0),
    hysteresis: doublePrecision("hysteresis").notNull().default(0),
    severity: text("severity", { enum: ALERT_SEVERITIES }).notNull().default("warning"),
    recipients: jsonb("recipients").$type<AlertRecipients>().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("alert_rules_owner_idx").on(t.ownerId)],
);

/**
 * A rule's current state (state-machine.ts), times in epoch seconds. Read and written under a row
 * lock in one transaction with the rule's events: the once-per-crossing memory, so evaluators in
 * several processes, or a restart, never tell a transition twice.
 */
export const alertState = pgTable("alert_state", {
  ruleId: integer("rule_id")
    .primaryKey()
    .references(() => alertRules.id, { onDelete: "cascade" }),
  status: text("status", { enum: ALERT_STATUSES }).notNull().default("OK"),
  since: bigint("since", { mode: "number" }),
  lastBucket: bigint("last_bucket", { mode: "number" }),
  breachSince: bigint("breach_since", { mode: "number" }),
  crossingValue: doublePrecision("crossing_value"),
  triggeredAt: bigint("triggered_at", { mode: "number" }),
  resolvedAt: bigint("resolved_at", { mode: "number" }),
  acknowledgedAt: bigint("acknowledged_at", { mode: "number" }),
  acknowledgedBy: text("acknowledged_by"),
  silencedUntil: bigint("silenced_until", { mode: "number" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Each transition of a rule (its history): at most one per rule, bucket and new status. */
export const alertEvents = pgTable(
  "alert_events",
  {
    id: serial("id").primaryKey(),
    ruleId: integer("rule_id")
      .notNull()
      .references(() => alertRules.id, { onDelete: "cascade" }),
    fromStatus: text("from_status", { enum: ALERT_STATUSES }).notNull(),
    toStatus: text("to_status", { enum: ALERT_STATUSES }).notNull(),
    /** The evaluated bucket's start and end (epoch seconds). */
    bucketStart: bigint("bucket_start", { mode: "number" }).notNull(),
    at: bigint("at", { mode: "number" }).notNull(),
    value: doublePrecision("value"),
    limit: doublePrecision("limit"),
    /** False while the rule was silenced. */
    notified: boolean("notified").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("alert_events_once_uq").on(t.ruleId, t.bucketStart, t.toStatus),
    index("alert_events_rule_at_idx").on(t.ruleId, t.at),
  ],
);
