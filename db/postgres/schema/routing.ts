import { pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The operator's names for BGP communities, shown beside each community in the private Looking
 * Glass: a pattern in its canonical text (app/lib/bgp-communities.ts) — a standard "64496:100", a
 * large "64496:1:2" or an extended "RT:64497:42" community, or one whose last part is `*`
 * ("64496:*", "64496:1:*") — and its label. Edited by staff and superusers on
 * /site-settings/routing-data; each change is audited.
 */
export const communityLabels = pgTable("community_labels", {
  id: serial("id").primaryKey(),
  pattern: text("pattern").notNull().unique(),
  label: text("label").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
