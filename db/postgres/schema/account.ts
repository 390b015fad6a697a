import { bigint, boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";

/** TOTP authenticators; a device counts only once confirmed with a code. */
export const totpDevices = pgTable(
  "totp_devices",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    secret: text("secret").notNull(),
    confirmed: boolean("confirmed").notNull().default(false),
    /** The last accepted 30-second step: a code is never accepted twice. */
    lastUsedStep: bigint("last_used_step", { mode: "number" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("totp_devices_user_idx").on(t.userId)],
);

/** Single-use recovery codes, stored as hashes only. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("recovery_codes_user_idx").on(t.userId)],
);

/** Login attempts, for throttling per account and per client address. */
export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    clientAddress: text("client_address").notNull(),
    succeeded: boolean("succeeded").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("login_attempts_email_idx").on(t.email, t.createdAt), index("login_attempts_address_idx").on(t.clientAddress, t.createdAt)],
);

/** Self-signup requests, accepted or rejected by a manager. */
export const userRequests = pgTable("user_requests", {
  id: serial("id").primaryKey(),
  email: text("email").notNull(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  status: text("status", { enum: ["PENDING", "ACCEPTED", "REJECTED"] })
    .notNull()
    .default("PENDING"),
  decidedById: integer("decided_by_id"),
  decidedAt: timestamp("decided_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Single-use, expiring password-reset tokens (hash of the emailed token). */
export const passwordResetTokens = pgTable("password_reset_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Mail to send. Without SMTP_URL mail stays here (and in the log), so flows work on the embedded default. */
export const outboxEmails = pgTable("outbox_emails", {
  id: serial("id").primaryKey(),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  body: text("body").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  sentAt: timestamp("sent_at", { withTimezone: true }),
  error: text("error"),
  /** Delivery attempts made; the outbox sweeper gives up after OUTBOX_MAX_ATTEMPTS (app/server/outbox.server.ts). */
  attempts: integer("attempts").notNull().default(0),
  /** When the sweeper tries again; null: nothing to retry (sent, never tried because SMTP_URL was unset, or given up). */
  nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
});

/**
 * Team-chat alerts to post (app/server/alerts.server.ts): the JSON body, and which of the configured
 * webhooks receives it ("main": ALERT_WEBHOOK_URL, "test": ALERT_WEBHOOK_TEST_URL). The URL and its
 * credentials are read from the configuration when the alert is sent, never stored.
 */
export const outboxWebhooks = pgTable(
  "outbox_webhooks",
  {
    id: serial("id").primaryKey(),
    target: text("target", { enum: ["main", "test"] }).notNull(),
    payload: jsonb("payload").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
  },
  (t) => [index("outbox_webhooks_created_idx").on(t.createdAt)],
);

export const supportMessages = pgTable("support_messages", {
  id: serial("id").primaryKey(),
  userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
  type: text("type", { enum: ["BUG", "HELP", "FEEDBACK", "NEW_USER", "FEATURE_REQUEST"] }).notNull(),
  message: text("message").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /** The last answer staff mailed to the sender from the support messages screen: its text, when and by whom. */
  answer: text("answer"),
  answeredAt: timestamp("answered_at", { withTimezone: true }),
  answeredBy: integer("answered_by").references(() => users.id, { onDelete: "set null" }),
  /** Marked as done on the support messages screen. */
  doneAt: timestamp("done_at", { withTimezone: true }),
  doneBy: integer("done_by").references(() => users.id, { onDelete: "set null" }),
});

export const notifications = pgTable(
  "notifications",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    message: text("message").notNull().default(""),
    isRead: boolean("is_read").notNull().default(false),
    isArchived: boolean("is_archived").notNull().default(false),
    doPopUp: boolean("do_pop_up").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("notifications_user_idx").on(t.userId)],
);

export const errorReports = pgTable("error_reports", {
  id: serial("id").primaryKey(),
  userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
  message: text("message").notNull(),
  stacktrace: text("stacktrace").notNull().default(""),
  url: text("url").notNull().default(""),
  /** The release (package version) that was running when the report arrived; "" for reports kept before it was recorded. */
  release: text("release").notNull().default(""),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /** Marked as handled on the error reports screen: when, and by whom. */
  handledAt: timestamp("handled_at", { withTimezone: true }),
  handledBy: integer("handled_by").references(() => users.id, { onDelete: "set null" }),
});

/** API tokens for integrators ("Authorization: Token <key>"), stored as SHA-256 hashes. */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    name: text("name").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [index("api_tokens_user_idx").on(t.userId)],
);

/**
 * Usage tracking (POST usertracking/interaction/): which screen (route path) or named action a
 * consenting user used, and when. Kept USAGE_RETENTION_DAYS days (app/server/usage-tracking.server.ts).
 */
export const usageEvents = pgTable(
  "usage_events",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    target: text("target").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("usage_events_created_idx").on(t.createdAt)],
);
