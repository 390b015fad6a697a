import { readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { decodeMrt } from "~/features/routing/mrt/decoder";
import { MrtFormatError, MrtTruncatedError } from "~/features/routing/mrt/errors";
import type { MrtRecord, RibRecord, UpdateRecord } from "~/features/routing/mrt/types";
import {
  attributes,
  bgp4mpOtherMessage,
  bgp4mpStateChange,
  bgp4mpUpdate,
  gzip,
  mrtRecord,
  peerIndexTable,
  ribRecord,
  sampleRibStream,
  type SessionSpec,
} from "../fixtures/mrt";

async function decodeAll(bytes: Buffer | Readable): Promise<{ records: MrtRecord[]; error: Error | null }> {
  const records: MrtRecord[] = [];
  try {
    for await (const record of decodeMrt(bytes instanceof Readable ? bytes : Readable.from([bytes]))) records.push(record);
    return { records, error: null };
  } catch (error) {
    return { records, error: error as Error };
  }
}

const PEERS = peerIndexTable({
  timestamp: 1_600_000_000,
  collectorId: "198.51.100.1",
  viewName: "main",
  peers: [
    { bgpId: "198.51.100.10", ip: "198.51.100.10", asn: 64496 },
    { bgpId: "198.51.100.11", ip: "2001:db8:1::11", asn: 4_200_000_000 },
  ],
});

describe("TABLE_DUMP_V2", () => {
  it("decodes the peer index table and IPv4 RIB entries with every attribute", async () => {
    const v4 = ribRecord({
      timestamp: 1_600_000_000,
      sequence: 0,
      prefix: "192.0.2.0/24",
      entries: [
        {
          peerIndex: 0,
          originatedTime: 1_599_999_000,
          attributes: attributes({
            origin: 0,
            asPath: [
              { type: "confed-sequence", asns: [65010] },
              { type: "sequence", asns: [64496, 4_200_000_000] },
              { type: "set", asns: [64511, 64512] },
            ],
            nextHop: "198.51.100.10",
            med: 50,
            localPref: 200,
            aggregator: { asn: 4_200_000_000, ip: "203.0.113.9" },
            originatorId: "198.51.100.99",
            communities: [
              [64496, 100],
              [65535, 65281],
            ],
            largeCommunities: [[4_200_000_000, 1, 2]],
            extendedCommunities: Buffer.from("0002fc0000000064", "hex"),
          }),
        },
        {
          peerIndex: 1,
          originatedTime: 1_599_999_500,
          attributes: attributes({ origin: 2, asPath: [{ type: "sequence", asns: [4_200_000_000] }], nextHop: "198.51.100.11" }),
        },
      ],
    });
    const { records, error } = await decodeAll(Buffer.concat([PEERS, v4]));
    expect(error).toBeNull();
    expect(records[0]).toMatchObject({
      kind: "peer-index",
      offset: 0,
      collectorId: "198.51.100.1",
      viewName: "main",
      peers: [
        { bgpId: "198.51.100.10", ip: "198.51.100.10", asn: 64496 },
        { bgpId: "198.51.100.11", ip: "2001:db8:1::11", asn: 4_200_000_000 },
      ],
    });
    const rib = records[1] as RibRecord;
    expect(rib).toMatchObject({
      kind: "rib",
      offset: PEERS.length,
      sequence: 0,
      safi: 1,
      prefix: { prefix: "192.0.2.0/24", afi: 1, length: 24 },
    });
    expect(rib.entries).toHaveLength(2);
    expect(rib.entries[0].peer.asn).toBe(64496);
    expect(rib.entries[0].originatedTime).toBe(1_599_999_000);
    expect(rib.entries[0].attributes).toEqual({
      origin: "IGP",
      asPath: [
        { type: "confed-sequence", asns: [65010] },
        { type: "sequence", asns: [64496, 4_200_000_000] },
        { type: "set", asns: [64511, 64512] },
      ],
      nextHop: "198.51.100.10",
      med: 50,
      localPref: 200,
      atomicAggregate: false,
      aggregator: "4200000000 203.0.113.9",
      originatorId: "198.51.100.99",
      communities: ["64496:100", "65535:65281"],
      largeCommunities: ["4200000000:1:2"],
      extendedCommunities: ["RT:64512:100"],
      mpReach: null,
      mpUnreach: null,
      otherTypes: [],
    });
    expect(rib.entries[1]).toMatchObject({
      peer: { ip: "2001:db8:1::11" },
      attributes: { origin: "INCOMPLETE", med: null, localPref: null },
    });
  });

  it("reads IPv6 RIB entries with the short (RFC 6396) and the full MP_REACH_NLRI form", async () => {
    const v6 = ribRecord({
      timestamp: 1_600_000_000,
      sequence: 1,
      prefix: "2001:db8:40::/42",
      entries: [
        {
          peerIndex: 1,
          originatedTime: 1,
          attributes: attributes({
            origin: 0,
            asPath: [{ type: "sequence", asns: [4_200_000_000, 64499] }],
            mpReach: { afi: 2, nextHop: "2001:db8:1::11", short: true },
          }),
        },
        // The form real collectors write (full BGP attribute, NLRI included), link-local next hop too.
        {
          peerIndex: 0,
          originatedTime: 2,
          attributes: attributes({
            origin: 0,
            asPath: [{ type: "sequence", asns: [64496] }],
            mpReach: { afi: 2, nextHop: "2001:db8::10", linkLocal: "fe80::10", nlri: ["2001:db8:40::/42"] },
          }),
        },
      ],
    });
    const { records, error } = await decodeAll(Buffer.concat([PEERS, v6]));
    expect(error).toBeNull();
    const rib = records[1] as RibRecord;
    expect(rib.prefix).toEqual({ prefix: "2001:db8:40::/42", address: "2001:db8:40::", length: 42, afi: 2 });
    expect(rib.entries.map((e) => e.attributes.mpReach?.nextHop)).toEqual(["2001:db8:1::11", "2001:db8::10"]);
  });

  it("counts multicast, ADD-PATH and generic RIB subtypes as skipped and goes on", async () => {
    const entry = { peerIndex: 0, originatedTime: 1, attributes: attributes({ origin: 0, nextHop: "198.51.100.10" }) };
    const multicast = ribRecord({ timestamp: 1, sequence: 2, prefix: "232.0.0.0/8", entries: [entry], subtype: 3 });
    const addPath = mrtRecord({ timestamp: 1, type: 13, subtype: 8, body: Buffer.alloc(20) });
    const unicast = ribRecord({ timestamp: 1, sequence: 3, prefix: "198.18.0.0/15", entries: [entry] });
    const { records, error } = await decodeAll(Buffer.concat([PEERS, multicast, addPath, unicast]));
    expect(error).toBeNull();
    expect(records.map((r) => (r.kind === "skipped" ? r.reason : r.kind))).toEqual([
      "peer-index",
      "TABLE_DUMP_V2 RIB_IPV4_MULTICAST",
      "TABLE_DUMP_V2 RIB_IPV4_UNICAST_ADDPATH",
      "rib",
    ]);
  });

  it("reports a malformed record and decodes the next one", async () => {
    const entry = { peerIndex: 7, originatedTime: 1, attributes: attributes({ origin: 0 }) };
    const bad = ribRecord({ timestamp: 1, sequence: 0, prefix: "192.0.2.0/24", entries: [entry] });
    const good = ribRecord({ timestamp: 1, sequence: 1, prefix: "198.51.100.0/24", entries: [{ ...entry, peerIndex: 1 }] });
    const { records, error } = await decodeAll(Buffer.concat([PEERS, bad, good]));
    expect(error).toBeNull();
    expect(records[1]).toEqual(expect.objectContaining({ kind: "bad", message: expect.stringContaining(`byte offset ${PEERS.length}`) }));
    expect((records[1] as { message: string }).message).toContain("peer index 7 is not in the PEER_INDEX_TABLE (2 peers)");
    expect(records[2]).toMatchObject({ kind: "rib", prefix: { prefix: "198.51.100.0/24" } });
  });
});

const AS4_SESSION: SessionSpec = { peerAsn: 4_200_000_001, localAsn: 64500, peerIp: "2001:db8:ff::1", localIp: "2001:db8:ff::2" };
const AS2_SESSION: SessionSpec = { peerAsn: 64501, localAsn: 64500, peerIp: "192.0.2.1", localIp: "192.0.2.2", as4: false };

describe("BGP4MP", () => {
  it("decodes announcements and withdrawals of IPv4 (body) and IPv6 (MP attributes) with their next hops", async () => {
    const update = bgp4mpUpdate({
      timestamp: 1_700_000_100,
      session: AS4_SESSION,
      withdrawn: ["198.51.100.0/25"],
      attributes: attributes({
        origin: 1,
        asPath: [{ type: "sequence", asns: [4_200_000_001, 64502] }],
        nextHop: "192.0.2.1",
        largeCommunities: [[4_200_000_001, 7, 8]],
        mpReach: { afi: 2, nextHop: "2001:db8:ff::1", linkLocal: "fe80::1", nlri: ["2001:db8:100::/48", "2001:db8:200::/40"] },
        mpUnreach: { afi: 2, withdrawn: ["2001:db8:300::/48"] },
      }),
      nlri: ["203.0.113.0/24"],
    });
    const { records, error } = await decodeAll(update);
    expect(error).toBeNull();
    const r = records[0] as UpdateRecord;
    expect(r).toMatchObject({
      kind: "update",
      timestamp: 1_700_000_100,
      peerAsn: 4_200_000_001,
      localAsn: 64500,
      afi: 2,
      peerIp: "2001:db8:ff::1",
      localIp: "2001:db8:ff::2",
    });
    expect(r.announced.map((p) => [p.prefix, p.nextHop])).toEqual([
      ["203.0.113.0/24", "192.0.2.1"],
      ["2001:db8:100::/48", "2001:db8:ff::1"],
      ["2001:db8:200::/40", "2001:db8:ff::1"],
    ]);
    expect(r.withdrawn.map((p) => p.prefix)).toEqual(["198.51.100.0/25", "2001:db8:300::/48"]);
    expect(r.attributes).toMatchObject({
      origin: "EGP",
      asPath: [{ type: "sequence", asns: [4_200_000_001, 64502] }],
      largeCommunities: ["4200000001:7:8"],
    });
  });

  it("merges AS4_PATH and AS4_AGGREGATOR into the path of a 2-byte session (RFC 6793)", async () => {
    const update = bgp4mpUpdate({
      timestamp: 1,
      session: AS2_SESSION,
      attributes: attributes({
        asnBytes: 2,
        origin: 0,
        // The 2-byte view: AS_TRANS stands for the 4-byte ASes.
        asPath: [
          { type: "sequence", asns: [64501, 23456, 23456] },
          { type: "set", asns: [23456] },
        ],
        as4Path: [
          { type: "sequence", asns: [4_200_000_005, 4_200_000_006] },
          { type: "set", asns: [4_200_000_007] },
        ],
        aggregator: { asn: 23456, ip: "192.0.2.9" },
        as4Aggregator: { asn: 4_200_000_007, ip: "192.0.2.9" },
        nextHop: "192.0.2.1",
      }),
      nlri: ["192.0.2.128/25"],
    });
    const { records } = await decodeAll(update);
    const r = records[0] as UpdateRecord;
    expect(r.peerAsn).toBe(64501);
    expect(r.attributes.asPath).toEqual([
      { type: "sequence", asns: [64501] },
      { type: "sequence", asns: [4_200_000_005, 4_200_000_006] },
      { type: "set", asns: [4_200_000_007] },
    ]);
    expect(r.attributes.aggregator).toBe("4200000007 192.0.2.9");
  });

  it("decodes state changes (also with extended timestamps) and skips other BGP messages", async () => {
    const bytes = Buffer.concat([
      bgp4mpStateChange({ timestamp: 5, session: { ...AS4_SESSION, et: { microseconds: 123_456 } }, oldState: 6, newState: 1 }),
      bgp4mpStateChange({ timestamp: 6, session: AS2_SESSION, oldState: 1, newState: 2 }),
      bgp4mpOtherMessage({ timestamp: 7, session: AS4_SESSION, messageType: 4 }),
      mrtRecord({ timestamp: 8, type: 16, subtype: 7, body: Buffer.alloc(8) }),
      mrtRecord({ timestamp: 9, type: 11, subtype: 0, body: Buffer.alloc(3) }),
      bgp4mpUpdate({ timestamp: 10, session: { ...AS4_SESSION, et: { microseconds: 9 } }, withdrawn: ["192.0.2.0/24"] }),
    ]);
    const { records, error } = await decodeAll(bytes);
    expect(error).toBeNull();
    expect(records[0]).toMatchObject({
      kind: "state-change",
      type: 17,
      microseconds: 123_456,
      oldState: 6,
      newState: 1,
      peerAsn: 4_200_000_001,
    });
    expect(records[1]).toMatchObject({ kind: "state-change", type: 16, oldState: 1, newState: 2, peerAsn: 64501, peerIp: "192.0.2.1" });
    expect(records.slice(2, 5).map((r) => (r.kind === "skipped" ? r.reason : r.kind))).toEqual([
      "BGP KEEPALIVE",
      "BGP4MP subtype 7 (a message sent by the collector)",
      "MRT type 11",
    ]);
    expect(records[5]).toMatchObject({ kind: "update", microseconds: 9, withdrawn: [{ prefix: "192.0.2.0/24" }], announced: [] });
  });
});

describe("the stream", () => {
  const stream = Buffer.concat([
    PEERS,
    ribRecord({
      timestamp: 1,
      sequence: 0,
      prefix: "192.0.2.0/24",
      entries: [{ peerIndex: 0, originatedTime: 1, attributes: attributes({ origin: 0, nextHop: "198.51.100.10" }) }],
    }),
    bgp4mpUpdate({ timestamp: 2, session: AS4_SESSION, withdrawn: ["192.0.2.0/24"] }),
  ]);

  it("reads gzip by its magic bytes, whatever the name, and yields the same records as the plain stream", async () => {
    const plain = await decodeAll(stream);
    const gz = await decodeAll(gzip(stream));
    expect(gz.error).toBeNull();
    expect(gz.records).toEqual(plain.records);
    expect(gz.records.map((r) => r.kind)).toEqual(["peer-index", "rib", "update"]);
  });

  it("reads bzip2 (a committed `bzip2 -1` file of several blocks) exactly like its plain content", async () => {
    const plainBytes = sampleRibStream(4000);
    const bz = await decodeAll(Readable.from([readFileSync(path.join(__dirname, "../fixtures/mrt-sample.bz2"))]));
    const plain = await decodeAll(plainBytes);
    expect(bz.error).toBeNull();
    expect(bz.records).toHaveLength(4001);
    expect(bz.records).toEqual(plain.records);
    expect((bz.records[4000] as RibRecord).prefix.prefix).toBe("10.15.159.0/24");
  });

  it("stops at a truncated last record with its byte offset, after every complete record", async () => {
    const cut = stream.subarray(0, stream.length - 5);
    const lastOffset = stream.length - bgp4mpUpdate({ timestamp: 2, session: AS4_SESSION, withdrawn: ["192.0.2.0/24"] }).length;
    const { records, error } = await decodeAll(cut);
    expect(records.map((r) => r.kind)).toEqual(["peer-index", "rib"]);
    expect(error).toBeInstanceOf(MrtTruncatedError);
    expect(error!.message).toBe(
      `truncated MRT record at byte offset ${lastOffset}: it needs ${stream.length - lastOffset} bytes, ${stream.length - lastOffset - 5} present`,
    );
    // Cut inside the 12-byte header too.
    const inHeader = await decodeAll(stream.subarray(0, lastOffset + 7));
    expect(inHeader.records).toHaveLength(2);
    expect(inHeader.error!.message).toBe(`truncated MRT record at byte offset ${lastOffset}: it needs 12 bytes, 7 present`);
  });

  it("keeps the complete blocks of a cut bzip2 file and names the record the cut falls in", async () => {
    const file = readFileSync(path.join(__dirname, "../fixtures/mrt-sample.bz2"));
    const plainBytes = sampleRibStream(4000);
    const { records, error } = await decodeAll(Readable.from([file.subarray(0, file.length - 3000)]));
    expect(error).toBeInstanceOf(MrtTruncatedError);
    expect(error!.message).toContain("the bzip2 stream is damaged or ends early");
    const truncated = error as MrtTruncatedError;
    // Independently: walk the plain bytes by their length fields up to the cut record.
    let offset = 0;
    let complete = 0;
    while (offset < truncated.offset) {
      offset += 12 + plainBytes.readUInt32BE(offset + 8);
      complete++;
    }
    expect(offset).toBe(truncated.offset);
    expect(records).toHaveLength(complete);
    expect(complete).toBeGreaterThan(1000);
    expect(complete).toBeLessThan(4001);
    expect(records).toEqual((await decodeAll(plainBytes)).records.slice(0, complete));
  });

  it("refuses a stream that is not MRT with a clear message", async () => {
    const { records, error } = await decodeAll(Buffer.from("<html><body>not found</body></html>\n"));
    expect(records).toEqual([]);
    expect(error).toBeInstanceOf(MrtFormatError);
    expect(error!.message).toMatch(/^not an MRT file: the first record has type \d+, which RFC 6396 does not define$/);
  });

  it("reads the source only as fast as records are consumed", async () => {
    const total = sampleRibStream(40_000);
    let pulled = 0;
    const source = Readable.from(
      (function* () {
        for (let i = 0; i < total.length; i += 16_384) {
          const chunk = total.subarray(i, i + 16_384);
          pulled += chunk.length;
          yield chunk;
        }
      })(),
    );
    const records = decodeMrt(source);
    await records.next();
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    // The decoder keeps about 1 MB ahead at most; the stream is about 2.6 MB.
    expect(total.length).toBeGreaterThan(2_500_000);
    expect(pulled).toBeLessThan(1_400_000);
    let count = 1;
    for await (const _record of records) count++;
    expect(count).toBe(40_001);
    expect(pulled).toBe(total.length);
  });
});
