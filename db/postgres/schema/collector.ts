import { bigint, boolean, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * What the flow collectors saw, per exporter address and flow protocol, summed over every
 * collector process (the app process on embedded stores, each `npm run worker` on server stores):
 * each process adds its deltas every few seconds, so the Data sources page, the "not in inventory
 * yet" list and the silent-exporter notifications read one table whichever process listens.
 */
export const collectorExporters = pgTable(
  "collector_exporters",
  {
    /** The UDP source address, RFC 5952 text (IPv4 dotted). */
    address: text("address").notNull(),
    /** netflow5 | netflow9 | ipfix | sflow5 */
    protocol: text("protocol").notNull(),
    /** The listener it reached: component name and listen address, e.g. "flows-netflow 0.0.0.0:2055". */
    listener: text("listener").notNull().default(""),
    firstSeen: timestamp("first_seen", { withTimezone: true }).notNull().defaultNow(),
    lastSeen: timestamp("last_seen", { withTimezone: true }).notNull().defaultNow(),
    datagrams: bigint("datagrams", { mode: "number" }).notNull().default(0),
    /** Flows decoded. */
    flows: bigint("flows", { mode: "number" }).notNull().default(0),
    flowsStored: bigint("flows_stored", { mode: "number" }).notNull().default(0),
    /** Records whose template never arrived within the wait (expired) or was evicted. */
    templateMisses: bigint("template_misses", { mode: "number" }).notNull().default(0),
    /** { reason: count } of malformed datagrams and records (decode problem reasons). */
    decodeErrors: jsonb("decode_errors").$type<Record<string, number>>().notNull().default({}),
    /** { reason: count } of flows decoded but not stored (queue full, store failed …). */
    drops: jsonb("drops").$type<Record<string, number>>().notNull().default({}),
    /** Sampling rates seen (distinct, at most 16). */
    samplingRates: integer("sampling_rates").array().notNull().default([]),
    /** ifIndexes seen that the inventory does not know for this exporter (distinct, at most 256). */
    unknownIfIndexes: integer("unknown_if_indexes").array().notNull().default([]),
    /** Exporter clock minus collector clock at the last datagram that carried an export time (ms). */
    clockSkewMs: integer("clock_skew_ms"),
    /** The skew exceeded the allowed one: its flows are timed by arrival. */
    clockSkewed: boolean("clock_skewed").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.address, t.protocol] })],
);

/** The collector listeners that run, one row per process and listener, refreshed while they run. */
export const collectorListeners = pgTable(
  "collector_listeners",
  {
    /** The component, e.g. flows-netflow. */
    component: text("component").notNull(),
    /** host:port it listens on (the port the system gave for port 0). */
    address: text("address").notNull(),
    /** hostname and pid of the process. */
    host: text("host").notNull(),
    pid: integer("pid").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.component, t.host, t.pid] })],
);
