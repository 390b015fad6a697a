// The flow collectors as ingest components: datagrams sent over UDP to a port-0 listener reach flows_raw through the
// decoding threads, counted per exporter in PostgreSQL and in /metrics; garbage is counted and the listener goes on;
// a slow or failing store drops the oldest batches, counted, so that received = stored + drops (+ pending) exactly.
import dgram from "node:dgram";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { collectorExporters, collectorListeners } from "~db/postgres/schema";
import { createRouter, deleteRouter } from "~/features/inventory/inventory.server";
import { flowCollector, type FlowCollector } from "~/features/collector/runtime/collector.server";
import { startComponentsIfHost } from "~/server/components/placement.server";
import { stopRunningComponents } from "~/server/components/supervisor.server";
import { renderPrometheus } from "~/server/metrics-exposition.server";
import { metricSeries } from "~/server/metrics.server";
import type { Services } from "~/server/services.server";
import { encodeIpfix, encodeNetflow5, encodeNetflow9, IE, type TemplateSpec } from "../fixtures/flow-encoders";
import { datagram, flowSample, sampledIpRecord } from "../fixtures/sflow-encoder";
import { chRows, openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
beforeAll(async () => {
  stores = await openTestStores();
});
afterEach(() => stopRunningComponents());
afterAll(() => stores?.dispose());

const FAST = { FLOWS_NETFLOW_FLUSH_SECONDS: "0.2", FLOWS_NETFLOW_WORKERS: "2" };

async function start(collector: FlowCollector, env: Record<string, string> = {}, services: Services = stores) {
  const listen = collector.name === "flows-sflow" ? "FLOWS_SFLOW_LISTEN" : "FLOWS_NETFLOW_LISTEN";
  return startComponentsIfHost("app", services, { env: { [listen]: "127.0.0.1:0", ...FAST, ...env }, components: [collector] });
}

/** Sends datagrams one at a time, each awaited: a busy machine must not drop them. */
async function send(port: number, datagrams: Uint8Array[], host = "127.0.0.1") {
  const socket = dgram.createSocket(host.includes(":") ? "udp6" : "udp4");
  try {
    for (const d of datagrams) await new Promise<void>((resolve, reject) => socket.send(d, port, host, (e) => (e ? reject(e) : resolve())));
  } finally {
    socket.close();
  }
}

type Raw = {
  exporter_address: string;
  flow_protocol: string;
  src_addr: string;
  dst_addr: string;
  src_port: number;
  dst_port: number;
  protocol: number;
  bytes: number;
  packets: number;
  sampling_rate: number;
  in_if_index: number;
  out_if_index: number;
  as_src: number;
  as_dst: number;
  next_hop: string;
  time_received: string;
};

const rawOf = (protocol: string) =>
  chRows<Raw>(
    stores,
    "SELECT *, toString(time_received) AS time_received FROM flows_raw WHERE flow_protocol = {p:String} ORDER BY src_port",
    { p: protocol },
  );

const nowSecs = () => Math.floor(Date.now() / 1000);

const V9_TEMPLATE: TemplateSpec = {
  id: 300,
  fields: [
    { id: IE.sourceIPv4Address, length: 4 },
    { id: IE.destinationIPv4Address, length: 4 },
    { id: IE.sourceTransportPort, length: 2 },
    { id: IE.destinationTransportPort, length: 2 },
    { id: IE.protocolIdentifier, length: 1 },
    { id: IE.octetDeltaCount, length: 4 },
    { id: IE.packetDeltaCount, length: 4 },
    { id: IE.ingressInterface, length: 4 },
    { id: IE.egressInterface, length: 4 },
    { id: IE.flowEndSysUpTime, length: 4 },
  ],
};

const IPFIX_TEMPLATE: TemplateSpec = {
  id: 400,
  fields: [
    { id: IE.sourceIPv6Address, length: 16 },
    { id: IE.destinationIPv6Address, length: 16 },
    { id: IE.sourceTransportPort, length: 2 },
    { id: IE.destinationTransportPort, length: 2 },
    { id: IE.protocolIdentifier, length: 1 },
    { id: IE.octetDeltaCount, length: 8 },
    { id: IE.packetDeltaCount, length: 8 },
    { id: IE.bgpSourceAsNumber, length: 4 },
    { id: IE.bgpDestinationAsNumber, length: 4 },
    { id: IE.flowEndMilliseconds, length: 8 },
  ],
};

function v9(records: number, firstPort: number, withTemplate: boolean, withData = true): Uint8Array {
  const unixSecs = nowSecs();
  return encodeNetflow9({
    sysUptimeMs: 100_000,
    unixSecs,
    sourceId: 7,
    sets: [
      ...(withTemplate ? [{ kind: "template" as const, templates: [V9_TEMPLATE] }] : []),
      ...(withData
        ? [
            {
              kind: "data" as const,
              template: V9_TEMPLATE,
              records: Array.from({ length: records }, (_, i) => ["10.1.0.1", "10.2.0.2", firstPort + i, 443, 6, 1500, 3, 11, 12, 99_000]),
            },
          ]
        : []),
    ],
  });
}

async function exporterRow(address: string, protocol: string) {
  const rows = await stores.pg.db.select().from(collectorExporters);
  return rows.find((r) => r.address === address && r.protocol === protocol);
}

async function scrape(): Promise<string> {
  return renderPrometheus(metricSeries(), {}, { residentMemoryBytes: 0, heapUsedBytes: 0, startTimeSeconds: 0 });
}

describe("flows-netflow", () => {
  it("stores NetFlow v5, v9 (data before its template too) and IPFIX flows with their fields, and counts per exporter", async () => {
    const collector = flowCollector("flows-netflow", { statsIntervalMs: 100 });
    const running = await start(collector);
    expect(running?.names).toEqual(["flows-netflow"]);
    const port = collector.port();
    expect(collector.health()).toMatchObject({ ok: true });
    expect(collector.health().detail).toMatch(new RegExp(`listening on 127\\.0\\.0\\.1:${port} \\(UDP`));
    expect(collector.health().detail).toMatch(/flows\/s/);
    const listeners = await stores.pg.db.select().from(collectorListeners);
    expect(listeners).toEqual([expect.objectContaining({ component: "flows-netflow", address: `127.0.0.1:${port}`, pid: process.pid })]);

    const unixSecs = nowSecs();
    await send(port, [
      encodeNetflow5({ sysUptimeMs: 100_000, unixSecs, samplingMode: 1, samplingInterval: 100 }, [
        {
          srcAddr: "192.0.2.10",
          dstAddr: "198.51.100.20",
          packets: 5,
          bytes: 4000,
          firstMs: 90_000,
          lastMs: 99_000,
          srcPort: 5001,
          dstPort: 80,
          protocol: 6,
          input: 3,
          output: 4,
          srcAs: 64500,
          dstAs: 64501,
          nextHop: "192.0.2.254",
        },
      ]),
      // Data before its template: kept, decoded when the template arrives.
      v9(2, 6001, false),
      v9(1, 6101, true),
      encodeIpfix({
        exportTime: unixSecs,
        domain: 1,
        sets: [
          { kind: "template", templates: [IPFIX_TEMPLATE] },
          {
            kind: "data",
            template: IPFIX_TEMPLATE,
            records: [["2001:db8::1", "2001:db8::2", 7001, 53, 17, 10_000n, 20n, 65001, 65002, BigInt(unixSecs * 1000)]],
          },
        ],
      }),
    ]);

    await expect.poll(() => collector.totals().stored, { timeout: 20_000 }).toBe(5);
    const [v5] = await rawOf("netflow5");
    expect(v5).toMatchObject({
      exporter_address: "::ffff:127.0.0.1",
      src_addr: "::ffff:192.0.2.10",
      dst_addr: "::ffff:198.51.100.20",
      src_port: 5001,
      dst_port: 80,
      protocol: 6,
      bytes: 4000,
      packets: 5,
      sampling_rate: 100,
      in_if_index: 3,
      out_if_index: 4,
      as_src: 64500,
      as_dst: 64501,
      next_hop: "::ffff:192.0.2.254",
    });
    const v9Rows = await rawOf("netflow9");
    expect(v9Rows.map((r) => r.src_port)).toEqual([6001, 6002, 6101]);
    expect(v9Rows[0]).toMatchObject({ bytes: 1500, packets: 3, in_if_index: 11, out_if_index: 12, dst_port: 443 });
    const [ipfix] = await rawOf("ipfix");
    expect(ipfix).toMatchObject({
      src_addr: "2001:db8::1",
      dst_addr: "2001:db8::2",
      bytes: 10_000,
      packets: 20,
      as_src: 65001,
      as_dst: 65002,
      protocol: 17,
    });
    expect(new Date(`${ipfix.time_received}Z`).getTime() / 1000).toBe(unixSecs);

    await expect.poll(async () => (await exporterRow("127.0.0.1", "netflow9"))?.flowsStored, { timeout: 10_000 }).toBe(3);
    const row = await exporterRow("127.0.0.1", "netflow9");
    expect(row).toMatchObject({
      datagrams: 2,
      flows: 3,
      flowsStored: 3,
      templateMisses: 0,
      samplingRates: [1],
      unknownIfIndexes: [11, 12],
      clockSkewed: false,
    });
    expect(row?.listener).toBe(`flows-netflow 127.0.0.1:${port}`);
    expect(Math.abs(row?.clockSkewMs ?? Infinity)).toBeLessThan(120_000);
    expect((await exporterRow("127.0.0.1", "netflow5"))?.samplingRates).toEqual([100]);

    const metrics = await scrape();
    expect(metrics).toContain('flowlens_collector_datagrams_total{exporter="127.0.0.1",protocol="netflow9"} 2');
    expect(metrics).toContain('flowlens_collector_flows_total{exporter="127.0.0.1",protocol="ipfix"} 1');
    expect(metrics).toContain('flowlens_collector_flows_stored_total{exporter="127.0.0.1",protocol="netflow5"} 1');
    expect(metrics).toContain("# TYPE flowlens_collector_flows_stored_total counter");

    await stopRunningComponents();
    expect(await stores.pg.db.select().from(collectorListeners)).toEqual([]);
  });

  it("counts garbage by reason and keeps listening; a skewed exporter clock times flows by arrival", async () => {
    const collector = flowCollector("flows-netflow", { statsIntervalMs: 100 });
    await start(collector, { FLOWS_NETFLOW_MAX_CLOCK_SKEW: "60" });
    const port = collector.port();
    const hourAgo = nowSecs() - 3600;
    await send(port, [
      Uint8Array.from([0, 42, 1, 2, 3, 4, 5, 6]),
      Uint8Array.from([0, 5]),
      encodeNetflow5({ sysUptimeMs: 100_000, unixSecs: hourAgo }, [
        {
          srcAddr: "192.0.2.77",
          dstAddr: "198.51.100.1",
          packets: 1,
          bytes: 100,
          firstMs: 99_000,
          lastMs: 99_500,
          srcPort: 9999,
          protocol: 17,
        },
      ]),
    ]);
    await expect.poll(() => collector.totals().stored, { timeout: 20_000 }).toBe(1);
    const skewed = (await rawOf("netflow5")).find((r) => r.src_port === 9999);
    expect(Math.abs(new Date(`${skewed?.time_received}Z`).getTime() / 1000 - nowSecs())).toBeLessThan(600);
    await expect
      .poll(async () => (await exporterRow("127.0.0.1", "unknown"))?.decodeErrors, { timeout: 10_000 })
      .toEqual({
        "unknown-version": 1,
        truncated: 1,
      });
    await expect.poll(async () => (await exporterRow("127.0.0.1", "netflow5"))?.clockSkewed, { timeout: 10_000 }).toBe(true);
    const metrics = await scrape();
    expect(metrics).toMatch(
      /flowlens_collector_decode_errors_total\{exporter="127.0.0.1",protocol="unknown",reason="unknown-version"\} \d+/,
    );
    expect(collector.health().ok).toBe(true);
  });

  it("listens on IPv6 and writes IPv4-mapped sources dotted", async () => {
    const collector = flowCollector("flows-netflow", { statsIntervalMs: 100 });
    await start(collector, { FLOWS_NETFLOW_LISTEN: "[::]:0" });
    expect(collector.health().detail).toMatch(/listening on \[::\]:\d+/);
    await send(collector.port(), [
      encodeNetflow5({ sysUptimeMs: 100_000, unixSecs: nowSecs() }, [
        { srcAddr: "192.0.2.1", dstAddr: "192.0.2.2", packets: 1, bytes: 64, firstMs: 99_000, lastMs: 99_000, srcPort: 4242, protocol: 6 },
      ]),
    ]);
    await send(
      collector.port(),
      [
        encodeNetflow5({ sysUptimeMs: 100_000, unixSecs: nowSecs() }, [
          {
            srcAddr: "192.0.2.1",
            dstAddr: "192.0.2.2",
            packets: 1,
            bytes: 64,
            firstMs: 99_000,
            lastMs: 99_000,
            srcPort: 4243,
            protocol: 6,
          },
        ]),
      ],
      "::1",
    );
    await expect.poll(() => collector.totals().stored, { timeout: 20_000 }).toBe(2);
    await stopRunningComponents();
    const rows = await stores.pg.db.select().from(collectorExporters);
    expect(rows.map((r) => r.address)).toEqual(expect.arrayContaining(["127.0.0.1", "::1"]));
    expect(rows.some((r) => r.address.startsWith("::ffff:"))).toBe(false);
  });

  it("loads an inventory change within seconds: flows of an exporter adopted meanwhile are its router's", async () => {
    // The regular reload is an hour away: only the check for a changed inventory can bring the router in.
    const collector = flowCollector("flows-netflow", { snapshotIntervalMs: 3_600_000, inventoryCheckMs: 100 });
    await start(collector);
    const routerOf = async (port: number) =>
      (
        await chRows<{ r: string }>(
          stores,
          "SELECT ingress_router AS r FROM flows_raw WHERE flow_protocol = 'netflow9' AND src_port = {p:UInt16}",
          {
            p: port,
          },
        )
      ).map((row) => row.r);
    let port = 61_000;
    /** One flow on its own source port, waited for until stored; its ingress router. */
    const sendOne = async () => {
      const stored = collector.totals().stored;
      await send(collector.port(), [v9(1, ++port, true)]);
      await expect.poll(() => collector.totals().stored, { timeout: 20_000 }).toBe(stored + 1);
      return (await routerOf(port))[0];
    };
    expect(await sendOne()).toBe("");
    const before = port;
    await createRouter(stores, {
      name: "adopted-r1",
      city: "Berlin",
      country: "Germany",
      loopback: "198.51.100.9",
      exporters: ["127.0.0.1"],
    });
    try {
      let router = "";
      for (let tries = 0; tries < 100 && router !== "adopted-r1"; tries++) router = await sendOne();
      expect(router).toBe("adopted-r1");
      // What was stored before stays as it was.
      expect(await routerOf(before)).toEqual([""]);
    } finally {
      await deleteRouter(stores, "adopted-r1");
    }
  });
});

describe("cut datagrams", () => {
  /** Flows, bytes and packets stored for source ports in [from, to). */
  const storedTraffic = async (protocol: string, from: number, to: number) => {
    const [row] = await chRows<{ flows: string; bytes: string; packets: string }>(
      stores,
      `SELECT count() AS flows, sum(bytes) AS bytes, sum(packets) AS packets FROM flows_raw
       WHERE flow_protocol = {p:String} AND src_port >= {from:UInt16} AND src_port < {to:UInt16}`,
      { p: protocol, from, to },
    );
    return { flows: Number(row.flows), bytes: Number(row.bytes), packets: Number(row.packets) };
  };
  /** Every length a copy could be cut to that still holds the protocol's header, a few of each kind. */
  const cutsOf = (whole: Uint8Array, headerLength: number) =>
    [...new Set([headerLength + 1, headerLength + 4, Math.floor(whole.length / 2), whole.length - 48, whole.length - 4, whole.length - 1])]
      .filter((length) => length > headerLength && length < whole.length)
      .map((length) => whole.slice(0, length));
  const errorsOf = async (address: string, protocol: string) => (await exporterRow(address, protocol))?.decodeErrors ?? {};
  const metricOf = async (protocol: string, reason: string) =>
    Number(
      new RegExp(
        `flowlens_collector_decode_errors_total\\{exporter="127\\.0\\.0\\.1",protocol="${protocol}",reason="${reason}"\\} (\\d+)`,
      ).exec(await scrape())?.[1] ?? 0,
    );

  it("NetFlow v5, v9 and IPFIX: cut copies sent after the whole datagrams add no traffic, and are counted as truncated", async () => {
    const collector = flowCollector("flows-netflow", { statsIntervalMs: 100 });
    await start(collector);
    const port = collector.port();
    const unixSecs = nowSecs();
    const v5Record = (srcPort: number, bytes: number) => ({
      srcAddr: "192.0.2.30",
      dstAddr: "198.51.100.30",
      packets: 2,
      bytes,
      firstMs: 98_000,
      lastMs: 99_000,
      srcPort,
      protocol: 6,
    });
    const v5 = encodeNetflow5({ sysUptimeMs: 100_000, unixSecs }, [v5Record(20_001, 1000), v5Record(20_002, 2000), v5Record(20_003, 3000)]);
    const v9Whole = v9(3, 20_101, true);
    const ipfix = encodeIpfix({
      exportTime: unixSecs,
      domain: 3,
      sets: [
        { kind: "template", templates: [IPFIX_TEMPLATE] },
        {
          kind: "data",
          template: IPFIX_TEMPLATE,
          records: [20_201, 20_202].map((srcPort) => [
            "2001:db8::30",
            "2001:db8::31",
            srcPort,
            53,
            17,
            700n,
            7n,
            0,
            0,
            BigInt(unixSecs * 1000),
          ]),
        },
      ],
    });
    const errorsBefore = {
      v5: await errorsOf("127.0.0.1", "netflow5"),
      v9: await errorsOf("127.0.0.1", "netflow9"),
      ipfix: await errorsOf("127.0.0.1", "ipfix"),
    };
    const metricsBefore = {
      v5: await metricOf("netflow5", "truncated"),
      v9: await metricOf("netflow9", "truncated"),
      ipfix: await metricOf("ipfix", "truncated"),
    };
    const storedBefore = collector.totals().stored;
    await send(port, [v5, v9Whole, ipfix]);
    await expect.poll(() => collector.totals().stored, { timeout: 20_000 }).toBe(storedBefore + 8);
    const whole = {
      v5: await storedTraffic("netflow5", 20_001, 20_100),
      v9: await storedTraffic("netflow9", 20_101, 20_200),
      ipfix: await storedTraffic("ipfix", 20_201, 20_300),
    };
    expect(whole).toEqual({
      v5: { flows: 3, bytes: 6000, packets: 6 },
      v9: { flows: 3, bytes: 4500, packets: 9 },
      ipfix: { flows: 2, bytes: 1400, packets: 14 },
    });

    // A v5 copy cut to 24 + 48 bytes holds one whole record: the header's count still tells it is cut.
    const cuts = { v5: [...cutsOf(v5, 24), v5.slice(0, 24 + 48)], v9: cutsOf(v9Whole, 20), ipfix: cutsOf(ipfix, 16) };
    const datagramsBefore = collector.totals().datagrams;
    const sent = cuts.v5.length + cuts.v9.length + cuts.ipfix.length;
    await send(port, [...cuts.v5, ...cuts.v9, ...cuts.ipfix]);
    await expect.poll(() => collector.totals().datagrams, { timeout: 20_000 }).toBe(datagramsBefore + sent);
    // The errors reach PostgreSQL after the thread's batch: once they are there, any flow of those datagrams would be too.
    const grew = async (address: string, protocol: string, before: Record<string, number>) =>
      ((await errorsOf(address, protocol)).truncated ?? 0) - (before.truncated ?? 0);
    await expect.poll(() => grew("127.0.0.1", "netflow5", errorsBefore.v5), { timeout: 10_000 }).toBe(cuts.v5.length);
    await expect.poll(() => grew("127.0.0.1", "netflow9", errorsBefore.v9), { timeout: 10_000 }).toBe(cuts.v9.length);
    await expect.poll(() => grew("127.0.0.1", "ipfix", errorsBefore.ipfix), { timeout: 10_000 }).toBe(cuts.ipfix.length);
    await stopRunningComponents();

    expect(collector.totals().stored).toBe(storedBefore + 8);
    expect({
      v5: await storedTraffic("netflow5", 20_001, 20_100),
      v9: await storedTraffic("netflow9", 20_101, 20_200),
      ipfix: await storedTraffic("ipfix", 20_201, 20_300),
    }).toEqual(whole);
    expect({
      v5: (await metricOf("netflow5", "truncated")) - metricsBefore.v5,
      v9: (await metricOf("netflow9", "truncated")) - metricsBefore.v9,
      ipfix: (await metricOf("ipfix", "truncated")) - metricsBefore.ipfix,
    }).toEqual({ v5: cuts.v5.length, v9: cuts.v9.length, ipfix: cuts.ipfix.length });
  });

  it("sFlow: cut copies sent after the whole datagram add no traffic, and are counted as truncated for its agent", async () => {
    const collector = flowCollector("flows-sflow", { statsIntervalMs: 100 });
    await start(collector, { FLOWS_SFLOW_FLUSH_SECONDS: "0.2", FLOWS_SFLOW_WORKERS: "1" });
    const agent = "192.0.2.230";
    const sample = (srcPort: number, length: number) =>
      flowSample({
        samplingRate: 100,
        input: { value: 1 },
        output: { value: 2 },
        records: [sampledIpRecord({ length, protocol: 17, src: "203.0.113.30", dst: "198.51.100.30", srcPort, dstPort: 53, tcpFlags: 0 })],
      });
    const whole = datagram({ agent, samples: [sample(20_301, 100), sample(20_302, 200), sample(20_303, 300)] });
    const storedBefore = collector.totals().stored;
    await send(collector.port(), [whole]);
    await expect.poll(() => collector.totals().stored, { timeout: 20_000 }).toBe(storedBefore + 3);
    const stored = await storedTraffic("sflow5", 20_301, 20_400);
    expect(stored).toEqual({ flows: 3, bytes: 600, packets: 3 });

    // 28 bytes are the header of an IPv4 agent; a cut at a sample's end still lacks the samples the header announces.
    const firstSampleEnd = 28 + 8 + whole.readUInt32BE(28 + 4);
    const cuts = [...cutsOf(whole, 28), whole.subarray(0, firstSampleEnd)];
    const datagramsBefore = collector.totals().datagrams;
    await send(collector.port(), cuts);
    await expect.poll(() => collector.totals().datagrams, { timeout: 20_000 }).toBe(datagramsBefore + cuts.length);
    await expect.poll(async () => (await errorsOf(agent, "sflow5")).truncated, { timeout: 10_000 }).toBe(cuts.length);
    await stopRunningComponents();
    expect(collector.totals().stored).toBe(storedBefore + 3);
    expect(await storedTraffic("sflow5", 20_301, 20_400)).toEqual(stored);
    expect(await scrape()).toContain(
      `flowlens_collector_decode_errors_total{exporter="${agent}",protocol="sflow5",reason="truncated"} ${cuts.length}`,
    );
  });
});

describe("flows-sflow", () => {
  it("stores sFlow flow samples", async () => {
    const collector = flowCollector("flows-sflow", { statsIntervalMs: 100 });
    await start(collector, { FLOWS_SFLOW_FLUSH_SECONDS: "0.2", FLOWS_SFLOW_WORKERS: "1" });
    const sample = flowSample({
      samplingRate: 512,
      input: { value: 21 },
      output: { value: 22 },
      records: [
        sampledIpRecord({
          length: 1200,
          protocol: 6,
          src: "203.0.113.5",
          dst: "198.51.100.9",
          srcPort: 8080,
          dstPort: 51000,
          tcpFlags: 0x18,
        }),
      ],
    });
    await send(collector.port(), [datagram({ agent: "192.0.2.1", subAgentId: 5, samples: [sample] })]);
    await expect.poll(() => collector.totals().stored, { timeout: 20_000 }).toBe(1);
    const [row] = await rawOf("sflow5");
    expect(row).toMatchObject({
      exporter_address: "::ffff:192.0.2.1",
      src_addr: "::ffff:203.0.113.5",
      src_port: 8080,
      sampling_rate: 512,
      in_if_index: 21,
      out_if_index: 22,
      packets: 1,
    });
    // The exporter is the agent the datagram names, with its sub-agent id; the UDP source is kept beside it.
    await expect.poll(async () => (await exporterRow("192.0.2.1", "sflow5"))?.flowsStored, { timeout: 10_000 }).toBe(1);
    expect(await exporterRow("192.0.2.1", "sflow5")).toMatchObject({ subAgentId: 5, udpSources: ["127.0.0.1"], datagrams: 1 });
    expect(await exporterRow("127.0.0.1", "sflow5")).toBeUndefined();
  });

  it("keeps two sub-agents of one agent apart, and gives the flows of an agent adopted by its UDP source its router", async () => {
    const collector = flowCollector("flows-sflow", { statsIntervalMs: 100, snapshotIntervalMs: 3_600_000, inventoryCheckMs: 100 });
    await start(collector, { FLOWS_SFLOW_FLUSH_SECONDS: "0.2", FLOWS_SFLOW_WORKERS: "1" });
    const agent = "192.0.2.240";
    let srcPort = 21_000;
    const one = (subAgentId: number) =>
      datagram({
        agent,
        subAgentId,
        samples: [
          flowSample({
            samplingRate: 1,
            input: { value: 1 },
            output: { value: 2 },
            records: [
              sampledIpRecord({
                length: 64,
                protocol: 17,
                src: "203.0.113.40",
                dst: "198.51.100.40",
                srcPort: ++srcPort,
                dstPort: 53,
                tcpFlags: 0,
              }),
            ],
          }),
        ],
      });
    const routerOf = async (port: number) =>
      (
        await chRows<{ r: string }>(
          stores,
          "SELECT ingress_router AS r FROM flows_raw WHERE flow_protocol = 'sflow5' AND src_port = {p:UInt16}",
          { p: port },
        )
      )[0]?.r;
    const sendOne = async (subAgentId: number) => {
      const stored = collector.totals().stored;
      await send(collector.port(), [one(subAgentId)]);
      await expect.poll(() => collector.totals().stored, { timeout: 20_000 }).toBe(stored + 1);
      return routerOf(srcPort);
    };
    expect(await sendOne(1)).toBe("");
    expect(await sendOne(2)).toBe("");
    await expect
      .poll(
        async () =>
          (await stores.pg.db.select().from(collectorExporters))
            .filter((r) => r.address === agent)
            .map((r) => [r.subAgentId, r.flows])
            .sort(),
        { timeout: 10_000 },
      )
      .toEqual([
        [1, 1],
        [2, 1],
      ]);
    // The inventory names the address the collector hears the agent from (a relay's, a NAT's), not the agent's.
    await createRouter(stores, {
      name: "relayed-r1",
      city: "Berlin",
      country: "Germany",
      loopback: "198.51.100.41",
      exporters: ["127.0.0.1"],
    });
    try {
      let router = "";
      for (let tries = 0; tries < 100 && router !== "relayed-r1"; tries++) router = (await sendOne(1)) ?? "";
      expect(router).toBe("relayed-r1");
      const [stored] = await chRows<{ e: string }>(stores, "SELECT exporter_address AS e FROM flows_raw WHERE src_port = {p:UInt16}", {
        p: srcPort,
      });
      expect(stored.e).toBe(`::ffff:${agent}`);
    } finally {
      await deleteRouter(stores, "relayed-r1");
    }
  });
});

describe("back-pressure", () => {
  const burst = async (port: number, datagrams: number, records: number) => {
    for (let i = 0; i < datagrams; i += 5)
      await send(
        port,
        Array.from({ length: Math.min(5, datagrams - i) }, (_, j) => v9(records, (i + j) * records, true)),
      );
  };
  const accounted = (t: ReturnType<FlowCollector["totals"]>) => t.stored + Object.values(t.dropped).reduce((a, b) => a + b, 0) + t.pending;

  it("a slow store loses the oldest batches, counted: received = stored + drops, exactly", async () => {
    let inserted = 0;
    const collector = flowCollector("flows-netflow", {
      statsIntervalMs: 100,
      insert: async (_services, body) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        inserted += body.rows;
      },
    });
    // Earlier tests of this file counted for the same exporter: the figures here are what this one adds.
    const before = (await exporterRow("127.0.0.1", "netflow9")) ?? { flows: 0, flowsStored: 0, drops: {} };
    const dropsOf = (row: { drops: Record<string, number> }) => Object.values(row.drops).reduce((a, b) => a + b, 0);
    await start(collector, { FLOWS_NETFLOW_BATCH_ROWS: "100", FLOWS_NETFLOW_QUEUE_ROWS: "1000", FLOWS_NETFLOW_FLUSH_SECONDS: "0.1" });
    await burst(collector.port(), 200, 20);
    await expect.poll(() => collector.totals().flows, { timeout: 20_000 }).toBe(4000);
    const during = collector.totals();
    expect(accounted(during)).toBe(during.flows);
    expect(during.dropped.queue_full).toBeGreaterThan(0);
    await stopRunningComponents();
    const after = collector.totals();
    expect(after.pending).toBe(0);
    expect(after.stored).toBe(inserted);
    expect(after.stored + Object.values(after.dropped).reduce((a, b) => a + b, 0)).toBe(4000);
    const row = await exporterRow("127.0.0.1", "netflow9");
    expect(row!.flows - before.flows).toBe(4000);
    expect(row!.flowsStored - before.flowsStored + dropsOf(row!) - dropsOf(before)).toBe(4000);
    expect(await scrape()).toMatch(/flowlens_collector_drops_total\{exporter="127.0.0.1",protocol="netflow9",reason="queue_full"\} \d+/);
  });

  it("a failing store is retried, then its batches are dropped and counted; the listener goes on", async () => {
    let calls = 0;
    const collector = flowCollector("flows-netflow", {
      statsIntervalMs: 100,
      insertAttempts: 2,
      insertRetryDelayMs: 10,
      insert: async () => {
        calls++;
        throw new Error("store unavailable");
      },
    });
    await start(collector);
    await burst(collector.port(), 10, 10);
    await expect.poll(() => collector.totals().dropped.store_failed ?? 0, { timeout: 20_000 }).toBe(100);
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(collector.totals()).toMatchObject({ flows: 100, stored: 0, pending: 0 });
    expect(collector.health().ok).toBe(true);
  });

  it("stop() writes what it holds", async () => {
    const collector = flowCollector("flows-netflow", { statsIntervalMs: 60_000 });
    // A flush interval longer than the test: only the stop writes the rows.
    await start(collector, { FLOWS_NETFLOW_FLUSH_SECONDS: "5" });
    await burst(collector.port(), 3, 10);
    await expect.poll(() => collector.totals().flows, { timeout: 20_000 }).toBe(30);
    expect(collector.totals().stored).toBe(0);
    await stopRunningComponents();
    expect(collector.totals()).toMatchObject({ stored: 30, pending: 0 });
  });
});

describe("placement", () => {
  it("a web process on server stores does not listen", async () => {
    const collector = flowCollector("flows-netflow");
    const onServerStores = { ...stores, config: { ...stores.config, embeddedPostgres: false, embeddedClickhouse: false } };
    expect(await start(collector, {}, onServerStores)).toBeNull();
    expect(collector.port()).toBe(0);
  });
});
