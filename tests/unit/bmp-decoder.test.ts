import { describe, expect, it } from "vitest";
import { Cursor, ipv6Text, readPrefix } from "~/features/routing/mrt/cursor";
import { formatIpv6, parseIpAddress } from "~/lib/ip";
import { BmpFramingError, BmpTruncatedError } from "~/features/routing/bmp/errors";
import { BmpStreamDecoder } from "~/features/routing/bmp/stream-decoder";
import type { BmpMessage, BmpUpdate } from "~/features/routing/bmp/types";
import {
  bgpMessage,
  bmpMessage,
  endOfRib,
  evpnRoute,
  fullTablePrefix,
  fullTableUpdates,
  initiation,
  peer,
  peerDown,
  peerUp,
  routeMirroring,
  routeMonitoring,
  routeMonitoringRaw,
  statisticsReport,
  termination,
} from "../helpers/bmp-builder";

function decode(...messages: Buffer[]): BmpMessage[] {
  const decoder = new BmpStreamDecoder();
  const out = decoder.push(Buffer.concat(messages));
  decoder.end();
  return out;
}

function only<K extends BmpMessage["kind"]>(messages: BmpMessage[], kind: K): Extract<BmpMessage, { kind: K }>[] {
  return messages.filter((m): m is Extract<BmpMessage, { kind: K }> => m.kind === kind);
}

function updates(messages: BmpMessage[]): BmpUpdate[] {
  const bad = only(messages, "bad");
  if (bad.length) throw new Error(bad.map((b) => b.message).join("; "));
  return only(messages, "route-monitoring").map((m) => m.update);
}

const V4 = peer({ address: "192.0.2.1", asn: 64501, bgpId: "192.0.2.1" });
const V6 = peer({ address: "2001:db8::1", asn: 4_200_000_001, bgpId: "192.0.2.2", view: "pre-policy" });

describe("Initiation and Termination", () => {
  it("reads the information TLVs and the termination reason as text", () => {
    const [init, term] = decode(
      initiation({ sysDescr: "VRP 8.210", sysName: "edge1", strings: ["lab"] }),
      termination(3, { strings: ["bye"] }),
    );
    expect(init).toEqual({
      kind: "initiation",
      information: [
        { type: 0, name: "string", value: "lab" },
        { type: 1, name: "sysDescr", value: "VRP 8.210" },
        { type: 2, name: "sysName", value: "edge1" },
      ],
    });
    expect(term).toEqual({
      kind: "termination",
      information: [
        { type: 0, name: "string", value: "bye" },
        { type: 1, name: "reason", value: "Redundant connection" },
      ],
    });
  });
});

describe("per-peer header", () => {
  it("reads the V, L, A, O flags, the peer distinguisher of each type, the address, AS, BGP ID and time", () => {
    const cases = [
      peer({ type: "rd", rd: "65543:105", address: "2001:db8::9", asn: 65543, view: "pre-policy", timestamp: 1_680_000_000 }),
      peer({ type: "rd", rd: "192.0.2.7:12", address: "198.51.100.7", view: "post-policy", legacyAsPath: true }),
      peer({ type: "rd", rd: "4200000000:7", adjRibOut: true }),
      peer({ type: "rd", rd: "2:65000:9" }),
      peer({ type: "local" }),
    ];
    const peers = only(decode(...cases.map((p) => peerDown({ peer: p, reason: 4 }))), "peer-down").map((m) => m.peer);
    expect(peers[0]).toEqual({
      peerType: 1,
      view: "pre-policy",
      distinguisher: "65543:105",
      address: "2001:db8::9",
      asn: 65543,
      bgpId: "192.0.2.1",
      timestamp: 1_680_000_000,
      legacyAsPath: false,
      adjRibOut: false,
      filtered: false,
    });
    expect(peers[1]).toMatchObject({ distinguisher: "192.0.2.7:12", address: "198.51.100.7", view: "post-policy", legacyAsPath: true });
    expect(peers[2]).toMatchObject({ distinguisher: "4200000000:7", adjRibOut: true, legacyAsPath: false });
    // Type 2 with a small AS prints like type 0, as routers show it.
    expect(peers[3]).toMatchObject({ distinguisher: "65000:9" });
    expect(peers[4]).toMatchObject({ peerType: 2, distinguisher: "" });
  });

  it("reads a Loc-RIB instance peer (RFC 9069): view loc-rib, no address, the F flag as filtered", () => {
    const locRib = peer({ type: "loc-rib", rd: "64499:11", asn: 65537, bgpId: "192.0.2.61", filtered: true });
    const [m] = decode(peerDown({ peer: locRib, reason: 6, information: { vrfTableName: "blue" } }));
    expect(m).toEqual({
      kind: "peer-down",
      peer: {
        peerType: 3,
        view: "loc-rib",
        distinguisher: "64499:11",
        address: "",
        asn: 65537,
        bgpId: "192.0.2.61",
        timestamp: 1_700_000_000,
        legacyAsPath: false,
        adjRibOut: false,
        filtered: true,
      },
      reason: 6,
      detail: "The router closed the Loc-RIB instance blue",
    });
  });
});

describe("Peer Up", () => {
  it("reads the local address and ports, both OPENs' 4-byte AS capability and the information TLVs", () => {
    const [v4, v6] = only(
      decode(
        peerUp({
          peer: V4,
          localAddress: "192.0.2.254",
          ports: { local: 179, remote: 52434 },
          localAsn: 4_200_000_000,
          information: { strings: ["uplink"] },
        }),
        peerUp({ peer: V6, localAddress: "2001:db8::fe", fourByteAsn: false, extendedParameters: true, addPath: ["2/1"] }),
      ),
      "peer-up",
    );
    expect(v4).toMatchObject({
      peer: { address: "192.0.2.1", asn: 64501 },
      localAddress: "192.0.2.254",
      localPort: 179,
      remotePort: 52434,
      fourByteAsn: true,
      localAsn: 4_200_000_000,
      localBgpId: "192.0.2.254",
      addPath: [],
      addPathSent: [],
      information: [{ type: 0, name: "string", value: "uplink" }],
    });
    // Without the capability the OPEN's 2-byte AS is all there is; optional parameters in the RFC 9072 form.
    expect(v6).toMatchObject({ localAddress: "2001:db8::fe", fourByteAsn: false, localAsn: 64496, addPath: ["2/1"] });
  });

  it("reads the Peer Up of a Loc-RIB instance: no local address or ports, its VRF/table name", () => {
    const locRib = peer({ type: "loc-rib", rd: "64499:11", asn: 65537, bgpId: "192.0.2.61" });
    const [m] = decode(peerUp({ peer: locRib, information: { vrfTableName: "vrf-blue" } }));
    expect(m).toMatchObject({
      kind: "peer-up",
      peer: { peerType: 3, view: "loc-rib", address: "", distinguisher: "64499:11" },
      localAddress: "",
      localPort: 0,
      remotePort: 0,
      localAsn: 65537,
      localBgpId: "192.0.2.61",
      fourByteAsn: true,
      information: [{ type: 3, name: "VRF/table name", value: "vrf-blue" }],
    });
  });

  it("derives ADD-PATH per family in both directions as RFC 7911 negotiates it", () => {
    const [m] = only(
      decode(
        peerUp({
          peer: V4,
          addPathModes: {
            // What the router (local) advertises, and what the peer advertises.
            sent: { "1/1": "receive", "2/1": "both", "1/128": "send", "2/128": "receive" },
            received: { "1/1": "send", "2/1": "receive", "1/128": "receive", "2/128": "receive" },
          },
        }),
      ),
      "peer-up",
    );
    // Received UPDATEs: the peer sends and the router receives. Sent UPDATEs: the other way round.
    expect(m.addPath).toEqual(["1/1"]);
    expect(m.addPathSent).toEqual(["2/1", "1/128"]);
  });
});

describe("Peer Down", () => {
  it("tells each reason code in words", () => {
    const details = only(
      decode(
        peerDown({ peer: V4, reason: 1, notification: { code: 6, subcode: 2, message: "maintenance" } }),
        peerDown({ peer: V4, reason: 2, fsmEvent: 10 }),
        peerDown({ peer: V4, reason: 3, notification: { code: 4, subcode: 0 } }),
        peerDown({ peer: V4, reason: 4 }),
        peerDown({ peer: V4, reason: 5 }),
        peerDown({ peer: peer({ type: "loc-rib" }), reason: 6 }),
        peerDown({ peer: V4, reason: 7 }),
      ),
      "peer-down",
    ).map((m) => [m.reason, m.detail]);
    expect(details).toEqual([
      [1, "The router closed the session with a NOTIFICATION: Cease, Administrative Shutdown (6/2): “maintenance”"],
      [2, "The router closed the session without a NOTIFICATION (FSM event 10, HoldTimer_Expires)"],
      [3, "The peer closed the session with a NOTIFICATION: Hold Timer Expired (4/0)"],
      [4, "The peer closed the session without a NOTIFICATION"],
      [5, "The router no longer monitors this peer (configuration change)"],
      [6, "The router closed the Loc-RIB instance"],
      [7, "The session went down (reason code 7, not defined by RFC 7854 or RFC 9069)"],
    ]);
  });
});

describe("Statistics Report, Route Mirroring, unknown types", () => {
  it("names statistics 0–17, reads counters in 32 bits and gauges in 64 bits, per family with AFI/SAFI", () => {
    const [m] = decode(
      statisticsReport({
        peer: V4,
        statistics: [
          { type: 0, value: 3 },
          { type: 7, value: 5_000_000_000 },
          { type: 9, value: 1_000_123, afi: 2, safi: 1 },
          { type: 13, value: 4_294_967_295 },
          { type: 17, value: 42, afi: 1, safi: 128 },
          { type: 30, value: 9, bytes: 4 },
        ],
      }),
    );
    expect(m).toMatchObject({
      kind: "statistics-report",
      peer: { address: "192.0.2.1" },
      statistics: [
        { type: 0, name: "Prefixes rejected by inbound policy", value: 3 },
        { type: 7, name: "Routes in Adj-RIB-In", value: 5_000_000_000 },
        { type: 9, name: "Routes in Adj-RIB-In (IPv6 unicast)", value: 1_000_123, afi: 2, safi: 1 },
        { type: 13, name: "Duplicate update messages", value: 4_294_967_295 },
        { type: 17, name: "Routes in post-policy Adj-RIB-Out (VPNv4)", value: 42, afi: 1, safi: 128 },
        { type: 30, name: "Statistic type 30", value: 9 },
      ],
    });
  });

  it("counts Route Mirroring without decoding its BGP messages, and passes unknown message types", () => {
    const garbageUpdate = Buffer.from("not a BGP message at all");
    expect(decode(routeMirroring({ peer: V4, message: garbageUpdate }), bmpMessage(9, Buffer.from([1, 2, 3])))).toEqual([
      { kind: "route-mirroring", peer: expect.objectContaining({ address: "192.0.2.1" }) },
      { kind: "unknown", type: 9 },
    ]);
  });
});

describe("Route Monitoring: families", () => {
  it("reads IPv4 unicast announcements and withdrawals in the UPDATE's body with every attribute", () => {
    const [u] = updates(
      decode(
        routeMonitoring({
          peer: V4,
          announce: [
            { prefix: "198.51.100.0/24", nextHop: "192.0.2.1" },
            { prefix: "203.0.113.128/25", nextHop: "192.0.2.1" },
          ],
          withdraw: [{ prefix: "192.0.2.0/26" }],
          asPath: [64501, 4_200_000_000, 64496],
          asSet: [64511, 64512],
          origin: "EGP",
          localPref: 150,
          med: 20,
          communities: ["64501:100", "65535:65281"],
          largeCommunities: ["4200000000:1:2"],
          extendedCommunities: ["RT:64497:42"],
          originatorId: "192.0.2.9",
          atomicAggregate: true,
          aggregator: { asn: 64496, address: "192.0.2.10" },
        }),
      ),
    );
    expect(u.announced).toEqual([
      {
        prefix: "198.51.100.0/24",
        address: "198.51.100.0",
        length: 24,
        afi: 1,
        safi: 1,
        routeDistinguisher: "",
        pathId: 0,
        labels: [],
        nextHop: "192.0.2.1",
      },
      {
        prefix: "203.0.113.128/25",
        address: "203.0.113.128",
        length: 25,
        afi: 1,
        safi: 1,
        routeDistinguisher: "",
        pathId: 0,
        labels: [],
        nextHop: "192.0.2.1",
      },
    ]);
    expect(u.withdrawn).toEqual([
      { prefix: "192.0.2.0/26", address: "192.0.2.0", length: 26, afi: 1, safi: 1, routeDistinguisher: "", pathId: 0, labels: [] },
    ]);
    expect(u.attributes).toMatchObject({
      origin: "EGP",
      asPath: [
        { type: "sequence", asns: [64501, 4_200_000_000, 64496] },
        { type: "set", asns: [64511, 64512] },
      ],
      nextHop: "192.0.2.1",
      med: 20,
      localPref: 150,
      atomicAggregate: true,
      aggregator: "64496 192.0.2.10",
      originatorId: "192.0.2.9",
      communities: ["64501:100", "65535:65281"],
      largeCommunities: ["4200000000:1:2"],
    });
    expect(u.extendedCommunities).toEqual(["RT:64497:42"]);
    expect(u).toMatchObject({ endOfRib: null, skipped: null });
  });

  it("reads IPv4 unicast through MP_REACH / MP_UNREACH and IPv6 unicast", () => {
    const [v4mp, v6, v6w] = updates(
      decode(
        routeMonitoring({
          peer: V6,
          announce: [{ prefix: "198.51.100.0/24", nextHop: "2001:db8::1" }],
          ipv4InBody: false,
          asPath: [4_200_000_001],
        }),
        routeMonitoring({
          peer: V6,
          announce: [
            { prefix: "2001:db8:100::/40", nextHop: "2001:db8::1" },
            { prefix: "2001:db8:200::/48", nextHop: "2001:db8::1" },
          ],
          asPath: [4_200_000_001, 64496],
        }),
        routeMonitoring({ peer: V6, withdraw: [{ prefix: "2001:db8:300::/48" }] }),
      ),
    );
    // An IPv4 route with an IPv6 next hop (RFC 8950).
    expect(v4mp.announced.map((r) => [r.prefix, r.afi, r.safi, r.nextHop])).toEqual([["198.51.100.0/24", 1, 1, "2001:db8::1"]]);
    expect(v6.announced.map((r) => [r.prefix, r.afi, r.safi, r.nextHop])).toEqual([
      ["2001:db8:100::/40", 2, 1, "2001:db8::1"],
      ["2001:db8:200::/48", 2, 1, "2001:db8::1"],
    ]);
    expect(v6.attributes.asPath).toEqual([{ type: "sequence", asns: [4_200_000_001, 64496] }]);
    expect(v6w.withdrawn.map((r) => [r.prefix, r.afi])).toEqual([["2001:db8:300::/48", 2]]);
    expect(v6w.endOfRib).toBeNull();
  });

  it("strips the labels of labelled unicast (SAFI 4), IPv4 and IPv6, and reads their withdrawals", () => {
    const [v4, v6, w] = updates(
      decode(
        routeMonitoring({
          peer: V4,
          announce: [{ prefix: "203.0.113.12/32", labels: [65705], nextHop: "198.51.100.82" }],
          asPath: [65536],
        }),
        routeMonitoring({
          peer: V4,
          announce: [{ prefix: "2001:db8::12/128", labels: [16, 917_584], nextHop: "198.51.100.82" }],
          asPath: [65536],
        }),
        routeMonitoring({ peer: V4, withdraw: [{ prefix: "203.0.113.12/32", labels: [65705] }] }),
      ),
    );
    expect(v4.announced).toEqual([
      {
        prefix: "203.0.113.12/32",
        address: "203.0.113.12",
        length: 32,
        afi: 1,
        safi: 4,
        routeDistinguisher: "",
        pathId: 0,
        labels: [65705],
        nextHop: "198.51.100.82",
      },
    ]);
    // A label stack of two; the IPv4 next hop of an IPv6 family is IPv4-mapped (RFC 4798).
    expect(v6.announced.map((r) => [r.prefix, r.safi, r.labels, r.nextHop])).toEqual([
      ["2001:db8::12/128", 4, [16, 917_584], "::ffff:198.51.100.82"],
    ]);
    expect(w.withdrawn.map((r) => [r.prefix, r.safi, r.labels])).toEqual([["203.0.113.12/32", 4, []]]);
  });

  it("reads L3VPN IPv4 and IPv6 routes with labels and route distinguishers of the three types", () => {
    const [v4, v6, w] = updates(
      decode(
        routeMonitoring({
          peer: V4,
          announce: [
            { prefix: "192.0.41.0/24", rd: "65543:105", labels: [917_552], nextHop: "198.51.100.44" },
            { prefix: "192.0.44.1/32", rd: "192.0.2.7:12", labels: [917_552], nextHop: "198.51.100.44" },
            { prefix: "192.0.44.2/32", rd: "4200000000:5", labels: [917_552], nextHop: "198.51.100.44" },
          ],
          asPath: [65536, 65543],
          communities: ["64496:299", "64499:105"],
          extendedCommunities: ["RT:64497:42"],
        }),
        routeMonitoring({
          peer: V4,
          announce: [{ prefix: "2001:db8:41::/64", rd: "65543:105", labels: [917_584], nextHop: "198.51.100.44" }],
          asPath: [65536, 65543],
        }),
        routeMonitoring({
          peer: V4,
          withdraw: [
            { prefix: "192.0.41.0/24", rd: "65543:105" },
            { prefix: "192.0.44.1/32", rd: "192.0.2.7:12" },
          ],
        }),
      ),
    );
    expect(v4.announced.map((r) => [r.prefix, r.afi, r.safi, r.routeDistinguisher, r.labels, r.nextHop])).toEqual([
      ["192.0.41.0/24", 1, 128, "65543:105", [917_552], "198.51.100.44"],
      ["192.0.44.1/32", 1, 128, "192.0.2.7:12", [917_552], "198.51.100.44"],
      ["192.0.44.2/32", 1, 128, "4200000000:5", [917_552], "198.51.100.44"],
    ]);
    // The VPNv6 next hop: its zero RD stripped, the IPv4 address IPv4-mapped, as pmacct shows it.
    expect(v6.announced.map((r) => [r.prefix, r.afi, r.safi, r.routeDistinguisher, r.labels, r.nextHop])).toEqual([
      ["2001:db8:41::/64", 2, 128, "65543:105", [917_584], "::ffff:198.51.100.44"],
    ]);
    expect(w.withdrawn.map((r) => [r.prefix, r.routeDistinguisher, r.labels])).toEqual([
      ["192.0.41.0/24", "65543:105", []],
      ["192.0.44.1/32", "192.0.2.7:12", []],
    ]);
  });

  it("skips families the tables do not hold (EVPN, multicast) with a reason, without an error", () => {
    const [evpn, evpnWithdraw, multicast] = updates(
      decode(
        evpnRoute({ peer: V4, rd: "65017:104", ip: "198.51.100.1" }),
        evpnRoute({ peer: V4, withdraw: true }),
        routeMonitoring({ peer: V4, announce: [{ prefix: "198.51.100.0/24", safi: 2, nextHop: "192.0.2.1" }], ipv4InBody: false }),
      ),
    );
    expect(evpn).toMatchObject({
      announced: [],
      withdrawn: [],
      skipped: { afi: 25, safi: 70, reason: "EVPN routes (AFI 25, SAFI 70) are not stored" },
    });
    expect(evpn.attributes.asPath).toEqual([{ type: "sequence", asns: [64501] }]);
    expect(evpnWithdraw).toMatchObject({ withdrawn: [], skipped: { afi: 25, safi: 70 }, endOfRib: null });
    expect(multicast).toMatchObject({
      announced: [],
      skipped: { afi: 1, safi: 2, reason: "IPv4 multicast routes (AFI 1, SAFI 2) are not stored" },
    });
  });

  it("recognises End-of-RIB: the empty UPDATE for IPv4 unicast, MP_UNREACH with only AFI/SAFI for others", () => {
    const eors = updates(
      decode(
        endOfRib({ peer: V4, afi: 1, safi: 1 }),
        endOfRib({ peer: V4, afi: 2, safi: 1 }),
        endOfRib({ peer: V4, afi: 1, safi: 128 }),
        endOfRib({ peer: V4, afi: 25, safi: 70 }),
      ),
    );
    expect(eors.map((u) => u.endOfRib)).toEqual([
      { afi: 1, safi: 1 },
      { afi: 2, safi: 1 },
      { afi: 1, safi: 128 },
      { afi: 25, safi: 70 },
    ]);
    expect(eors.every((u) => u.announced.length === 0 && u.withdrawn.length === 0 && u.skipped === null)).toBe(true);
  });
});

describe("Route Monitoring: communities", () => {
  it("prints standard, large and extended communities; extended ones by type, unnamed ones in hex", () => {
    const [u] = updates(
      decode(
        routeMonitoring({
          peer: V4,
          announce: [{ prefix: "198.51.100.0/24", nextHop: "192.0.2.1" }],
          communities: ["64496:299", "65535:65282"],
          largeCommunities: ["64496:1:2", "4200000000:4294967295:0"],
          extendedCommunities: [
            "RT:64497:42",
            "SoO:64497:12",
            "RT:192.0.2.1:5",
            "RT:4200000000:5",
            "SoO:192.0.2.1:7",
            "0x030c00000000000a",
            "0x4002fc0000000001",
          ],
        }),
      ),
    );
    expect(u.attributes.communities).toEqual(["64496:299", "65535:65282"]);
    expect(u.attributes.largeCommunities).toEqual(["64496:1:2", "4200000000:4294967295:0"]);
    // Encapsulation (0x030c) and a non-transitive route target (0x40) have no name here.
    expect(u.extendedCommunities).toEqual([
      "RT:64497:42",
      "SoO:64497:12",
      "RT:192.0.2.1:5",
      "RT:4200000000:5",
      "SoO:192.0.2.1:7",
      "0x030c00000000000a",
      "0x4002fc0000000001",
    ]);
    expect(u.attributes.extendedCommunities).toEqual(u.extendedCommunities);
  });
});

describe("Route Monitoring: 4-byte AS numbers", () => {
  it("merges AS4_PATH into the AS_PATH of a 2-byte session (A flag)", () => {
    const legacy = peer({ address: "192.0.2.3", asn: 64503, legacyAsPath: true });
    const [u] = updates(
      decode(
        routeMonitoring({
          peer: legacy,
          announce: [{ prefix: "198.51.100.0/24", nextHop: "192.0.2.3" }],
          asPath: [64503, 4_200_000_000, 65551, 64496],
        }),
      ),
    );
    expect(u.attributes.asPath).toEqual([{ type: "sequence", asns: [64503, 4_200_000_000, 65551, 64496] }]);
  });

  it("reads a 2-byte AS_PATH whose router left the A flag clear", () => {
    const [u] = updates(
      decode(
        routeMonitoring({
          peer: V4,
          announce: [{ prefix: "198.51.100.0/24", nextHop: "192.0.2.1" }],
          asPath: [64501, 64496],
          fourByteAsn: false,
        }),
      ),
    );
    expect(u.attributes.asPath).toEqual([{ type: "sequence", asns: [64501, 64496] }]);
  });
});

describe("Route Monitoring: ADD-PATH", () => {
  const twoPaths = (p: ReturnType<typeof peer>) => [
    routeMonitoring({ peer: p, announce: [{ prefix: "198.51.100.0/24", pathId: 1, nextHop: "192.0.2.1" }], asPath: [64501] }),
    routeMonitoring({ peer: p, announce: [{ prefix: "198.51.100.0/24", pathId: 2, nextHop: "192.0.2.5" }], asPath: [64501, 64502] }),
    routeMonitoring({
      peer: p,
      announce: [
        { prefix: "2001:db8:1::/48", pathId: 7, nextHop: "2001:db8::1" },
        { prefix: "2001:db8:1::/48", pathId: 8, nextHop: "2001:db8::1" },
      ],
      asPath: [64501],
    }),
    routeMonitoring({ peer: p, withdraw: [{ prefix: "198.51.100.0/24", pathId: 2 }] }),
  ];

  it("reads path ids where the Peer Up negotiated them, keeping the paths of one prefix apart", () => {
    const us = updates(decode(peerUp({ peer: V4, addPath: ["1/1", "2/1"] }), ...twoPaths(V4)));
    expect(us.flatMap((u) => u.announced.map((r) => [r.prefix, r.pathId, r.nextHop]))).toEqual([
      ["198.51.100.0/24", 1, "192.0.2.1"],
      ["198.51.100.0/24", 2, "192.0.2.5"],
      ["2001:db8:1::/48", 7, "2001:db8::1"],
      ["2001:db8:1::/48", 8, "2001:db8::1"],
    ]);
    expect(us[3].withdrawn.map((r) => [r.prefix, r.pathId])).toEqual([["198.51.100.0/24", 2]]);
  });

  it("detects path ids for peers without Peer Up and for Loc-RIB instances, and their absence", () => {
    const locRib = peer({ type: "loc-rib", asn: 65000 });
    for (const p of [V4, locRib]) {
      const us = updates(decode(...twoPaths(p)));
      expect(us.flatMap((u) => u.announced.map((r) => [r.prefix, r.pathId]))).toEqual([
        ["198.51.100.0/24", 1],
        ["198.51.100.0/24", 2],
        ["2001:db8:1::/48", 7],
        ["2001:db8:1::/48", 8],
      ]);
      expect(us[3].withdrawn.map((r) => [r.prefix, r.pathId])).toEqual([["198.51.100.0/24", 2]]);
      const plain = updates(
        decode(
          routeMonitoring({
            peer: p,
            announce: [
              { prefix: "198.51.100.0/24", nextHop: "192.0.2.1" },
              { prefix: "203.0.113.0/24", nextHop: "192.0.2.1" },
            ],
          }),
        ),
      );
      expect(plain[0].announced.map((r) => [r.prefix, r.pathId])).toEqual([
        ["198.51.100.0/24", 0],
        ["203.0.113.0/24", 0],
      ]);
    }
  });

  it("keeps a default route packed with other prefixes, and finds path ids whose bytes also read as prefixes", () => {
    const [withDefault, large, ambiguous] = updates(
      decode(
        routeMonitoring({
          peer: V4,
          announce: [
            { prefix: "0.0.0.0/0", nextHop: "192.0.2.1" },
            { prefix: "10.0.0.0/24", nextHop: "192.0.2.1" },
          ],
        }),
        routeMonitoring({ peer: V4, announce: [{ prefix: "10.0.0.0/8", pathId: 70_000, nextHop: "192.0.2.1" }] }),
        // 00 00 00 01 18 0a 00 00 also reads as 0.0.0.0/0 ×3, 0.0.0.0/1, 0.0.0.0/10 without path ids.
        routeMonitoring({ peer: V4, announce: [{ prefix: "10.0.0.0/24", pathId: 1, nextHop: "192.0.2.1" }] }),
      ),
    );
    expect(withDefault.announced.map((r) => [r.prefix, r.pathId])).toEqual([
      ["0.0.0.0/0", 0],
      ["10.0.0.0/24", 0],
    ]);
    expect(large.announced.map((r) => [r.prefix, r.pathId])).toEqual([["10.0.0.0/8", 70_000]]);
    expect(ambiguous.announced.map((r) => [r.prefix, r.pathId])).toEqual([["10.0.0.0/24", 1]]);
  });

  it("reads Adj-RIB-Out routes (O flag) with the path ids the router sends", () => {
    const out = peer({ address: "192.0.2.1", adjRibOut: true });
    const messages = decode(
      peerUp({ peer: out, addPathModes: { sent: { "1/1": "send" }, received: { "1/1": "receive" } } }),
      routeMonitoring({ peer: out, announce: [{ prefix: "198.51.100.0/24", pathId: 3, nextHop: "192.0.2.254" }] }),
    );
    expect(only(messages, "peer-up")[0]).toMatchObject({ addPath: [], addPathSent: ["1/1"] });
    expect(updates(messages)[0].announced.map((r) => [r.prefix, r.pathId])).toEqual([["198.51.100.0/24", 3]]);
    expect(only(messages, "route-monitoring")[0].peer).toMatchObject({ adjRibOut: true, view: "post-policy" });
  });
});

describe("framing", () => {
  it("refuses a stream that is not BMP v3, keeping the messages before the bad bytes", () => {
    const decoder = new BmpStreamDecoder();
    let error: unknown;
    try {
      decoder.push(Buffer.concat([initiation(), Buffer.from("GET / HTTP/1.1\r\n")]));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BmpFramingError);
    expect((error as BmpFramingError).message).toBe(
      `not a BMP v3 stream: the message at byte offset ${initiation().length} has version 71`,
    );
    expect((error as BmpFramingError).decoded.map((m) => m.kind)).toEqual(["initiation"]);
    // The stream cannot be followed any further.
    expect(() => decoder.push(initiation())).toThrow(BmpFramingError);
  });

  it("refuses version 2 and lengths below 6 or above 16 MiB", () => {
    expect(() => new BmpStreamDecoder().push(bmpMessage(4, Buffer.alloc(0), { version: 2 }))).toThrow(/version 2/);
    expect(() => new BmpStreamDecoder().push(bmpMessage(4, Buffer.alloc(0), { length: 5 }))).toThrow(
      "the BMP message at byte offset 0 announces 5 bytes, outside 6 … 16777216",
    );
    expect(() => new BmpStreamDecoder().push(bmpMessage(4, Buffer.alloc(0), { length: 16 * 1024 * 1024 + 1 }))).toThrow(BmpFramingError);
  });

  it("throws at the end of a stream cut inside a message, not of a complete one", () => {
    const whole = initiation();
    const decoder = new BmpStreamDecoder();
    expect(decoder.push(Buffer.concat([whole, whole.subarray(0, 10)]))).toHaveLength(1);
    expect(() => decoder.end()).toThrow(BmpTruncatedError);
    expect(() => decoder.end()).toThrow(
      `the BMP stream ended inside a message at byte offset ${whole.length}: it needs ${whole.length} bytes, 10 arrived`,
    );
    const cutInHeader = new BmpStreamDecoder();
    cutInHeader.push(whole.subarray(0, 3));
    expect(() => cutInHeader.end()).toThrow("it needs 6 bytes, 3 arrived");
    const complete = new BmpStreamDecoder();
    complete.push(whole);
    expect(() => complete.end()).not.toThrow();
  });

  it("decodes a stream split into chunks of any size, down to one byte, as the whole stream", () => {
    const router = peer({ address: "192.0.2.1" });
    const stream = Buffer.concat([
      initiation({ sysName: "r1" }),
      peerUp({ peer: router, addPath: ["1/1"] }),
      routeMonitoring({ peer: router, announce: [{ prefix: "198.51.100.0/24", pathId: 4, nextHop: "192.0.2.1" }], asPath: [64500] }),
      routeMonitoring({ peer: router, announce: [{ prefix: "2001:db8::/32", rd: "65000:1", labels: [100], nextHop: "192.0.2.1" }] }),
      statisticsReport({ peer: router, statistics: [{ type: 7, value: 1 }] }),
      endOfRib({ peer: router, afi: 1, safi: 1 }),
      peerDown({ peer: router, reason: 4 }),
      termination(0),
    ]);
    const whole = decode(stream);
    expect(whole.map((m) => m.kind)).toEqual([
      "initiation",
      "peer-up",
      "route-monitoring",
      "route-monitoring",
      "statistics-report",
      "route-monitoring",
      "peer-down",
      "termination",
    ]);
    for (const size of [1, 2, 5, 7, 64]) {
      const decoder = new BmpStreamDecoder();
      const messages: BmpMessage[] = [];
      for (let at = 0; at < stream.length; at += size) messages.push(...decoder.push(stream.subarray(at, at + size)));
      decoder.end();
      expect(messages).toEqual(whole);
    }
  });

  it("turns a bad UPDATE in a good frame into a bad message and decodes the next one", () => {
    const truncatedUpdate = bgpMessage(2, Buffer.from([0, 0, 0, 10, 0x40, 1, 1, 0]));
    const messages = decode(
      routeMonitoringRaw({ peer: V4, message: truncatedUpdate }),
      routeMonitoringRaw({ peer: V4, message: bgpMessage(3, Buffer.from([6, 2])) }),
      bmpMessage(0, Buffer.alloc(10)),
      routeMonitoring({ peer: V4, announce: [{ prefix: "198.51.100.0/24", nextHop: "192.0.2.1" }] }),
    );
    expect(messages.map((m) => m.kind)).toEqual(["bad", "bad", "bad", "route-monitoring"]);
    expect(messages[0]).toMatchObject({
      type: 0,
      message: "Route Monitoring from peer 192.0.2.1 at byte offset 0: the path attributes needs 10 bytes, 4 left",
      peer: { address: "192.0.2.1" },
    });
    expect(messages[1]).toMatchObject({ message: expect.stringMatching(/it carries a BGP NOTIFICATION, not an UPDATE$/) });
    expect(messages[2]).toMatchObject({ message: expect.stringMatching(/^Route Monitoring at byte offset \d+: /) });
    expect(messages[2]).not.toHaveProperty("peer");
  });
});

describe("session state", () => {
  it("keeps the capabilities of peers that are up, forgets them at Peer Down and Termination", () => {
    const decoder = new BmpStreamDecoder();
    const a = peer({ address: "192.0.2.1" });
    const b = peer({ address: "192.0.2.2" });
    decoder.push(
      Buffer.concat([peerUp({ peer: a, addPath: ["1/1"] }), peerUp({ peer: b }), peerUp({ peer: { ...a, view: "pre-policy" } })]),
    );
    expect(decoder.peersUp).toBe(2);
    decoder.push(peerDown({ peer: a, reason: 4 }));
    expect(decoder.peersUp).toBe(1);
    decoder.push(termination());
    expect(decoder.peersUp).toBe(0);
  });
});

describe("address and prefix text", () => {
  it("spells IPv6 addresses as formatIpv6 does", () => {
    const named = [
      "::",
      "::1",
      "2001:db8::",
      "2001:db8:0:1:0:0:0:1",
      "2001:0:0:1::1",
      "::ffff:198.51.100.44",
      "fe80::1:0:0:0",
      "1:2:3:4:5:6:7:8",
      "0:0:1::",
    ];
    const values = named.map((text) => parseIpAddress(text)!.value);
    let seed = 7;
    for (let i = 0; i < 500; i++) {
      let value = 0n;
      for (let j = 0; j < 16; j++) {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        // Mostly zero bytes, so runs of zero groups of every length occur.
        value = (value << 8n) | BigInt(seed % 3 === 0 ? seed >>> 24 : 0);
      }
      values.push(value);
    }
    for (const value of values) {
      const bytes = Buffer.alloc(16);
      bytes.writeBigUInt64BE(value >> 64n, 0);
      bytes.writeBigUInt64BE(value & (2n ** 64n - 1n), 8);
      expect(ipv6Text(bytes)).toBe(formatIpv6(value));
    }
    expect(values.map((v) => formatIpv6(v)).slice(0, 3)).toEqual(["::", "::1", "2001:db8::"]);
  });

  it("masks the bits of a prefix beyond its length", () => {
    expect(readPrefix(new Cursor(Buffer.from([23, 198, 51, 101])), 1).prefix).toBe("198.51.100.0/23");
    expect(readPrefix(new Cursor(Buffer.from([33, 0x20, 0x01, 0x0d, 0xb8, 0xff])), 2).prefix).toBe("2001:db8:8000::/33");
    expect(() => readPrefix(new Cursor(Buffer.from([33, 1, 2, 3, 4, 5])), 1)).toThrow("prefix length 33 exceeds 32 bits");
    expect(() => readPrefix(new Cursor(Buffer.from([24, 1, 2])), 1)).toThrow("a prefix needs 3 bytes, 2 left");
  });
});

describe("fullTableUpdates", () => {
  it("announces distinct prefixes, several per UPDATE sharing their attributes", () => {
    const router = peer({ address: "192.0.2.1", asn: 64500 });
    const frames = [...fullTableUpdates(1001, { peer: router, prefixesPerUpdate: 10 })];
    expect(frames).toHaveLength(101);
    const us = updates(decode(...frames));
    const prefixes = us.flatMap((u) => u.announced.map((r) => r.prefix));
    expect(prefixes).toHaveLength(1001);
    expect(new Set(prefixes).size).toBe(1001);
    expect(prefixes.slice(0, 2)).toEqual(["1.0.0.0/24", "1.0.1.0/24"]);
    expect(us[0].announced).toHaveLength(10);
    expect(us[100].announced).toHaveLength(1);
    expect(us.every((u) => u.attributes.asPath[0].asns[0] === 64500)).toBe(true);
    expect(fullTablePrefix(70_000)).toBe("2.17.112.0/24");
    const v6 = updates(decode(...fullTableUpdates(5, { family: "ipv6", peer: peer({ address: "2001:db8::1" }) })));
    expect(v6.flatMap((u) => u.announced.map((r) => r.prefix))).toEqual([
      "2400::/48",
      "2400:0:1::/48",
      "2400:0:2::/48",
      "2400:0:3::/48",
      "2400:0:4::/48",
    ]);
  });
});
