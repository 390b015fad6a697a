import { sql } from "drizzle-orm";
import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";

export const styles = pgTable("styles", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  /** null = a site style; set = a user's personal override, visible only to that user. */
  ownerUserId: integer("owner_user_id"),
  brandedFooter: boolean("branded_footer").notNull().default(false),
  colorPrimary: text("color_primary").notNull().default("#137cbd"),
  colorSecondary: text("color_secondary").notNull().default("#5c7080"),
  colorTertiary: text("color_tertiary").notNull().default("#394b59"),
  companyName: text("company_name").notNull().default("flowlens"),
  companyLogo: text("company_logo"),
  font: text("font").notNull().default("default"),
  footerLinks: jsonb("footer_links")
    .$type<{ id: number; link: string; text: string }[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const users = pgTable("users", {
  id: serial("id").primaryKey(),
  email: text("email").notNull().unique(),
  firstName: text("first_name").notNull().default(""),
  lastName: text("last_name").notNull().default(""),
  passwordHash: text("password_hash"),
  isActive: boolean("is_active").notNull().default(true),
  isStaff: boolean("is_staff").notNull().default(false),
  isSuperuser: boolean("is_superuser").notNull().default(false),
  isDelegated: boolean("is_delegated").notNull().default(false),
  delegatedById: integer("delegated_by_id"),
  hasConsented: boolean("has_consented").notNull().default(false),
  consentedAt: timestamp("consented_at", { withTimezone: true }),
  canChangeOwnGroup: boolean("can_change_own_group").notNull().default(false),
  customStyleId: integer("custom_style_id").references(() => styles.id, { onDelete: "set null" }),
  overrideClickhouseDb: text("override_clickhouse_db"),
  overrideClickhouseRawFlowDb: text("override_clickhouse_raw_flow_db"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  lastLoginAt: timestamp("last_login_at", { withTimezone: true }),
});

export const groups = pgTable("groups", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
});

export const userGroups = pgTable(
  "user_groups",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    groupId: integer("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.groupId] })],
);

/** Catalogue of the spec's permission names (seeded from app/lib/permissions.ts at start-up). */
export const permissions = pgTable("permissions", {
  code: text("code").primaryKey(),
  description: text("description").notNull().default(""),
});

export const userPermissions = pgTable(
  "user_permissions",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    permission: text("permission")
      .notNull()
      .references(() => permissions.code, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.permission] })],
);

export const groupPermissions = pgTable(
  "group_permissions",
  {
    groupId: integer("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    permission: text("permission")
      .notNull()
      .references(() => permissions.code, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.permission] })],
);

export const featureFlags = pgTable("feature_flags", {
  name: text("name").primaryKey(),
  /** On for everybody; otherwise only for the users listed in user_feature_flags. */
  enabledForAll: boolean("enabled_for_all").notNull().default(false),
  description: text("description").notNull().default(""),
});

export const userFeatureFlags = pgTable(
  "user_feature_flags",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    flag: text("flag")
      .notNull()
      .references(() => featureFlags.name, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.flag] })],
);

/** Server-side sessions: the cookie carries a random token, this table holds its SHA-256. */
export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    state: text("state", { enum: ["PENDING_2FA", "LOGGED_IN"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    clientAddress: text("client_address"),
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const userSettings = pgTable("user_settings", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  enable2fa: boolean("enable_2fa").notNull().default(false),
  timezone: text("timezone").notNull().default("UTC"),
  csvDelimiter: text("csv_delimiter", { enum: [",", ";"] })
    .notNull()
    .default(","),
  timeseriesUtilThresholdMedium: doublePrecision("timeseries_util_threshold_medium").notNull().default(0.5),
  timeseriesUtilThresholdHigh: doublePrecision("timeseries_util_threshold_high").notNull().default(0.85),
  intlinksUtilThresholdMedium: doublePrecision("intlinks_util_threshold_medium").notNull().default(0.75),
  intlinksUtilThresholdHigh: doublePrecision("intlinks_util_threshold_high").notNull().default(0.95),
  extlinksUtilThresholdMedium: doublePrecision("extlinks_util_threshold_medium").notNull().default(0.75),
  extlinksUtilThresholdHigh: doublePrecision("extlinks_util_threshold_high").notNull().default(0.95),
  extlinksBuildoutThreshold: integer("extlinks_buildout_threshold").notNull().default(90),
  extlinksBuildoutType: text("extlinks_buildout_type", { enum: ["DAYS", "PERCENT"] })
    .notNull()
    .default("DAYS"),
  intlinksBuildoutThreshold: integer("intlinks_buildout_threshold").notNull().default(90),
  intlinksBuildoutType: text("intlinks_buildout_type", { enum: ["DAYS", "PERCENT"] })
    .notNull()
    .default("DAYS"),
});

export type AutocompleteMinLengths = { primary_as: number; secondary_as: number; application: number; infrastructure: number };

/** A single row (id = 1). */
export const siteSettings = pgTable("site_settings", {
  id: integer("id").primaryKey().default(1),
  mandatory2fa: boolean("mandatory_2fa").notNull().default(false),
  welcomePageEnabled: boolean("welcome_page_enabled").notNull().default(false),
  clickhouseDbVersion: text("clickhouse_db_version").notNull().default(""),
  defaultStyleId: integer("default_style_id").references(() => styles.id, { onDelete: "set null" }),
  autocompleteMinLengths: jsonb("autocomplete_min_lengths")
    .$type<AutocompleteMinLengths>()
    .notNull()
    .default(sql`'{"primary_as":1,"secondary_as":1,"application":2,"infrastructure":2}'::jsonb`),
  asNameOfDeployment: text("as_name_of_deployment").notNull().default(""),
  enableUserSelfSignup: boolean("enable_user_self_signup").notNull().default(false),
  rnaDefaultQuery: jsonb("rna_default_query")
    .$type<Record<string, unknown>>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  publicLookingGlassEnabled: boolean("public_looking_glass_enabled").notNull().default(false),
  /** The texts of the public /imprint and /privacy-policy pages (simple paragraphs); empty until staff write them. */
  imprintText: text("imprint_text").notNull().default(""),
  privacyPolicyText: text("privacy_policy_text").notNull().default(""),
});

export type FlowsViewRestriction = { dimension: string; constrained_values: string[]; output: string };
export type ExternalLinksViewRestrictions = { ASNumberList: number[]; routerList: string[]; interfaceList: string[] };

export const delegationRestrictions = pgTable("delegation_restrictions", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  flowsViewsRestrictions: jsonb("flows_views_restrictions")
    .$type<FlowsViewRestriction[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  externalLinksViewsRestrictions: jsonb("external_links_views_restrictions")
    .$type<ExternalLinksViewRestrictions>()
    .notNull()
    .default(sql`'{"ASNumberList":[],"routerList":[],"interfaceList":[]}'::jsonb`),
  /** Which flows restriction is current (shell §4: the first one after login; the user cycles through them in turn). */
  currentIndex: integer("current_index").notNull().default(0),
  /** What the welcome page says to this account (plain paragraphs), written by whoever manages it; empty = the default text. */
  welcomeText: text("welcome_text").notNull().default(""),
});

/** Small key/value facts about the installation (e.g. when the demo network was loaded). */
export const systemState = pgTable("system_state", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every administrative change (users, delegated users, applicant decisions, 2FA resets …): who,
 * what, when, and the record before and after. Actor and target are kept as text too, so an entry
 * still reads after either account is deleted. Staff read it on the Users screen.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorUserId: integer("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    actorEmail: text("actor_email").notNull().default(""),
    /** A machine name, e.g. user.create, user.update, user.deactivate, delegated_user.update, user_request.accept. */
    action: text("action").notNull(),
    /** user | delegated_user | user_request | … */
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull().default(""),
    targetLabel: text("target_label").notNull().default(""),
    before: jsonb("before").$type<Record<string, unknown> | null>(),
    after: jsonb("after").$type<Record<string, unknown> | null>(),
    clientAddress: text("client_address"),
  },
  (t) => [index("audit_log_at_idx").on(t.at), index("audit_log_target_idx").on(t.targetType, t.targetId)],
);
