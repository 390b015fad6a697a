import { bigint, check, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";

/** The PeeringDB object types kept (PeeringDB's own names): networks, organisations, IXes and their LANs and prefixes, facilities, presences, contacts. */
export const PEERINGDB_KINDS = ["net", "org", "ix", "ixlan", "ixpfx", "netixlan", "fac", "netfac", "poc"] as const;
export type PeeringDbKind = (typeof PEERINGDB_KINDS)[number];

/**
 * The objects of the last PeeringDB import, as PeeringDB's JSON gives them (`data`), with the
 * columns the lookups join on: the AS number (net, netixlan, netfac's local_asn) and the network's
 * id (netixlan, netfac, poc). The whole set is replaced by each import in one transaction.
 */
export const peeringDbObjects = pgTable(
  "peeringdb_objects",
  {
    kind: text("kind", { enum: PEERINGDB_KINDS }).notNull(),
    id: integer("id").notNull(),
    asn: bigint("asn", { mode: "number" }),
    netId: integer("net_id"),
    data: jsonb("data").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.id] }),
    index("peeringdb_objects_asn_idx").on(t.kind, t.asn),
    index("peeringdb_objects_net_idx").on(t.kind, t.netId),
    check("peeringdb_objects_kind_check", sql`${t.kind} IN ('net', 'org', 'ix', 'ixlan', 'ixpfx', 'netixlan', 'fac', 'netfac', 'poc')`),
  ],
);

/**
 * The last import, one row (id 1) once an import succeeded: the dump's own date (its `meta.generated`,
 * else the newest `updated` of its objects), when and from what it was imported and by whom, the
 * objects per type, and `generation`, one more with every import.
 */
export const peeringDbImport = pgTable(
  "peeringdb_import",
  {
    id: smallint("id").primaryKey().default(1),
    generation: bigint("generation", { mode: "number" }).notNull().default(0),
    dumpDate: timestamp("dump_date", { withTimezone: true }),
    importedAt: timestamp("imported_at", { withTimezone: true }).notNull().defaultNow(),
    /** The file names, comma-separated, or the sync address. */
    source: text("source").notNull(),
    /** An e-mail address, "command line" or "daily sync". */
    importedBy: text("imported_by").notNull(),
    /** {net: n, org: n, …} */
    counts: jsonb("counts").notNull(),
  },
  (t) => [check("peeringdb_import_single_row", sql`${t.id} = 1`)],
);
