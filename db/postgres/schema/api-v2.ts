import { boolean, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";

export const API_V2_RESULT_STATES = ["Started", "Done", "Failed"] as const;
export type ApiV2ResultState = (typeof API_V2_RESULT_STATES)[number];

/**
 * Results of the second client's calls (api/v2/, docs/api.md "The second client"): one row per
 * resolved query (`key`), shared by everybody whose request resolves to it. In PostgreSQL so that
 * every web replica answers a poll for a job another one runs. Rows expire (`expires_at`) and the
 * stored results are bounded in total size (API_V2_RESULTS_MAX_BYTES).
 */
export const apiV2Results = pgTable(
  "api_v2_results",
  {
    /** The result's public id: 128 random bits, base64url. */
    id: text("id").primaryKey(),
    /** SHA-256 of the resolved query (app/features/api-v2/key.server.ts); one row per key. */
    key: text("key").notNull().unique(),
    /** The call, e.g. "flows/" (for the operators' view and the metrics). */
    call: text("call").notNull(),
    /** Who started the computation: their pending jobs are bounded (API_V2_PENDING_PER_USER). */
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    state: text("state", { enum: API_V2_RESULT_STATES }).notNull().default("Started"),
    /** The answer of a Done result, as its api/ twin answers it. */
    result: jsonb("result"),
    /** A Failed result: whether the user can resolve it, and the reason. */
    resolvable: boolean("resolvable"),
    detail: text("detail"),
    /** Size of the stored result (its JSON text, bytes). */
    sizeBytes: integer("size_bytes").notNull().default(0),
    /** The process computing a Started result, and when it last said it still does. */
    owner: text("owner").notNull(),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull().defaultNow(),
    /** When a caller last asked for the result (a re-sent call or a poll): a job nobody asks for is cancelled. */
    askedAt: timestamp("asked_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("api_v2_results_user_state_idx").on(t.userId, t.state), index("api_v2_results_expires_idx").on(t.expiresAt)],
);
