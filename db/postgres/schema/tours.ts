import { check, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { users } from "./auth";

/**
 * The guided tours' status per user and tour (shell §3: tour status Started, Finished, Failed). One row per
 * user and tour id of app/features/help/tours.ts: `step` is the step shown last (0-based), so a Started tour
 * resumes there; `failed_anchor` names the data-tour anchor that was missing when a tour Failed (for staff:
 * a screen changed under its tour). Written by app/features/help/tour-status.server.ts.
 */
export const tourStatus = pgTable(
  "tour_status",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tourId: text("tour_id").notNull(),
    status: text("status").notNull(),
    step: integer("step").notNull().default(0),
    failedAnchor: text("failed_anchor"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.tourId] }),
    check("tour_status_status_check", sql`${t.status} IN ('Started', 'Finished', 'Failed')`),
    check("tour_status_step_check", sql`${t.step} >= 0`),
  ],
);
