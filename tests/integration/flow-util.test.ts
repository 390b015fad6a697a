/**
 * The flow-derived interface utilisation writer (writeFlowUtil) on test stores: flows go the real
 * way — decoded flows enriched by the collector's enricher over the inventory, written to flows_raw
 * with sampling rates above 1 — and each interface_util_5m row (source 'flows') is checked against
 * a recomputation from the decoded flows themselves: per exporting router, the interface its ifIndex
 * names there, bytes × sampling rate in on the in ifIndex, out on the out ifIndex. A second pass
 * changes nothing, late flows within the margin are picked up, intervals before the watermark less
 * the margin are not rewritten, interfaces and exporters the inventory lacks are skipped, the demo's
 * history is left alone, and SNMP's row still wins for readers. Time moves by the `now` handed in.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemState } from "~db/postgres/schema";
import { emptyFlow, type DecodedFlow } from "~/features/collector/decode/flow-record";
import { createEnricher } from "~/features/collector/enrich/enrich";
import { loadEnrichmentSnapshot } from "~/features/collector/enrich/snapshot.server";
import { flowUtilState, FLOWS_UTIL_KEY, LATE_MARGIN_SECONDS, writeFlowUtil } from "~/features/collector/flow-util/flow-util.server";
import { createInterface, createRouter } from "~/features/inventory/inventory.server";
import { interfaceLoadQuery, interfaceLoadRow } from "~/features/flows/analysis-sql";
import { chCommand, chInsert, chQuery } from "~/server/clickhouse/query.server";
import { openTestStores, chRows, type TestStores } from "../helpers/stores";

let stores: TestStores;

const STEP = 300;
// The last closed interval ends at END; the runs happen 90 s into the next one.
const END = Math.floor(Date.now() / 1000 / STEP) * STEP - 2 * STEP;
const at = (seconds: number) => new Date(seconds * 1000);
const NOW = END + 90;

/** The inventory as the test knows it: exporter address → router, ifIndex → interface. */
const NETWORK = {
  "192.0.2.1": {
    router: "fra1-r1",
    interfaces: {
      11: { name: "et-0/0/1", kind: "external", neighbour_as: 3356, capacity: 100e9 },
      14: { name: "et-0/0/4", kind: "core", neighbour_as: null, capacity: 100e9 },
      15: { name: "ae1", kind: "external", neighbour_as: 64511, capacity: 20e9 },
    },
  },
  "192.0.2.2": {
    router: "ber1-r1",
    interfaces: {
      21: { name: "xe-0/0/1", kind: "external", neighbour_as: 64510, capacity: 10e9 },
      22: { name: "xe-0/0/2", kind: "core", neighbour_as: null, capacity: 10e9 },
    },
  },
} as const;
type Exporter = keyof typeof NETWORK;

let enrich: (flow: DecodedFlow) => Record<string, unknown>;
/** Every flow written, for the recomputation. */
const sent: DecodedFlow[] = [];

function flow(exporter: string, endSeconds: number, inIf: number, outIf: number, bytes: number, samplingRate: number, nextHop?: string) {
  return {
    ...emptyFlow("ipfix", exporter, 0),
    ipVersion: 4 as const,
    srcAddr: "198.18.0.1",
    dstAddr: "203.0.113.9",
    ipProtocol: 6,
    bytes,
    packets: Math.max(1, Math.floor(bytes / 1000)),
    samplingRate,
    inIfIndex: inIf,
    outIfIndex: outIf,
    bgpNextHop: nextHop ?? null,
    flowEndMs: endSeconds * 1000,
  };
}

async function send(flows: DecodedFlow[]) {
  sent.push(...flows);
  await chInsert(stores.ch, { name: "test.fixture", table: "flows_raw", values: flows.map(enrich) });
}

/**
 * One interval's traffic, seen by each router on its own interfaces: transit from the neighbour on
 * fra1-r1 et-0/0/1 over the core link to ber1-r1 and out to its peer (exported by both routers), the
 * way back, traffic in and out of fra1-r1's bundle, a record naming an ifIndex the inventory lacks,
 * and an exporter it does not know. `scale` varies the bytes per interval.
 */
function intervalFlows(start: number, scale: number): DecodedFlow[] {
  const end = start + 120;
  return [
    flow("192.0.2.1", end, 11, 14, 1500 * scale, 1000, "198.51.100.2"),
    flow("192.0.2.2", end + 1, 22, 21, 1400 * scale, 512),
    flow("192.0.2.2", end + 2, 21, 22, 700 * scale, 512, "198.51.100.1"),
    flow("192.0.2.1", end + 3, 14, 11, 650 * scale, 1000),
    flow("192.0.2.1", end + 4, 15, 11, 90 * scale, 100),
    flow("192.0.2.1", end + 5, 99, 15, 40 * scale, 100),
    flow("192.0.2.9", end + 6, 11, 14, 5000 * scale, 10),
    // Dropped by fra1-r1 (ACL deny): it came in on et-0/0/1 and never left by ae1.
    { ...flow("192.0.2.1", end + 7, 11, 15, 333 * scale, 100), forwardingStatus: 0x81 },
  ];
}

type Row = {
  time: number;
  router: string;
  interface: string;
  kind: string;
  neighbor_asn: number;
  in_bytes: number;
  out_bytes: number;
  capacity_bps: number;
};

/** The 'flows' rows as readers see them (FINAL: one per key). */
async function flowRows(): Promise<Row[]> {
  const rows = await chRows<Record<string, string | number>>(
    stores,
    [
      "SELECT toUnixTimestamp(time) AS time, router, interface, kind, neighbor_asn, toString(in_bytes) AS in_bytes,",
      "  toString(out_bytes) AS out_bytes, toString(capacity_bps) AS capacity_bps",
      "FROM interface_util_5m FINAL WHERE source = 'flows' ORDER BY time, router, interface",
    ].join("\n"),
  );
  return rows.map((r) => ({
    time: Number(r.time),
    router: String(r.router),
    interface: String(r.interface),
    kind: String(r.kind),
    neighbor_asn: Number(r.neighbor_asn),
    in_bytes: Number(r.in_bytes),
    out_bytes: Number(r.out_bytes),
    capacity_bps: Number(r.capacity_bps),
  }));
}

/**
 * The rows the flows sent in [from, to) should give, from the decoded flows: an interval and router
 * that exported anything gets every inventory interface of the router, bytes × sampling rate in on
 * the in ifIndex and out on the out ifIndex (not for packets the router dropped, which did not leave);
 * exporters and ifIndexes the inventory lacks add nothing.
 */
function recompute(from: number, to: number): Row[] {
  const rows = new Map<string, Row>();
  for (const f of sent) {
    const time = Math.floor(f.flowEndMs! / 1000 / STEP) * STEP;
    if (time < from || time >= to || !(f.exporter in NETWORK)) continue;
    const { router, interfaces } = NETWORK[f.exporter as Exporter];
    for (const [index, i] of Object.entries(interfaces)) {
      const key = `${time}|${router}|${i.name}`;
      if (!rows.has(key))
        rows.set(key, {
          time,
          router,
          interface: i.name,
          kind: i.kind,
          neighbor_asn: i.neighbour_as ?? 0,
          in_bytes: 0,
          out_bytes: 0,
          capacity_bps: i.capacity,
        });
      const row = rows.get(key)!;
      if (Number(index) === f.inIfIndex) row.in_bytes += f.bytes * f.samplingRate;
      const dropped = f.forwardingStatus !== null && f.forwardingStatus >> 6 === 2;
      if (Number(index) === f.outIfIndex && !dropped) row.out_bytes += f.bytes * f.samplingRate;
    }
  }
  return [...rows.values()].sort((a, b) => a.time - b.time || a.router.localeCompare(b.router) || a.interface.localeCompare(b.interface));
}

const OLD = END - 12 * STEP; // an hour before the end: outside the late margin of the later runs

beforeAll(async () => {
  stores = await openTestStores();
  await createRouter(stores, {
    name: "fra1-r1",
    city: "Frankfurt",
    country: "Germany",
    loopback: "198.51.100.1",
    exporters: ["192.0.2.1"],
  });
  await createRouter(stores, { name: "ber1-r1", city: "Berlin", country: "Germany", loopback: "198.51.100.2", exporters: ["192.0.2.2"] });
  await createInterface(stores, "fra1-r1", {
    name: "et-0/0/1",
    ifindex: 11,
    capacity: "100G",
    kind: "external",
    peering: "Transit",
    connection: "Transit",
    neighbour_as: 3356,
  });
  await createInterface(stores, "fra1-r1", {
    name: "ae1",
    ifindex: 15,
    capacity: "20G",
    kind: "external",
    peering: "Customer",
    connection: "PNI",
    neighbour_as: 64511,
  });
  await createInterface(stores, "ber1-r1", {
    name: "xe-0/0/1",
    ifindex: 21,
    capacity: "10G",
    kind: "external",
    peering: "Peering",
    connection: "BCIX",
    neighbour_as: 64510,
  });
  await createInterface(stores, "ber1-r1", { name: "xe-0/0/2", ifindex: 22, capacity: "10G", kind: "core" });
  await createInterface(stores, "fra1-r1", {
    name: "et-0/0/4",
    ifindex: 14,
    capacity: "100G",
    kind: "core",
    remote: { router: "ber1-r1", interface: "xe-0/0/2" },
  });
  const enricher = createEnricher(await loadEnrichmentSnapshot(stores));
  enrich = (f) => enricher.enrich(f, { arrivalMs: f.flowEndMs!, clockSkewed: false }) as unknown as Record<string, unknown>;

  // The old interval, then three recent ones (the middle one with ber1-r1 silent), and one still open.
  await send(intervalFlows(OLD, 1));
  await send(intervalFlows(END - 3 * STEP, 2));
  await send(intervalFlows(END - 2 * STEP, 3).filter((f) => f.exporter !== "192.0.2.2"));
  await send(intervalFlows(END - STEP, 5));
  await send(intervalFlows(END, 7));
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

describe("writeFlowUtil", () => {
  it("writes, per closed interval, every inventory interface of each exporting router with its bytes × sampling", async () => {
    const outcome = await writeFlowUtil(stores, at(NOW));
    expect(outcome).toMatchObject({ from: OLD, to: END, through: END, caughtUp: true });
    const rows = await flowRows();
    expect(rows).toEqual(recompute(OLD, END));
    // Spelled out for one row: the transit flow in at fra1-r1 (1500 B × 1000) and on the way back
    // out by its external port (650 B × 1000 from the core, 90 B × 100 from the bundle) in the first recent interval.
    expect(rows.find((r) => r.time === END - 3 * STEP && r.interface === "et-0/0/1")).toMatchObject({
      in_bytes: 2 * 1500 * 1000 + 2 * 333 * 100,
      out_bytes: 2 * (650 * 1000 + 90 * 100),
      kind: "external",
      neighbor_asn: 3356,
      capacity_bps: 100e9,
    });
    // The core link from both ends, each as its owner exported it: out at fra1-r1, in at ber1-r1.
    expect(rows.find((r) => r.time === END - 3 * STEP && r.interface === "xe-0/0/2")).toMatchObject({
      in_bytes: 2 * 1400 * 512,
      out_bytes: 2 * 700 * 512,
    });
    // ber1-r1 exported nothing in the middle interval: no rows for it (not known, not zero).
    expect(rows.filter((r) => r.time === END - 2 * STEP).map((r) => r.router)).toEqual(["fra1-r1", "fra1-r1", "fra1-r1"]);
    // Only the inventory's interfaces, only the inventory's routers; the open interval is not written.
    expect(new Set(rows.map((r) => `${r.router}/${r.interface}`))).toEqual(
      new Set(["fra1-r1/et-0/0/1", "fra1-r1/et-0/0/4", "fra1-r1/ae1", "ber1-r1/xe-0/0/1", "ber1-r1/xe-0/0/2"]),
    );
    expect(Math.max(...rows.map((r) => r.time))).toBe(END - STEP);
    expect(await flowUtilState(stores)).toEqual({ through: END });
  });

  it("changes nothing when run again", async () => {
    const before = await flowRows();
    const outcome = await writeFlowUtil(stores, at(NOW));
    expect(outcome.through).toBe(END);
    expect(await flowRows()).toEqual(before);
  });

  it("picks up late flows within the margin and leaves the intervals before it alone", async () => {
    const before = await flowRows();
    // Late records: for the last interval written (inside the margin) and for the old one (outside).
    await send([flow("192.0.2.1", END - STEP + 200, 11, 14, 3333, 1000, "198.51.100.2")]);
    await send([flow("192.0.2.2", OLD + 200, 21, 22, 4444, 512, "198.51.100.1")]);
    const outcome = await writeFlowUtil(stores, at(NOW + STEP));
    // From the watermark less the margin, moved up to the first interval with records.
    expect(END - LATE_MARGIN_SECONDS).toBeLessThan(END - 3 * STEP);
    expect(outcome).toMatchObject({ from: END - 3 * STEP, to: END + STEP, through: END + STEP });
    const rows = await flowRows();
    expect(rows.filter((r) => r.time >= END - LATE_MARGIN_SECONDS)).toEqual(recompute(END - LATE_MARGIN_SECONDS, END + STEP));
    const late = rows.find((r) => r.time === END - STEP && r.interface === "et-0/0/1")!;
    expect(late.in_bytes).toBe(5 * 1500 * 1000 + 5 * 333 * 100 + 3333 * 1000);
    // The old interval keeps what the first run wrote, without the late 4444 B × 512.
    expect(rows.filter((r) => r.time === OLD)).toEqual(before.filter((r) => r.time === OLD));
    expect(recompute(OLD, OLD + STEP)).not.toEqual(before.filter((r) => r.time === OLD));
  });

  it("leaves SNMP's row to the readers where both exist", async () => {
    const t = END - 3 * STEP;
    await chInsert(stores.ch, {
      name: "test.fixture",
      table: "interface_util_5m",
      values: [
        {
          time: t,
          router: "fra1-r1",
          interface: "et-0/0/1",
          kind: "external",
          neighbor_asn: 3356,
          in_bytes: 7_000_000,
          out_bytes: 8_000_000,
          capacity_bps: 100e9,
          source: "snmp",
          interpolated: 0,
        },
      ],
    });
    const read = (start: number) =>
      chQuery(stores.ch, { ...interfaceLoadQuery(["fra1-r1|et-0/0/1"], { start, end: start + STEP }), schema: interfaceLoadRow });
    expect(await read(t)).toMatchObject([{ key: "fra1-r1|et-0/0/1", in_bps: (7_000_000 * 8) / STEP, out_bps: (8_000_000 * 8) / STEP }]);
    // The next interval has no SNMP row: the flows' bytes.
    const next = recompute(t + STEP, t + 2 * STEP).find((r) => r.interface === "et-0/0/1")!;
    expect(await read(t + STEP)).toMatchObject([{ in_bps: (next.in_bytes * 8) / STEP, out_bps: (next.out_bytes * 8) / STEP }]);
  });

  it("does not write over the demo's generated history, and starts at the oldest raw record", async () => {
    await chCommand(stores.ch, { name: "test.truncate", sql: "TRUNCATE TABLE interface_util_5m" });
    await stores.pg.db.delete(systemState).where(eq(systemState.key, FLOWS_UTIL_KEY));
    const demoEnd = END - 2 * STEP;
    await stores.pg.db
      .insert(systemState)
      .values({ key: "demo", value: { loaded: true, seed: 1, start: OLD - 86_400, end: demoEnd, events: [] } });
    const outcome = await writeFlowUtil(stores, at(NOW));
    expect(outcome).toMatchObject({ from: demoEnd, to: END, through: END });
    expect(await flowRows()).toEqual(recompute(demoEnd, END));
    await stores.pg.db.delete(systemState).where(eq(systemState.key, "demo"));
  });
});
