import { bigint, boolean, index, integer, pgTable, serial, text, unique, type AnyPgColumn } from "drizzle-orm/pg-core";

/** Autonomous systems known to the installation (names shown next to AS numbers). */
export const asInfo = pgTable("as_info", {
  asn: bigint("asn", { mode: "number" }).primaryKey(),
  name: text("name").notNull(),
  country: text("country").notNull().default(""),
  /** transit | content | cdn | eyeball | enterprise | customer | operator | other */
  category: text("category").notNull().default("other"),
});

/**
 * Routers of the inventory. Columns ending in `_enc` hold secrets encrypted with INVENTORY_SECRET_KEY
 * (app/features/inventory/secrets.server.ts), never plaintext.
 */
export const routers = pgTable("routers", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  city: text("city").notNull(),
  country: text("country").notNull(),
  loopback: text("loopback").notNull(),
  vendor: text("vendor").notNull().default(""),
  role: text("role").notNull().default("edge"),
  /** SNMP for the pollers: null version = not polled. */
  snmpVersion: text("snmp_version", { enum: ["2c", "3"] }),
  snmpPort: integer("snmp_port").notNull().default(161),
  snmpCommunityEnc: text("snmp_community_enc"),
  snmpV3User: text("snmp_v3_user"),
  /** MD5 | SHA | SHA-224 | SHA-256 | SHA-384 | SHA-512, null = noAuth */
  snmpV3AuthProtocol: text("snmp_v3_auth_protocol"),
  snmpV3AuthPasswordEnc: text("snmp_v3_auth_password_enc"),
  /** DES | AES-128 | AES-192 | AES-256, null = noPriv */
  snmpV3PrivProtocol: text("snmp_v3_priv_protocol"),
  snmpV3PrivPasswordEnc: text("snmp_v3_priv_password_enc"),
  /** SSH for the Looking Glass executor: null host = commands do not run on this router. */
  sshHost: text("ssh_host"),
  sshPort: integer("ssh_port").notNull().default(22),
  sshUser: text("ssh_user"),
  sshPrivateKeyEnc: text("ssh_private_key_enc"),
  sshPasswordEnc: text("ssh_password_enc"),
  /** The router's public host key (known_hosts form without the host name): host keys are always checked. */
  sshHostKey: text("ssh_host_key"),
});

/** Source addresses a router exports flows from; an address belongs to one router. */
export const routerExporters = pgTable(
  "router_exporters",
  {
    address: text("address").primaryKey(),
    routerId: integer("router_id")
      .notNull()
      .references(() => routers.id, { onDelete: "cascade" }),
  },
  (t) => [index("router_exporters_router_idx").on(t.routerId)],
);

/**
 * The VRFs of a router with their route distinguishers (RFC 4364), in the spelling rib_entries
 * stores (app/features/inventory/route-distinguisher.ts): a flow's VRF (vrf_name, named by its
 * interface's `vrf`) finds its routing table by it.
 */
export const routerVrfs = pgTable(
  "router_vrfs",
  {
    id: serial("id").primaryKey(),
    routerId: integer("router_id")
      .notNull()
      .references(() => routers.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    routeDistinguisher: text("route_distinguisher").notNull(),
  },
  (t) => [
    unique("router_vrfs_router_name_uq").on(t.routerId, t.name),
    unique("router_vrfs_router_rd_uq").on(t.routerId, t.routeDistinguisher),
  ],
);

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
    remoteInterfaceId: integer("remote_interface_id").references((): AnyPgColumn => interfaces.id, { onDelete: "set null" }),
    /** The VRF the interface belongs to (null: the global table). */
    vrf: text("vrf"),
  },
  (t) => [
    unique("interfaces_router_name_uq").on(t.routerId, t.name),
    // Flow records name interfaces by SNMP ifIndex: one interface per index and router.
    unique("interfaces_router_snmp_index_uq").on(t.routerId, t.snmpIndex),
    index("interfaces_neighbor_idx").on(t.neighborAsn),
  ],
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
