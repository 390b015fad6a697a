import { bigint, boolean, index, integer, pgTable, serial, text, unique } from "drizzle-orm/pg-core";

/** Autonomous systems known to the installation (names shown next to AS numbers). */
export const asInfo = pgTable("as_info", {
  asn: bigint("asn", { mode: "number" }).primaryKey(),
  name: text("name").notNull(),
  country: text("country").notNull().default(""),
  /** transit | content | cdn | eyeball | enterprise | customer | operator | other */
  category: text("category").notNull().default("other"),
});

export const routers = pgTable("routers", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  city: text("city").notNull(),
  country: text("country").notNull(),
  loopback: text("loopback").notNull(),
  vendor: text("vendor").notNull().default(""),
  role: text("role").notNull().default("edge"),
});

export const interfaces = pgTable(
  "interfaces",
  {
    id: serial("id").primaryKey(),
    routerId: integer("router_id")
      .notNull()
      .references(() => routers.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    snmpIndex: integer("snmp_index").notNull(),
    description: text("description").notNull().default(""),
    capacityBps: bigint("capacity_bps", { mode: "number" }).notNull(),
    /** core (router to router) | external (to a neighbour AS) | access (to the operator's own subscribers) */
    kind: text("kind", { enum: ["core", "external", "access"] }).notNull(),
    /** For external links: Transit | Peering | Customer; and PNI or IX for peerings. */
    peeringType: text("peering_type"),
    connection: text("connection"),
    neighborAsn: bigint("neighbor_asn", { mode: "number" }),
    /** For core links: the interface at the other end. */
    remoteInterfaceId: integer("remote_interface_id"),
  },
  (t) => [unique("interfaces_router_name_uq").on(t.routerId, t.name), index("interfaces_neighbor_idx").on(t.neighborAsn)],
);

export const vantagePoints = pgTable("vantage_points", {
  id: serial("id").primaryKey(),
  key: text("key").notNull().unique(),
  city: text("city").notNull(),
  country: text("country").notNull(),
  router: text("router").notNull(),
  legacyDescription: text("legacy_description").notNull().default(""),
  description: text("description").notNull().default(""),
  ip: text("ip").notNull(),
  isPublic: boolean("is_public").notNull().default(false),
});

/** Names and colours per object and layer: base 0, product 10, site 20, user 30 (highest wins). */
export const mappings = pgTable(
  "mappings",
  {
    id: serial("id").primaryKey(),
    model: text("model", { enum: ["AS", "Application", "Infrastructure"] }).notNull(),
    objectId: text("object_id").notNull(),
    layer: integer("layer").notNull(),
    ownerUserId: integer("owner_user_id"),
    name: text("name"),
    color: text("color"),
  },
  (t) => [unique("mappings_object_layer_uq").on(t.model, t.objectId, t.layer, t.ownerUserId).nullsNotDistinct()],
);

/** Which AS serves which application (e.g. a streaming service) or infrastructure (e.g. a CDN). */
export const asServiceMappings = pgTable(
  "as_service_mappings",
  {
    id: serial("id").primaryKey(),
    asn: bigint("asn", { mode: "number" }).notNull(),
    kind: text("kind", { enum: ["Application", "Infrastructure"] }).notNull(),
    name: text("name").notNull(),
  },
  (t) => [unique("as_service_mappings_uq").on(t.asn, t.kind)],
);
