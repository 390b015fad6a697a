import { index, integer, pgTable, primaryKey, serial, text, timestamp, unique } from "drizzle-orm/pg-core";
import { users } from "./auth";

/**
 * The filter kinds a tag can hold values of (FILTER_KINDS of app/features/filter/dimensions.ts).
 * Repeated here because the schema must not import application code; a unit of the tags feature
 * checks that both lists agree.
 */
export const TAG_DIMENSION_KINDS = [
  "AS_NUMBER",
  "ROUTER",
  "INTERFACE",
  "INTERNAL_LINK",
  "APPLICATION",
  "INFRASTRUCTURE",
  "IANA_PROTOCOL",
  "VRF_NAME",
] as const;
export type TagDimensionKind = (typeof TAG_DIMENSION_KINDS)[number];

/**
 * A named set of filter values of one kind (e.g. the AS numbers of "Tier-1 transits"), usable as a
 * flow filter on every dimension of that kind. owner_user_id null: visible to everyone; set: only
 * to that user (removed with the account).
 */
export const tags = pgTable(
  "tags",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    color: text("color").notNull().default("#5c7080"),
    dimension: text("dimension", { enum: TAG_DIMENSION_KINDS }).notNull(),
    ownerUserId: integer("owner_user_id").references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("tags_dimension_idx").on(t.dimension)],
);

/** The values of a tag, written as in a flow filter (an AS number, a router name, `router|interface` …). */
export const tagValues = pgTable(
  "tag_values",
  {
    id: serial("id").primaryKey(),
    tagId: integer("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    value: text("value").notNull(),
  },
  (t) => [unique("tag_values_tag_value_uq").on(t.tagId, t.value)],
);

/** Tags of one kind grouped under a name; as a filter a group stands for the union of its tags' values. */
export const tagGroups = pgTable(
  "tag_groups",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    color: text("color").notNull().default("#5c7080"),
    dimension: text("dimension", { enum: TAG_DIMENSION_KINDS }).notNull(),
    ownerUserId: integer("owner_user_id").references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("tag_groups_dimension_idx").on(t.dimension)],
);

export const tagGroupMembers = pgTable(
  "tag_group_members",
  {
    groupId: integer("group_id")
      .notNull()
      .references(() => tagGroups.id, { onDelete: "cascade" }),
    tagId: integer("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.tagId] }), index("tag_group_members_tag_idx").on(t.tagId)],
);
