import { bigint, boolean, index, integer, jsonb, pgTable, bigserial, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";

/**
 * The Raw Network Analyzer's query history (RNA API §7, usertracking/rna_history/): per user the
 * last queries they ran, newest first, kept to the newest 100 per user by the code that records
 * them (app/features/rna/history.server.ts). `query` is the query as the analyzer normalised it
 * (range, columns, filters, filter expression, prefix aggregation, copies, sort), checked with the
 * feature's zod schema when read back, so a row of an older shape is reported, not trusted.
 */
export const rnaQueryHistory = pgTable(
  "rna_query_history",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
    query: jsonb("query").$type<Record<string, unknown>>().notNull(),
    /** The rows the query matched; a lower bound when row_count_exact is false (the analyzer's "more than N"). */
    rowCount: bigint("row_count", { mode: "number" }).notNull(),
    rowCountExact: boolean("row_count_exact").notNull().default(true),
    durationMs: integer("duration_ms").notNull(),
  },
  // Every read and the trim after each insert are "this user's rows by id": the newest first.
  (t) => [index("rna_query_history_user_idx").on(t.userId, t.id)],
);
