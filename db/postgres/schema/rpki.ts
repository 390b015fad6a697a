import { bigint, boolean, check, cidr, integer, pgTable, primaryKey, smallint, text, timestamp } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";

/** Where a validated ROA payload came from: a file staff imported, or the configured RTR cache (RFC 8210). */
export const RPKI_SOURCES = ["file", "rtr"] as const;
export type RpkiSource = (typeof RPKI_SOURCES)[number];

/**
 * Validated ROA payloads (VRPs, RFC 6811): a prefix, the longest prefix length it allows and the
 * AS allowed to originate it, per source. Route origin validation uses the union of the sources;
 * each source's set is replaced (a file) or changed (RTR deltas) in one transaction together with
 * its row in rpki_sources.
 */
export const rpkiVrps = pgTable(
  "rpki_vrps",
  {
    source: text("source", { enum: RPKI_SOURCES }).notNull(),
    /** The network, host bits clear (cidr refuses others). */
    prefix: cidr("prefix").notNull(),
    maxLength: smallint("max_length").notNull(),
    /** 0 to 4294967295; AS0 (RFC 6483, RFC 7607) never makes a route valid. */
    asn: bigint("asn", { mode: "number" }).notNull(),
    /** The trust anchor named by the file (e.g. "ripe"); "" when not given and for RTR, which does not say. */
    trustAnchor: text("trust_anchor").notNull().default(""),
  },
  (t) => [
    primaryKey({ columns: [t.source, t.prefix, t.maxLength, t.asn, t.trustAnchor] }),
    check("rpki_vrps_source_check", sql`${t.source} IN ('file', 'rtr')`),
    check(
      "rpki_vrps_max_length_check",
      sql`${t.maxLength} >= masklen(${t.prefix}) AND ${t.maxLength} <= CASE WHEN family(${t.prefix}) = 4 THEN 32 ELSE 128 END`,
    ),
    check("rpki_vrps_asn_check", sql`${t.asn} BETWEEN 0 AND 4294967295`),
  ],
);

/**
 * The state of each VRP source, one row per source once it has delivered a set: `generation` grows
 * by one with every change of the source's set, so a process that holds an index of the VRPs finds
 * out cheaply whether it is still current. For the file: its name and who imported it. For RTR: the
 * cache, its session id and serial, the protocol version spoken, the intervals of its last End of
 * Data, and how the connection goes (last success, last error).
 */
export const rpkiSources = pgTable(
  "rpki_sources",
  {
    source: text("source", { enum: RPKI_SOURCES }).primaryKey(),
    generation: bigint("generation", { mode: "number" }).notNull().default(0),
    /** When the set last changed. */
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    vrpCount: integer("vrp_count").notNull().default(0),
    /** file: the uploaded file's name, and who imported it (an e-mail address, or "command line"). */
    fileName: text("file_name"),
    importedBy: text("imported_by"),
    /** rtr: host:port of the cache. */
    cache: text("cache"),
    sessionId: integer("session_id"),
    serial: bigint("serial", { mode: "number" }),
    protocolVersion: smallint("protocol_version"),
    refreshSeconds: integer("refresh_seconds"),
    retrySeconds: integer("retry_seconds"),
    expireSeconds: integer("expire_seconds"),
    /** rtr: the last End of Data received (a successful load or refresh). */
    lastSuccessAt: timestamp("last_success_at", { withTimezone: true }),
    /** rtr: whether a session with the cache is open now, as the process that runs the client last wrote it. */
    connected: boolean("connected").notNull().default(false),
    lastErrorAt: timestamp("last_error_at", { withTimezone: true }),
    lastError: text("last_error"),
  },
  (t) => [check("rpki_sources_source_check", sql`${t.source} IN ('file', 'rtr')`)],
);
