import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth";

/** States of a network command job (looking glass §3): the worker moves a job along them. */
export const NETCOMMAND_JOB_STATES = ["PENDING", "STARTED", "RETRY", "FAILURE", "SUCCESS"] as const;
export type NetcommandJobState = (typeof NETCOMMAND_JOB_STATES)[number];

export const NETCOMMAND_QUERY_TYPES = ["PingQuery", "TracerouteQuery"] as const;
export type NetcommandQueryType = (typeof NETCOMMAND_QUERY_TYPES)[number];

/**
 * Ping and traceroute jobs of the Looking Glass. Kept in PostgreSQL so that any web replica can
 * answer a poll and any replica's worker can run the job. The owner is a user, or for anonymous
 * callers of the public Looking Glass the SHA-256 of their visitor cookie and their client address.
 */
export const netcommandJobs = pgTable(
  "netcommand_jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    queryType: text("query_type", { enum: NETCOMMAND_QUERY_TYPES }).notNull(),
    /** Key of the vantage point the command runs from (vantage_points.key). */
    vantagePoint: text("vantage_point").notNull(),
    /** The validated, normalised target address. */
    targetAddress: text("target_address").notNull(),
    state: text("state", { enum: NETCOMMAND_JOB_STATES }).notNull().default("PENDING"),
    /** The command's output on SUCCESS, the reason on FAILURE (and on RETRY, why it is retried). */
    result: text("result").notNull().default(""),
    /** How often a worker has claimed the job (a transient failure is retried once). */
    attempts: integer("attempts").notNull().default(0),
    ownerUserId: integer("owner_user_id").references(() => users.id, { onDelete: "cascade" }),
    ownerVisitor: text("owner_visitor"),
    clientAddress: text("client_address").notNull(),
    /** The worker (process) that claimed the job last. */
    workerId: text("worker_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** A RETRY job is not claimed again before this time. */
    notBefore: timestamp("not_before", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("netcommand_jobs_state_idx").on(t.state, t.createdAt),
    index("netcommand_jobs_owner_idx").on(t.ownerUserId, t.createdAt),
    index("netcommand_jobs_address_idx").on(t.clientAddress, t.createdAt),
  ],
);
