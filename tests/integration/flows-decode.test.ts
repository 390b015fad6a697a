/**
 * npm run -s flows:decode: the script run as a support engineer runs it, on captures written here
 * (datagrams from the RFC-based encoders of tests/fixtures/flow-encoders.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "../helpers/run-script";
import { writePcap } from "~/features/collector/pcap/pcap-writer";
import { encodeIpfix, encodeNetflow5, encodeNetflow9, IE, VARIABLE, type TemplateSpec } from "../fixtures/flow-encoders";
import { ETHERTYPE, PROTOCOL, ethernet, gre, ipv4, ipv6, mpls, tcp } from "../fixtures/packet-encoder";
import { datagram, flowSample, sampledIpRecord } from "../fixtures/sflow-encoder";

const EXPORTER = "192.0.2.9";
const UPTIME = 3_600_000;
const UNIX_SECS = 1_700_000_000;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "flowlens-decode-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function capture(name: string, payloads: Uint8Array[]): string {
  const file = path.join(dir, name);
  const datagrams = payloads.map((payload, i) => ({
    timestampMs: UNIX_SECS * 1000 + i,
    srcAddr: EXPORTER,
    srcPort: 50000,
    dstAddr: "192.0.2.1",
    dstPort: 2055,
    payload,
  }));
  writeFileSync(file, writePcap(datagrams));
  return file;
}

const run = (args: string[]) => runScript("flows-decode.ts", args);

const template: TemplateSpec = {
  id: 300,
  fields: [
    { id: IE.sourceIPv4Address, length: 4 },
    { id: IE.destinationIPv4Address, length: 4 },
    { id: IE.sourceTransportPort, length: 2 },
    { id: IE.destinationTransportPort, length: 2 },
    { id: IE.protocolIdentifier, length: 1 },
    { id: IE.octetDeltaCount, length: 4 },
    { id: IE.packetDeltaCount, length: 4 },
    { id: IE.ingressInterface, length: 2 },
    { id: IE.egressInterface, length: 2 },
    { id: IE.samplingInterval, length: 4 },
    { id: IE.flowStartSysUpTime, length: 4 },
    { id: IE.flowEndSysUpTime, length: 4 },
  ],
};

describe("npm run -s flows:decode", () => {
  it("prints one JSON object per flow, a template file before its data file sharing one template state", async () => {
    const templates = capture("template.pcap", [
      encodeNetflow9({ sysUptimeMs: UPTIME, unixSecs: UNIX_SECS, sourceId: 3, sets: [{ kind: "template", templates: [template] }] }),
    ]);
    const data = capture("data.pcap", [
      encodeNetflow9({
        sysUptimeMs: UPTIME,
        unixSecs: UNIX_SECS,
        sourceId: 3,
        sets: [
          {
            kind: "data",
            template,
            records: [
              ["198.51.100.7", "203.0.113.9", 40000, 443, 6, 1500, 2, 11, 22, 512, UPTIME - 9_000, UPTIME - 1_000],
              ["198.51.100.8", "203.0.113.9", 40001, 53, 17, 80, 1, 11, 23, 512, UPTIME - 5_000, UPTIME - 4_000],
            ],
          },
        ],
      }),
    ]);
    const v5 = capture("v5.pcap", [
      encodeNetflow5({ sysUptimeMs: UPTIME, unixSecs: UNIX_SECS, samplingInterval: 100 }, [
        {
          srcAddr: "192.0.2.50",
          dstAddr: "198.51.100.60",
          packets: 4,
          bytes: 400,
          firstMs: UPTIME - 3_000,
          lastMs: UPTIME - 1_000,
          protocol: 6,
          srcAs: 64501,
          dstAs: 64502,
          input: 5,
          output: 6,
        },
      ]),
    ]);
    const result = await run([templates, data, v5]);
    expect(result.code).toBe(0);
    const flows = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(flows).toHaveLength(3);
    expect(flows[0]).toMatchObject({
      exporter: EXPORTER,
      udp_source: EXPORTER,
      version: "netflow9",
      source_id: 3,
      sampling_rate: 512,
      src_addr: "198.51.100.7",
      src_port: 40000,
      dst_addr: "203.0.113.9",
      dst_port: 443,
      protocol: 6,
      bytes: 1500,
      packets: 2,
      in_if: 11,
      out_if: 22,
      flow_start: new Date(UNIX_SECS * 1000 - 9_000).toISOString(),
      flow_end: new Date(UNIX_SECS * 1000 - 1_000).toISOString(),
    });
    expect(flows[1]).toMatchObject({ protocol: 17, dst_port: 53, bytes: 80 });
    expect(flows[2]).toMatchObject({ version: "netflow5", sampling_rate: 100, src_as: 64501, dst_as: 64502, bytes: 400, packets: 4 });
    expect(result.stderr).toContain("template.pcap: 1 datagrams, 0 flows");
    expect(result.stderr).toContain("data.pcap: 1 datagrams, 2 flows");
  }, 60_000);

  it("says on stderr which datagram could not be decoded and why, and goes on", async () => {
    const garbage = capture("garbage.pcap", [
      Uint8Array.from([0, 9, 0, 1, 2]),
      encodeNetflow5({ sysUptimeMs: UPTIME, unixSecs: UNIX_SECS }, []),
    ]);
    const result = await run([garbage]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/garbage\.pcap: datagram 1 from 192\.0\.2\.9: truncated: /);
    expect(result.stderr).toContain("garbage.pcap: 2 datagrams, 0 flows, 1 decode problems");
  }, 60_000);

  it("names an sFlow exporter by its agent address and sub-agent, with the UDP source beside it; a cut copy gives no flow", async () => {
    const whole = datagram({
      agent: "10.20.30.40",
      subAgentId: 2,
      samples: [
        flowSample({
          samplingRate: 256,
          input: { value: 4 },
          output: { value: 5 },
          records: [
            sampledIpRecord({
              length: 900,
              protocol: 6,
              src: "198.51.100.1",
              dst: "203.0.113.1",
              srcPort: 443,
              dstPort: 40000,
              tcpFlags: 0,
            }),
          ],
        }),
      ],
    });
    const sflow = capture("sflow.pcap", [whole, whole.subarray(0, whole.length - 4)]);
    const result = await run([sflow]);
    expect(result.code).toBe(0);
    const flows = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(flows).toEqual([
      expect.objectContaining({
        exporter: "10.20.30.40",
        udp_source: EXPORTER,
        version: "sflow5",
        source_id: 2,
        bytes: 900,
        sampling_rate: 256,
      }),
    ]);
    expect(result.stderr).toMatch(/sflow\.pcap: datagram 2 from 192\.0\.2\.9: truncated: sample 1 of 1: /);
    expect(result.stderr).toContain(
      `sflow.pcap: 2 datagrams, 1 flows, 1 decode problems, sFlow agent 10.20.30.40 sub-agent 2 from UDP source ${EXPORTER}`,
    );
  }, 60_000);

  it("prints what a sampled header gave (IPFIX IE 315): the counted header, tunnels, labels, TTL, fragment fields; a stop on stderr", async () => {
    const frame = ethernet({
      vlans: [7],
      etherType: ETHERTYPE.mpls,
      payload: mpls(
        [16004],
        ipv6({
          src: "2001:db8:ff::1",
          dst: "2001:db8:ff::2",
          nextHeader: PROTOCOL.gre,
          payload: gre({
            protocol: ETHERTYPE.ipv4,
            key: 9,
            payload: ipv4({
              src: "192.0.2.10",
              dst: "203.0.113.20",
              protocol: PROTOCOL.tcp,
              ttl: 60,
              identification: 321,
              payload: tcp({ srcPort: 40000, dstPort: 443, flags: 0x02 }),
            }),
          }),
        }),
      ),
    });
    const t: TemplateSpec = {
      id: 400,
      fields: [
        { id: IE.postVlanId, length: 2 },
        { id: IE.dataLinkFrameSize, length: 2 },
        { id: IE.dataLinkFrameSection, length: VARIABLE },
      ],
    };
    const payload = encodeIpfix({
      exportTime: UNIX_SECS,
      domain: 1,
      sets: [
        { kind: "template", templates: [t] },
        {
          kind: "data",
          template: t,
          records: [
            [300, 1400, frame],
            [300, 64, frame.subarray(0, 20)],
          ],
        },
      ],
    });
    const result = await run([capture("ipfix-frames.pcap", [payload])]);
    expect(result.code).toBe(0);
    const flows = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(flows[0]).toMatchObject({
      version: "ipfix",
      ip_version: 4,
      src_addr: "192.0.2.10",
      dst_addr: "203.0.113.20",
      src_port: 40000,
      dst_port: 443,
      protocol: 6,
      tcp_flags: 2,
      bytes: 1400,
      packets: 1,
      vlans: [7],
      egress_vlan: 300,
      header_counted: "inner",
      encapsulations: ["gre"],
      outer_src_addr: "2001:db8:ff::1",
      outer_dst_addr: "2001:db8:ff::2",
      mpls_labels: [16004],
      ttl: 60,
      fragment_flags: 2,
      fragment_offset: 0,
      fragment_id: 321,
      srv6_segments: null,
      header_stop: null,
    });
    expect(flows[1]).toMatchObject({ src_addr: null, bytes: 64, vlans: [7], header_counted: null, header_stop: "header_truncated" });
    expect(result.stderr).toContain(
      "ipfix-frames.pcap: datagram 1 from 192.0.2.9: header_truncated: sampled header: cut at 20 bytes in the MPLS label stack",
    );
  }, 60_000);

  it("refuses a file that is not a capture (exit 1) and a call without files (exit 2)", async () => {
    const notCapture = path.join(dir, "notes.txt");
    writeFileSync(notCapture, "not a capture at all");
    const bad = await run([notCapture]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${notCapture}: `);
    const missing = await run([path.join(dir, "missing.pcap")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("cannot be read (ENOENT)");
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("usage: npm run -s flows:decode");
  }, 60_000);

  it("prints physical interfaces, ICMP by name, the forwarding status and NAT, and counts the elements it skips", async () => {
    const details: TemplateSpec = {
      id: 401,
      fields: [
        { id: IE.sourceIPv4Address, length: 4 },
        { id: IE.destinationIPv4Address, length: 4 },
        { id: IE.sourceIPv6Address, length: 16 },
        { id: IE.protocolIdentifier, length: 1 },
        { id: IE.icmpTypeCodeIPv4, length: 2 },
        { id: IE.ingressPhysicalInterface, length: 4 },
        { id: IE.egressPhysicalInterface, length: 4 },
        { id: IE.forwardingStatus, length: 1 },
        { id: IE.postNATSourceIPv4Address, length: 4 },
        { id: IE.postNAPTSourceTransportPort, length: 2 },
        { id: IE.ipClassOfService, length: 1 },
        { id: IE.octetDeltaCount, length: 4 },
      ],
    };
    const ipfix = capture("details.pcap", [
      encodeIpfix({
        exportTime: UNIX_SECS,
        domain: 7,
        sets: [
          { kind: "template", templates: [details] },
          {
            kind: "data",
            template: details,
            records: [
              ["198.51.100.7", "203.0.113.9", "::", 1, 3 * 256 + 3, 17, 23, 0x82, "192.0.2.77", 61_000, 0, 84],
              ["198.51.100.8", "203.0.113.9", "::", 6, 0, 17, 23, 0x40, "0.0.0.0", 0, 0, 1500],
            ],
          },
        ],
      }),
    ]);
    const result = await run([ipfix]);
    expect(result.code).toBe(0);
    const flows = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(flows).toHaveLength(2);
    expect(flows[0]).toMatchObject({
      version: "ipfix",
      ip_version: 4,
      src_addr: "198.51.100.7",
      dst_addr: "203.0.113.9",
      protocol: 1,
      icmp_type: 3,
      icmp_code: 3,
      icmp: "Destination Unreachable / Port Unreachable",
      in_if: 17,
      out_if: 23,
      in_phys_if: 17,
      out_phys_if: 23,
      forwarding_status: 0x82,
      forwarding: "dropped by the router (ACL drop)",
      post_nat_src_addr: "192.0.2.77",
      post_nat_src_port: 61_000,
      bytes: 84,
    });
    expect(flows[1]).toMatchObject({ protocol: 6, icmp_type: null, icmp: null, forwarding: "forwarded", bytes: 1500 });
    expect(result.stderr).toContain("details.pcap: 1 datagrams, 2 flows, 2 fields skipped as unknown-element (elements not decoded: 5)");
  }, 60_000);
});
