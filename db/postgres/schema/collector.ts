import { bigint, boolean, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { routers } from "./network";

/**
 * What the flow collectors saw, per exporter (address, flow protocol and sFlow sub-agent), summed over every
 * collector process (the app process on embedded stores, each `npm run worker` on server stores):
 * each process adds its deltas every few seconds, so the Data sources page, the "not in inventory
 * yet" list and the silent-exporter notifications read one table whichever process listens.
 */
export const collectorExporters = pgTable(
  "collector_exporters",
  {
    /**
     * The exporter's address, RFC 5952 text (IPv4 dotted): the UDP source for NetFlow and IPFIX; for
     * sFlow the agent address its datagrams name (the UDP source when they name none).
     */
    address: text("address").notNull(),
    /** netflow5 | netflow9 | ipfix | sflow5 */
    protocol: text("protocol").notNull(),
    /** sFlow's sub-agent id (one agent, several exporters); 0 for the other protocols. */
    subAgentId: bigint("sub_agent_id", { mode: "number" }).notNull().default(0),
    /** The UDP source addresses its datagrams came from (distinct, at most 16): the address itself unless NAT or a relay is between. */
    udpSources: text("udp_sources").array().notNull().default([]),
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
  (t) => [primaryKey({ columns: [t.address, t.protocol, t.subAgentId] })],
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

/** A capacity the device reports that differs from the inventory's: reported on the Data sources page, not applied. */
export type SnmpCapacityChange = { interface: string; inventory_bps: number; device_bps: number };

/**
 * One interface's accounting between two polls, as the poller keeps it (the previous reading, bytes
 * as decimal strings, and the 5-minute intervals covered only in part so far), so that a restart of
 * the process continues where it stopped.
 */
export type SnmpInterfaceAccount = {
  last: { at: number; uptime: number; in: string; out: string; ifIndex: number; ifName: string } | null;
  open: { start: number; in: string; out: string; covered: number; interpolated: boolean }[];
};

/**
 * The SNMP poller's state per inventory router: how its last poll went (for the Data sources page),
 * whether staff were told of the failure going on (once per incident, and once when it ends), and
 * the accounting of its interfaces between polls. Written by the one process that polls.
 */
export const snmpPollStatus = pgTable("snmp_poll_status", {
  routerId: integer("router_id")
    .primaryKey()
    .references(() => routers.id, { onDelete: "cascade" }),
  lastPollAt: timestamp("last_poll_at", { withTimezone: true }),
  lastSuccessAt: timestamp("last_success_at", { withTimezone: true }),
  lastErrorAt: timestamp("last_error_at", { withTimezone: true }),
  /** timeout | authentication | other */
  lastErrorKind: text("last_error_kind", { enum: ["timeout", "authentication", "other"] }),
  lastError: text("last_error"),
  /** Polls that failed in a row (0 after a success). */
  failures: integer("failures").notNull().default(0),
  /** Staff were told of the failure going on. */
  failureTold: boolean("failure_told").notNull().default(false),
  /** Interfaces read by the last successful poll. */
  interfacesPolled: integer("interfaces_polled").notNull().default(0),
  /** Inventory interfaces the device answered for neither at their ifIndex nor by name. */
  interfacesMissing: text("interfaces_missing").array().notNull().default([]),
  capacityChanges: jsonb("capacity_changes").$type<SnmpCapacityChange[]>().notNull().default([]),
  /** Per inventory interface id. */
  accounts: jsonb("accounts").$type<Record<string, SnmpInterfaceAccount>>().notNull().default({}),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A peer of a BMP session as the Data sources page shows it (bmp_router_status.peers). */
export type BmpPeerStatus = {
  /** The peer's address; for a Loc-RIB instance (RFC 9069), the router's own address. */
  address: string;
  asn: number;
  bgpId: string;
  /** 0 global instance, 1 RD instance, 2 local instance, 3 Loc-RIB instance. */
  peerType: number;
  /** The peer distinguisher as route distinguisher text, "" when zero. */
  distinguisher: string;
  /** RIB views seen from this peer: pre-policy, post-policy, loc-rib. */
  views: string[];
  state: "up" | "down";
  /** ISO time of the Peer Up (or of the first route when no Peer Up was seen). */
  upSince: string | null;
  /** ISO time and reason of the Peer Down, while the peer stays down. */
  downAt: string | null;
  downReason: string | null;
  /** The last Statistics Report: counter or gauge names to values, and when it came. */
  statistics: Record<string, number>;
  statisticsAt: string | null;
};

/**
 * The BMP station's view of each inventory router that streamed BMP to it (RFC 7854): the session
 * (up or closed, since when, the router's sysName and sysDescr from its Initiation), its peers, the
 * messages by type and the decode errors since the router was first seen (the station adds what
 * it counted every few seconds), the current routes per RIB view (a count of rib_current the
 * station refreshes every minute), and the last error. Written by the one process that runs the
 * station; read by the Data sources page. `routes_withdrawn` records that the routes of a router
 * that did not come back within BMP_KEEP_AFTER_CLOSE were withdrawn, so a restart does not repeat it.
 */
export const bmpRouterStatus = pgTable("bmp_router_status", {
  routerId: integer("router_id")
    .primaryKey()
    .references(() => routers.id, { onDelete: "cascade" }),
  /** The vantage point its routes are stored under (vantage_points.key). */
  vantagePoint: text("vantage_point").notNull(),
  /** The session's source address, canonical text (IPv4 dotted). */
  address: text("address").notNull(),
  /** The station's process: "host (pid N)". */
  station: text("station").notNull().default(""),
  state: text("state", { enum: ["up", "closed"] }).notNull(),
  sysName: text("sys_name").notNull().default(""),
  sysDescr: text("sys_descr").notNull().default(""),
  /** Sessions started since the router was first seen. */
  sessions: integer("sessions").notNull().default(0),
  sessionStartedAt: timestamp("session_started_at", { withTimezone: true }).notNull(),
  sessionClosedAt: timestamp("session_closed_at", { withTimezone: true }),
  /** Why the last session ended: the router's Termination reason, the connection closed, a framing error. */
  closeReason: text("close_reason"),
  routesWithdrawn: boolean("routes_withdrawn").notNull().default(false),
  peers: jsonb("peers").$type<BmpPeerStatus[]>().notNull().default([]),
  /** { message type: count } (route-monitoring, peer-up, …). */
  messages: jsonb("messages").$type<Record<string, number>>().notNull().default({}),
  decodeErrors: bigint("decode_errors", { mode: "number" }).notNull().default(0),
  /** { what: count } of routes and messages counted and not stored: other address families, Adj-RIB-Out. */
  skipped: jsonb("skipped").$type<Record<string, number>>().notNull().default({}),
  /** Current routes { rib view: count } and per peer { peer address: { rib view: count } }, as of routes_counted_at. */
  routes: jsonb("routes").$type<Record<string, number>>().notNull().default({}),
  peerRoutes: jsonb("peer_routes").$type<Record<string, Record<string, number>>>().notNull().default({}),
  routesCountedAt: timestamp("routes_counted_at", { withTimezone: true }),
  lastError: text("last_error"),
  lastErrorAt: timestamp("last_error_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** BMP connections from addresses that are no inventory router's loopback or exporter address: refused, listed for adoption. */
export const bmpUnknownSources = pgTable("bmp_unknown_sources", {
  /** Canonical text (IPv4 dotted). */
  address: text("address").primaryKey(),
  firstSeen: timestamp("first_seen", { withTimezone: true }).notNull().defaultNow(),
  lastSeen: timestamp("last_seen", { withTimezone: true }).notNull().defaultNow(),
  /** Connections refused. */
  attempts: bigint("attempts", { mode: "number" }).notNull().default(0),
});
