import { demoContracts } from "./contracts";
import { z } from "zod";
import { count, sql } from "drizzle-orm";
import * as schema from "~db/postgres/schema";
import { chCommand, chInsert, chQuery, type ClickhouseHandle } from "~/server/clickhouse/query.server";
import type { Db } from "~/server/postgres.server";
import { forgetDataRange } from "~/features/flows/data-range.server";
import { hashPassword } from "~/server/password.server";
import { MODERATORS_GROUP } from "~/lib/permissions";
import { DEMO_ASES, OPERATOR_ASN, OPERATOR_NAME } from "./catalog";
import { AGGREGATES_FROM_PATHS, INTERFACE_UTIL_FROM_FLOWS, RAW_FLOWS_FROM_PATHS, WINDOW_INTERFACE_PEAKS } from "./flow-sql";
import { createRandom } from "./random";
import { buildRib, demoCommunityLabels } from "./rib";
import { buildTopology, namePorts, PORT_SPEEDS_BPS, ROUTERS, type DemoInterface, type PortSize } from "./topology";
import { buildAddressPlan, buildTraffic, CAP_FILL, OVERFLOW_SURGE, SPECIAL_AS, type DemoPath } from "./traffic";
import { seedDemoTags } from "./tags";
import { seedDemoAlertRules } from "./alerts";
import { demoUsers } from "./users";
import { importPeeringDb } from "~/features/routing/peeringdb/import.server";
import { demoPeeringDbJson } from "./peeringdb";

export const DEMO_SEED = 20_261_121;
export const DEMO_DAYS = 35;
const DAY = 86_400;
const BUCKET = 300;

export type DemoSummary = {
  seconds: number;
  rows: Record<string, number>;
  users: { kind: string; email: string; password: string }[];
  events: { kind: string; at: string; description: string }[];
  period: { start: string; end: string };
};

export type DemoOptions = {
  /** End of the period (exclusive), unix seconds; default: now, rounded down to 5 minutes. */
  now?: number;
  days?: number;
  seed?: number;
  /** Average inbound traffic at the start of the period, bit/s. */
  totalInboundBps?: number;
  /** Days that keep raw flow records (the rest exists only as aggregates). */
  rawDays?: number;
};

type Stores = { pg: { db: Db }; ch: ClickhouseHandle };

/**
 * Loads the deterministic demo network into both stores: inventory, users and mappings into
 * PostgreSQL; flows (raw for the last day, aggregates for the whole period), interface
 * utilisation and routing tables into ClickHouse. Meant for empty stores.
 */
export async function loadDemoNetwork(stores: Stores, options: DemoOptions = {}): Promise<DemoSummary> {
  const startedAt = performance.now();
  const days = options.days ?? DEMO_DAYS;
  const end = options.now ?? Math.floor(Date.now() / 1000 / BUCKET) * BUCKET;
  const start = end - days * DAY;
  const random = createRandom(options.seed ?? DEMO_SEED);
  const topology = buildTopology(DEMO_ASES, random);
  const addresses = buildAddressPlan(DEMO_ASES, OPERATOR_ASN);
  const traffic = buildTraffic({
    ases: DEMO_ASES,
    operatorAsn: OPERATOR_ASN,
    topology,
    addresses,
    random,
    start,
    end,
    totalInboundBps: options.totalInboundBps ?? 700e9,
  });
  const ch = stores.ch;

  await markLoading(stores.pg.db, { start, end, seed: options.seed ?? DEMO_SEED });
  await chInsert(ch, {
    name: "demo.trackedAs",
    table: "tracked_as",
    values: traffic.tracked.map((asn, rank) => ({ asn, rank, updated_at: end })),
  });
  const rawDays = options.rawDays ?? 1;
  // Ports are sized from the traffic they will carry, and named after their size, before any flow names them:
  // the traffic without the interface-failover and peer-overflow events (as the demo was before them).
  await createPathTable(ch, traffic.naturalPaths);
  const peaks = await interfacePeaks(ch, topology.interfaces, start, end, rawDays);
  const sizes = sizeInterfaces(topology.interfaces, peaks.period, random);
  const saturated = traffic.saturated;
  // The peer-overflow event's port is as small as its peer's evenings make it full; it is named after
  // the other ports of its router, which keep their names.
  const resized = new Map<DemoInterface, PortSize>();
  if (saturated) {
    const port = saturatedPortSize(saturated.rateAtEventBps);
    resized.set(saturated.iface, port);
    // The transit port takes what the interconnect cannot carry: at most the interconnect's natural
    // peak times the surge, less its cap, on top of its own peak. Too much for its port: a bigger one.
    const extra = (peaks.period.get(saturated.iface) ?? 0) * OVERFLOW_SURGE - CAP_FILL * port.speedBps * port.members;
    const bound = (peaks.period.get(saturated.transitIface) ?? 0) + Math.max(0, extra);
    const natural = sizes.get(saturated.transitIface)!;
    if (bound > HOT_MAX * natural.speedBps * natural.members) resized.set(saturated.transitIface, portFor(bound / OVERFLOW_TRANSIT_TARGET));
  }
  const renamed = namePorts(topology, sizes, resized);
  for (const [iface, size] of resized) sizes.set(iface, size);
  renamePathInterfaces(traffic.paths, renamed);
  const key = (i: DemoInterface) => `${i.router}/${i.name}`;
  const capacities = new Map(topology.interfaces.map((i) => [key(i), sizes.get(i)!.speedBps * sizes.get(i)!.members]));
  if (saturated) {
    const capacity = capacities.get(key(saturated.iface))!;
    for (const p of traffic.paths) if (p.cap) p.cap.bps = p.cap.share * CAP_FILL * capacity;
  }
  const weekPeaks = new Map(topology.interfaces.map((i) => [key(i), peaks.week.get(i) ?? 0]));
  await insertFlows(ch, traffic.paths, start, end, rawDays);
  forgetDataRange(stores);
  await insertInterfaceUtil(ch, topology.interfaces, capacities, start, end);
  // The ports the peer-overflow event loads differently: their peaks as their counters read them.
  if (saturated) {
    for (const iface of [saturated.iface, saturated.transitIface])
      weekPeaks.set(key(iface), await measuredPeak(ch, iface, end - 7 * DAY, end));
  }

  const rib = buildRib({ ases: DEMO_ASES, operatorAsn: OPERATOR_ASN, topology, addresses, events: traffic.events, start, end });
  for (let i = 0; i < rib.length; i += 20_000) {
    await chInsert(ch, { name: "demo.rib", table: "rib_entries", values: rib.slice(i, i + 20_000) });
  }

  const customerAsn = DEMO_ASES.filter((a) => a.connection === "customer").sort((a, b) => b.weight - a.weight)[0].asn;
  const users = demoUsers(customerAsn);
  await insertInventory(stores.pg.db, topology.interfaces, capacities, new Date(start * 1000).toISOString().slice(0, 8) + "01");
  await insertUsers(stores.pg.db, users);
  // PeeringDB facts of the demo's neighbours (db/demo/peeringdb.ts), through the importer staff use.
  const dump = demoPeeringDbJson(DEMO_ASES, topology.attachments, { asn: OPERATOR_ASN, name: OPERATOR_NAME });
  await importPeeringDb(stores, {
    sources: [
      {
        name: "demo-peeringdb.json",
        chunks: (async function* () {
          yield dump;
        })(),
      },
    ],
    actor: null,
  });
  await seedDemoTags(stores.pg.db);
  await seedDemoAlertRules(stores, { events: traffic.events, paths: traffic.paths, start, end, operatorAsn: OPERATOR_ASN });
  await notifyOperators(stores.pg.db, linkAlerts(topology.interfaces, sizes, weekPeaks));
  const events = traffic.events.map((e) => ({ kind: e.kind, at: new Date(e.at * 1000).toISOString(), description: e.description }));
  await stores.pg.db
    .insert(schema.systemState)
    .values({ key: "demo", value: { loaded: true, seed: options.seed ?? DEMO_SEED, start, end, events } })
    .onConflictDoUpdate({
      target: schema.systemState.key,
      set: { value: { loaded: true, seed: options.seed ?? DEMO_SEED, start, end, events }, updatedAt: new Date() },
    });

  return {
    seconds: (performance.now() - startedAt) / 1000,
    rows: await countRows(stores),
    users: users.map(({ kind, email, password }) => ({ kind, email, password })),
    events,
    period: { start: new Date(start * 1000).toISOString(), end: new Date(end * 1000).toISOString() },
  };
}

async function markLoading(db: Db, info: { start: number; end: number; seed: number }) {
  await db
    .insert(schema.systemState)
    .values({ key: "demo", value: { loaded: false, ...info } })
    .onConflictDoUpdate({ target: schema.systemState.key, set: { value: { loaded: false, ...info }, updatedAt: new Date() } });
}

/** Generator rows in ClickHouse's column naming. */
function pathRow(p: DemoPath) {
  return {
    id: p.id,
    valid_from: p.validFrom,
    valid_to: p.validTo,
    ip_version: p.ipVersion,
    rate_bps: p.rateBps,
    growth: p.growth,
    profile: p.profile,
    records: p.records,
    sampling_rate: p.samplingRate,
    exporter_name: p.exporterName,
    exporter_address: p.exporterAddress,
    ingress_router: p.ingressRouter,
    in_if: p.inIf,
    egress_router: p.egressRouter,
    out_if: p.outIf,
    link_start_router: p.linkStartRouter,
    link_start_if: p.linkStartIf,
    link_end_router: p.linkEndRouter,
    link_end_if: p.linkEndIf,
    as_src: p.asSrc,
    as_hnd: p.asHnd,
    as_nxt: p.asNxt,
    as_dst: p.asDst,
    application: p.application,
    infrastructure: p.infrastructure,
    protocol: p.protocol,
    src_ports: p.srcPorts,
    src_hosts: p.srcHosts,
    dst_hosts: p.dstHosts,
    src_prefix_len: p.srcPrefixLen,
    dst_prefix_len: p.dstPrefixLen,
    packet_size: p.packetSize,
    vrf_name: p.vrfName,
    // -1: no ICMP type (every other protocol), as the aggregates write it.
    icmp_type: p.icmp?.type ?? -1,
    icmp_code: p.icmp?.code ?? -1,
    noise_id: p.noiseOf ?? p.id,
    cap_bps: p.cap?.bps ?? 0,
    overflow: p.cap?.overflow ? 1 : 0,
    surge_from: p.cap?.surge.from ?? 0,
    surge_to: p.cap?.surge.to ?? 0,
    surge: p.cap?.surge.factor ?? 1,
  };
}

/**
 * The last `rawDays` go through flows_raw, so their aggregates come from the same materialized
 * views as collected traffic. Older days have no raw records (as after the raw TTL) and are
 * written into flows_5m directly, one row per path and 5 minutes; flows_1h follows by its view.
 */
/**
 * The day windows the flows are generated in: the last `rawDays` as raw records (up to 16 per
 * path and 5 minutes), the others as one record per path and 5 minutes straight into flows_5m.
 */
function dayWindows(start: number, end: number, rawDays: number) {
  const rawFrom = end - rawDays * DAY;
  const windows: { windowStart: number; detailed: boolean; params: Record<string, number> }[] = [];
  for (let windowStart = start; windowStart < end; windowStart += DAY) {
    const windowEnd = Math.min(end, windowStart + DAY);
    const detailed = windowStart >= rawFrom;
    windows.push({
      windowStart,
      detailed,
      params: {
        periodStart: start,
        periodLength: end - start,
        windowStart,
        buckets: (windowEnd - windowStart) / BUCKET,
        maxRecords: detailed ? 16 : 1,
      },
    });
  }
  return windows;
}

async function insertFlows(ch: ClickhouseHandle, paths: DemoPath[], start: number, end: number, rawDays: number) {
  await createPathTable(ch, paths);
  for (const { windowStart, detailed, params } of dayWindows(start, end, rawDays)) {
    const t0 = performance.now();
    await chCommand(ch, {
      name: detailed ? "demo.rawFlows" : "demo.aggregates",
      sql: detailed ? RAW_FLOWS_FROM_PATHS : AGGREGATES_FROM_PATHS,
      params,
      // Big blocks through the materialized views (fewer parts), and no summing at insert time:
      // collapsing LowCardinality keys while inserting costs 4x; background merges sum anyway.
      settings: {
        max_block_size: "2000000",
        min_insert_block_size_rows: "2000000",
        min_insert_block_size_bytes: "0",
        optimize_on_insert: 0,
      },
    });
    if (process.env.DEMO_TRACE)
      console.log(`day ${new Date(windowStart * 1000).toISOString()} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  await chCommand(ch, { name: "demo.dropPaths", sql: "DROP TABLE demo_paths" });
}

/** The generator table the flow SQL reads: one row per path. */
export async function createPathTable(ch: ClickhouseHandle, paths: DemoPath[]) {
  await chCommand(ch, { name: "demo.dropPaths", sql: "DROP TABLE IF EXISTS demo_paths" });
  await chCommand(ch, {
    name: "demo.createPaths",
    sql: `CREATE TABLE demo_paths (
      id UInt32, valid_from DateTime('UTC'), valid_to DateTime('UTC'), ip_version UInt8, rate_bps Float64,
      growth Float64, profile UInt8, records UInt8, sampling_rate UInt32, exporter_name String,
      exporter_address String, ingress_router String, in_if String, egress_router String, out_if String,
      link_start_router String, link_start_if String, link_end_router String, link_end_if String,
      as_src Int64, as_hnd Int64, as_nxt Int64, as_dst Int64, application String, infrastructure String,
      protocol UInt8, src_ports Array(UInt16), src_hosts Array(String), dst_hosts Array(String),
      src_prefix_len UInt8, dst_prefix_len UInt8, packet_size UInt16, vrf_name String, icmp_type Int16, icmp_code Int16,
      noise_id UInt32, cap_bps Float64, overflow UInt8, surge_from DateTime('UTC'), surge_to DateTime('UTC'), surge Float64
    ) ENGINE = MergeTree ORDER BY id`,
  });
  await chInsert(ch, { name: "demo.paths", table: "demo_paths", values: paths.map(pathRow) });
}

/**
 * Peak 5-minute rate of every interface, over the whole period and over its last week, from the
 * generator table as the flows will be written (window by window, as insertFlows writes them).
 */
async function interfacePeaks(ch: ClickhouseHandle, interfaces: DemoInterface[], start: number, end: number, rawDays: number) {
  const period = new Map<DemoInterface, number>();
  const week = new Map<DemoInterface, number>();
  const byKey = new Map(interfaces.map((i) => [`${i.router}/${i.name}`, i]));
  for (const { windowStart, params } of dayWindows(start, end, rawDays)) {
    const peaks = await chQuery(ch, {
      name: "demo.interfacePeaks",
      sql: WINDOW_INTERFACE_PEAKS,
      params,
      schema: z.object({ router: z.string(), interface: z.string(), peak_bps: z.number() }),
    });
    for (const row of peaks) {
      const iface = byKey.get(`${row.router}/${row.interface}`);
      if (!iface) continue;
      period.set(iface, Math.max(period.get(iface) ?? 0, row.peak_bps));
      if (windowStart >= end - 7 * DAY) week.set(iface, Math.max(week.get(iface) ?? 0, row.peak_bps));
    }
  }
  return { period, week };
}

/**
 * The peer-overflow event's port: of the standard sizes (up to 8 ports in a bundle), the one whose
 * cap (CAP_FILL of it) is nearest SATURATED_CAP of the peer's nominal rate at the event, so that its
 * evenings (at 0.9 to 1.08 times the nominal rate, plus noise) run against the cap.
 */
function saturatedPortSize(rateBps: number): PortSize {
  const candidates = PORT_SPEEDS_BPS.flatMap((speedBps) => Array.from({ length: 8 }, (_, i) => ({ speedBps, members: i + 1 })));
  const distance = (s: PortSize) => Math.abs((CAP_FILL * s.speedBps * s.members) / rateBps - SATURATED_CAP);
  return candidates.sort((a, b) => distance(a) - distance(b) || a.members - b.members)[0];
}
/** The saturated port's cap as a fraction of its peer's nominal rate. */
const SATURATED_CAP = 0.75;
/** The highest peak utilisation the sizing gives a port (the hot links' upper bound). */
const HOT_MAX = 0.93;
/** A transit port resized for the overflow: its bound on the peak at this utilisation at most. */
const OVERFLOW_TRANSIT_TARGET = 0.7;

/** The smallest port or bundle (of up to MAX_BUNDLE_MEMBERS ports of one speed) of at least `bps`. */
function portFor(bps: number): PortSize {
  const speedBps = PORT_SPEEDS_BPS.find((speed) => bps <= MAX_BUNDLE_MEMBERS * speed) ?? PORT_SPEEDS_BPS[PORT_SPEEDS_BPS.length - 1];
  return { speedBps, members: Math.max(1, Math.ceil(bps / speedBps)) };
}

/** Peak 5-minute rate (either direction, bit/s) of one interface in [from, to), from interface_util_5m. */
async function measuredPeak(ch: ClickhouseHandle, iface: DemoInterface, from: number, to: number): Promise<number> {
  const [row] = await chQuery(ch, {
    name: "demo.measuredPeak",
    sql: `SELECT toFloat64(max(greatest(in_bytes, out_bytes))) * 8 / 300 AS peak_bps FROM interface_util_5m
          WHERE router = {router:String} AND interface = {interface:String}
            AND time >= toDateTime({from:UInt32}, 'UTC') AND time < toDateTime({to:UInt32}, 'UTC')`,
    params: { router: iface.router, interface: iface.name, from, to },
    schema: z.object({ peak_bps: z.number() }),
  });
  return row?.peak_bps ?? 0;
}

/** At most this many ports in one bundle of an ordinary link. */
const MAX_BUNDLE_MEMBERS = 4;

/**
 * Port sizes — one 10GE, 100GE or 400GE port, or a bundle of ports of one speed (up to four; eight for the hot links) — from the
 * peak the interface carries over the period: most links run at 35-70 % at peak, a few hot
 * ones at 78-93 %, so the planners have something to plan and no port is over its capacity.
 */
function sizeInterfaces(
  interfaces: DemoInterface[],
  peaks: Map<DemoInterface, number>,
  random: ReturnType<typeof createRandom>,
): Map<DemoInterface, PortSize> {
  const sizes = new Map<DemoInterface, PortSize>();
  const sorted = [...interfaces].sort((a, b) => (peaks.get(b) ?? 0) - (peaks.get(a) ?? 0));
  const hot = new Set(sorted.filter((i) => i.kind === "external").slice(1, 4));
  for (const iface of interfaces) {
    const peak = peaks.get(iface) ?? 0;
    if (hot.has(iface)) {
      // The smallest port or bundle (up to 8 members, as routers allow) that puts the peak at 78-93 %.
      const candidates = PORT_SPEEDS_BPS.flatMap((speedBps) => Array.from({ length: 8 }, (_, i) => ({ speedBps, members: i + 1 })));
      const fit = candidates
        .filter((size) => peak / (size.speedBps * size.members) >= 0.78 && peak / (size.speedBps * size.members) <= 0.93)
        .sort((a, b) => a.speedBps * a.members - b.speedBps * b.members || a.members - b.members)[0];
      if (fit) {
        sizes.set(iface, fit);
        continue;
      }
    }
    const target = 0.35 + random.next() * 0.35;
    const speedBps =
      PORT_SPEEDS_BPS.find((speed) => peak / target <= MAX_BUNDLE_MEMBERS * speed) ?? PORT_SPEEDS_BPS[PORT_SPEEDS_BPS.length - 1];
    sizes.set(iface, { speedBps, members: Math.max(1, Math.ceil(peak / target / speedBps)) });
  }
  return sizes;
}

/** The paths' interface names after `namePorts` ("router/provisional name" → final name). */
function renamePathInterfaces(paths: DemoPath[], renamed: Map<string, string>) {
  const rename = (router: string, name: string) => (name ? (renamed.get(`${router}/${name}`) ?? name) : name);
  for (const p of paths) {
    p.inIf = rename(p.ingressRouter, p.inIf);
    p.outIf = rename(p.egressRouter, p.outIf);
    p.linkStartIf = rename(p.linkStartRouter, p.linkStartIf);
    p.linkEndIf = rename(p.linkEndRouter, p.linkEndIf);
  }
}

/** "100 Gbit/s", or for a bundle "4 × 10 Gbit/s (40 Gbit/s)". */
export function portSizeText(size: PortSize): string {
  const gbit = (bps: number) => `${bps / 1e9} Gbit/s`;
  return size.members > 1 ? `${size.members} × ${gbit(size.speedBps)} (${gbit(size.members * size.speedBps)})` : gbit(size.speedBps);
}

/**
 * Notifications an operator would have received: external links whose peak of the last week
 * crossed the planners' medium threshold (0.75), with the port's real size.
 */
function linkAlerts(interfaces: DemoInterface[], sizes: Map<DemoInterface, PortSize>, weekPeaks: Map<string, number>) {
  return interfaces
    .filter((i) => i.kind === "external")
    .map((i) => {
      const size = sizes.get(i)!;
      return { iface: i, size, utilisation: (weekPeaks.get(`${i.router}/${i.name}`) ?? 0) / (size.speedBps * size.members) };
    })
    .filter((a) => a.utilisation >= 0.75)
    .sort((a, b) => b.utilisation - a.utilisation)
    .map((a) => ({
      title: `Border link ${a.iface.router} ${a.iface.name} peaked at ${Math.round(a.utilisation * 100)} %`,
      message: `${a.iface.description}: peak of the last 7 days ${Math.round(a.utilisation * 100)} % of ${portSizeText(a.size)}.`,
      doPopUp: a.utilisation >= 0.85,
    }));
}

async function insertInterfaceUtil(
  ch: ClickhouseHandle,
  interfaces: DemoInterface[],
  capacities: Map<string, number>,
  start: number,
  end: number,
) {
  await chCommand(ch, { name: "demo.dropInterfaces", sql: "DROP TABLE IF EXISTS demo_interfaces" });
  await chCommand(ch, {
    name: "demo.createInterfaces",
    sql: `CREATE TABLE demo_interfaces (router String, interface String, kind String, neighbor_asn Int64, capacity_bps UInt64)
            ENGINE = MergeTree ORDER BY (router, interface)`,
  });
  await chInsert(ch, {
    name: "demo.interfaces",
    table: "demo_interfaces",
    values: interfaces.map((i) => ({
      router: i.router,
      interface: i.name,
      kind: i.kind,
      neighbor_asn: i.neighborAsn ?? 0,
      capacity_bps: capacities.get(`${i.router}/${i.name}`) ?? 0,
    })),
  });
  await chCommand(ch, { name: "demo.interfaceUtil", sql: INTERFACE_UTIL_FROM_FLOWS, params: { start, buckets: (end - start) / BUCKET } });
  await chCommand(ch, { name: "demo.dropInterfaces", sql: "DROP TABLE demo_interfaces" });
}

async function insertInventory(db: Db, interfaces: DemoInterface[], capacities: Map<string, number>, contractsFrom: string) {
  const topologyRouters = ROUTERS;
  await db.transaction(async (tx) => {
    await tx
      .insert(schema.asInfo)
      .values([
        { asn: OPERATOR_ASN, name: OPERATOR_NAME, country: "DE", category: "operator" },
        ...DEMO_ASES.map((a) => ({ asn: a.asn, name: a.name, country: a.country, category: a.category })),
      ])
      .onConflictDoNothing();
    const routerRows = await tx
      .insert(schema.routers)
      .values(
        topologyRouters.map((r) => ({
          name: r.name,
          city: r.city,
          country: r.country,
          loopback: r.loopback,
          vendor: r.vendor,
          role: "edge",
        })),
      )
      .returning({ id: schema.routers.id, name: schema.routers.name });
    const routerId = new Map(routerRows.map((r) => [r.name, r.id]));
    await tx.insert(schema.routerExporters).values(topologyRouters.map((r) => ({ address: r.exporter, routerId: routerId.get(r.name)! })));
    const inserted = await tx
      .insert(schema.interfaces)
      .values(
        interfaces.map((i) => ({
          routerId: routerId.get(i.router)!,
          name: i.name,
          snmpIndex: i.snmpIndex,
          description: i.description,
          capacityBps: capacities.get(`${i.router}/${i.name}`) ?? 0,
          kind: i.kind,
          peeringType: i.peeringType,
          connection: i.connection,
          neighborAsn: i.neighborAsn,
        })),
      )
      .returning({ id: schema.interfaces.id, routerId: schema.interfaces.routerId, name: schema.interfaces.name });
    const interfaceId = new Map(inserted.map((r) => [`${r.routerId}/${r.name}`, r.id]));
    for (const i of interfaces.filter((x) => x.remote)) {
      await tx
        .update(schema.interfaces)
        .set({ remoteInterfaceId: interfaceId.get(`${routerId.get(i.remote!.router)}/${i.remote!.name}`) })
        .where(sql`${schema.interfaces.id} = ${interfaceId.get(`${routerId.get(i.router)}/${i.name}`)}`);
    }
    // Revenues & Costs: a contract per transit, private peering, exchange port and customer (db/demo/contracts.ts),
    // valid from the first day of the month the demo data begins in.
    const names = new Map(DEMO_ASES.map((a) => [a.asn, a.name]));
    for (const c of demoContracts(interfaces, capacities, names, contractsFrom)) {
      const { ports, ...fields } = c;
      const [row] = await tx.insert(schema.contracts).values(fields).returning({ id: schema.contracts.id });
      await tx.insert(schema.contractInterfaces).values(
        ports.map((port) => {
          // Keys are "router/interface"; interface names hold slashes of their own (et-0/0/1).
          const slash = port.indexOf("/");
          const [router, name] = [port.slice(0, slash), port.slice(slash + 1)];
          return { contractId: row.id, interfaceId: interfaceId.get(`${routerId.get(router)}/${name}`)! };
        }),
      );
    }
    await tx.insert(schema.vantagePoints).values(
      topologyRouters.map((r) => ({
        key: r.vantagePointKey,
        city: r.city,
        country: r.countryName,
        router: r.name,
        legacyDescription: `${r.name.toUpperCase()} ${r.city}`,
        description: `${r.city}, ${r.countryName}`,
        ip: r.loopback,
        isPublic: r.isPublicVantagePoint,
      })),
    );
    const services = DEMO_ASES.flatMap((a) => [
      ...(a.application ? [{ asn: a.asn, kind: "Application" as const, name: a.application }] : []),
      ...(a.infrastructure ? [{ asn: a.asn, kind: "Infrastructure" as const, name: a.infrastructure }] : []),
    ]);
    if (services.length) await tx.insert(schema.asServiceMappings).values(services);
    await tx.insert(schema.communityLabels).values(demoCommunityLabels(OPERATOR_ASN)).onConflictDoNothing();
    // Base layer (0): names for the special AS values and colours for the applications.
    await tx.insert(schema.mappings).values([
      { model: "AS", objectId: String(SPECIAL_AS.others), layer: 0, name: "Others" },
      { model: "AS", objectId: String(SPECIAL_AS.untracked), layer: 0, name: "Untracked" },
      { model: "AS", objectId: String(SPECIAL_AS.notRoutable), layer: 0, name: "Not routable" },
      ...[...new Set(services.filter((s) => s.kind === "Application").map((s) => s.name))].map((name, i) => ({
        model: "Application" as const,
        objectId: name,
        layer: 0,
        name,
        color: PALETTE[i % PALETTE.length],
      })),
      ...[...new Set(services.filter((s) => s.kind === "Infrastructure").map((s) => s.name))].map((name, i) => ({
        model: "Infrastructure" as const,
        objectId: name,
        layer: 0,
        name,
        color: PALETTE[(i + 5) % PALETTE.length],
      })),
    ]);
  });
}

const PALETTE = ["#137cbd", "#d9822b", "#0f9960", "#db3737", "#8f398f", "#00b3a4", "#f5498b", "#a67908", "#634dbf", "#29a634"];

async function insertUsers(db: Db, users: ReturnType<typeof demoUsers>) {
  const hashes = await Promise.all(users.map((u) => hashPassword(u.password)));
  await db.transaction(async (tx) => {
    const [moderators] = await tx
      .select()
      .from(schema.groups)
      .where(sql`${schema.groups.name} = ${MODERATORS_GROUP}`);
    let delegatorId: number | null = null;
    for (const [index, user] of users.entries()) {
      const [row]: { id: number }[] = await tx
        .insert(schema.users)
        .values({
          email: user.email,
          firstName: user.firstName,
          lastName: user.lastName,
          passwordHash: hashes[index],
          isSuperuser: user.isSuperuser ?? false,
          isStaff: user.isStaff ?? false,
          isDelegated: user.isDelegated ?? false,
          delegatedById: user.isDelegated ? delegatorId : null,
          hasConsented: true,
          consentedAt: new Date(),
        })
        .returning({ id: schema.users.id });
      if (user.kind === "operator") delegatorId = row.id;
      await tx.insert(schema.userSettings).values({ userId: row.id });
      if (user.permissions.length) {
        await tx.insert(schema.userPermissions).values(user.permissions.map((permission) => ({ userId: row.id, permission })));
      }
      if (user.moderator && moderators) await tx.insert(schema.userGroups).values({ userId: row.id, groupId: moderators.id });
      if (user.restrictions) {
        await tx.insert(schema.delegationRestrictions).values({
          userId: row.id,
          flowsViewsRestrictions: user.restrictions.flows,
          externalLinksViewsRestrictions: { ASNumberList: user.restrictions.externalAsns, routerList: [], interfaceList: [] },
        });
      }
    }
  });
}

async function notifyOperators(db: Db, alerts: ReturnType<typeof linkAlerts>) {
  const recipients = await db
    .select({ id: schema.users.id })
    .from(schema.users)
    .where(sql`${schema.users.email} in ('operator@flowlens.example', 'admin@flowlens.example')`);
  const rows = recipients.flatMap((r) => alerts.map((a) => ({ userId: r.id, title: a.title, message: a.message, doPopUp: a.doPopUp })));
  if (rows.length) await db.insert(schema.notifications).values(rows);
}

const PG_TABLES = {
  users: schema.users,
  as_info: schema.asInfo,
  routers: schema.routers,
  router_exporters: schema.routerExporters,
  interfaces: schema.interfaces,
  vantage_points: schema.vantagePoints,
  mappings: schema.mappings,
  as_service_mappings: schema.asServiceMappings,
  community_labels: schema.communityLabels,
  contracts: schema.contracts,
  notifications: schema.notifications,
} as const;
const CH_TABLES = ["flows_raw", "flows_5m", "flows_1h", "interface_util_5m", "rib_entries", "rib_current", "tracked_as"] as const;

export async function countRows(stores: Stores): Promise<Record<string, number>> {
  const rows: Record<string, number> = {};
  for (const [name, table] of Object.entries(PG_TABLES)) {
    const [{ n }] = await stores.pg.db.select({ n: count() }).from(table);
    rows[`postgres.${name}`] = Number(n);
  }
  for (const table of CH_TABLES) {
    const [{ n }] = await chQuery(stores.ch, {
      name: "demo.countRows",
      sql: `SELECT toUInt64(count()) AS n FROM ${table}`,
      schema: z.object({ n: z.number() }),
    });
    rows[`clickhouse.${table}`] = Number(n);
  }
  return rows;
}

export function printDemoSummary(summary: DemoSummary) {
  const lines = [
    `Demo network loaded in ${summary.seconds.toFixed(1)} s (${summary.period.start} to ${summary.period.end}):`,
    ...Object.entries(summary.rows).map(([table, n]) => `  ${table.padEnd(32)} ${n.toLocaleString("en-US").padStart(12)} rows`),
    "Events to find:",
    ...summary.events.map((e) => `  ${e.at}  ${e.kind}: ${e.description}`),
  ];
  console.log(lines.join("\n"));
}

export function printDemoCredentials(users: { kind: string; email: string; password: string }[]) {
  console.log(["Demo users (password in brackets):", ...users.map((u) => `  ${u.kind.padEnd(10)} ${u.email} [${u.password}]`)].join("\n"));
}
