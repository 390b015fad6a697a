import { describe, expect, it } from "vitest";
import type { PathAttributes } from "~/features/routing/mrt/attributes";
import { peerAddressOf, ReplayTable, routeDistinguisherOf, type ReplayRoute } from "~/features/routing/bmp/replay-table";
import type { BmpAnnouncement, BmpMessage, BmpPeer, BmpRoute, BmpUpdate } from "~/features/routing/bmp/types";

const R1 = "192.0.2.61";
const R2 = "192.0.2.62";

function peer(overrides: Partial<BmpPeer> = {}): BmpPeer {
  return {
    peerType: 0,
    view: "post-policy",
    distinguisher: "",
    address: "198.51.100.1",
    asn: 64500,
    bgpId: "198.51.100.1",
    timestamp: 1_700_000_000,
    legacyAsPath: false,
    adjRibOut: false,
    filtered: false,
    ...overrides,
  };
}

function route(prefix: string, overrides: Partial<BmpRoute> = {}): BmpRoute {
  const [address, length] = prefix.split("/");
  const afi = address.includes(":") ? 2 : 1;
  return { prefix, address, length: Number(length), afi, safi: 1, routeDistinguisher: "", pathId: 0, labels: [], ...overrides };
}

const announcement = (prefix: string, nextHop: string, overrides: Partial<BmpRoute> = {}): BmpAnnouncement => ({
  ...route(prefix, overrides),
  nextHop,
});

function attributes(overrides: Partial<PathAttributes> = {}): PathAttributes {
  return {
    origin: "IGP",
    asPath: [{ type: "sequence", asns: [64500, 64510] }],
    nextHop: null,
    med: null,
    localPref: null,
    atomicAggregate: false,
    aggregator: null,
    originatorId: null,
    communities: [],
    largeCommunities: [],
    extendedCommunities: [],
    mpReach: null,
    mpUnreach: null,
    otherTypes: [],
    ...overrides,
  };
}

function monitoring(on: BmpPeer, change: { attrs?: Partial<PathAttributes> } & Partial<Omit<BmpUpdate, "attributes">>): BmpMessage {
  const update: BmpUpdate = {
    announced: change.announced ?? [],
    withdrawn: change.withdrawn ?? [],
    attributes: attributes({ ...change.attrs, extendedCommunities: change.extendedCommunities ?? [] }),
    extendedCommunities: change.extendedCommunities ?? [],
    endOfRib: change.endOfRib ?? null,
    skipped: change.skipped ?? null,
  };
  return { kind: "route-monitoring", peer: on, update };
}

const peerDown = (on: BmpPeer): BmpMessage => ({ kind: "peer-down", peer: on, reason: 2, detail: "the local system closed the session" });

/** What distinguishes the routes of a table, for short expectations. */
const keys = (routes: ReplayRoute[]) =>
  routes.map((r) => `${r.router} ${r.view} ${r.peerAddress} ${r.routeDistinguisher || "-"} ${r.prefix} #${r.pathId} via ${r.nextHop}`);

describe("the table a BMP session leaves", () => {
  it("keeps every field of an announced route", () => {
    const table = new ReplayTable();
    const vpnPeer = peer({ address: "198.51.100.52", asn: 65536 });
    table.apply(
      R1,
      monitoring(vpnPeer, {
        announced: [
          announcement("2001:db8:41::/64", "::ffff:198.51.100.44", { safi: 128, routeDistinguisher: "65543:105", labels: [917584] }),
        ],
        attrs: {
          asPath: [
            { type: "sequence", asns: [65536, 65543] },
            { type: "set", asns: [64512, 64513] },
          ],
          origin: "INCOMPLETE",
          localPref: 200,
          med: 10,
          communities: ["64496:299", "64497:4"],
          largeCommunities: ["64496:1:2"],
        },
        extendedCommunities: ["RT:64497:42"],
      }),
    );
    expect(table.routes()).toEqual([
      {
        router: R1,
        view: "post-policy",
        peerAddress: "198.51.100.52",
        peerAsn: 65536,
        peerDistinguisher: "",
        prefix: "2001:db8:41::/64",
        afi: 2,
        safi: 128,
        routeDistinguisher: "65543:105",
        pathId: 0,
        labels: [917584],
        asPath: [
          { type: "sequence", asns: [65536, 65543] },
          { type: "set", asns: [64512, 64513] },
        ],
        nextHop: "::ffff:198.51.100.44",
        origin: "INCOMPLETE",
        localPref: 200,
        med: 10,
        communities: ["64496:299", "64497:4"],
        largeCommunities: ["64496:1:2"],
        extendedCommunities: ["RT:64497:42"],
      },
    ]);
    expect(table.counts).toMatchObject({ announcements: 1, withdrawals: 0 });
  });

  it("replaces a route with the same router, view, peer, RD, prefix and path id; keeps apart what differs in one of them", () => {
    const table = new ReplayTable();
    const p = peer();
    table.apply(R1, monitoring(p, { announced: [announcement("203.0.113.0/24", "198.51.100.1")] }));
    table.apply(R1, monitoring(p, { announced: [announcement("203.0.113.0/24", "198.51.100.1", { pathId: 2 })] }));
    table.apply(R1, monitoring(peer({ view: "pre-policy" }), { announced: [announcement("203.0.113.0/24", "198.51.100.1")] }));
    table.apply(
      R1,
      monitoring(p, { announced: [announcement("203.0.113.0/24", "198.51.100.1", { safi: 128, routeDistinguisher: "64500:1" })] }),
    );
    table.apply(R2, monitoring(p, { announced: [announcement("203.0.113.0/24", "198.51.100.1")] }));
    table.apply(R1, monitoring(peer({ address: "198.51.100.2" }), { announced: [announcement("203.0.113.0/24", "198.51.100.2")] }));
    // The first route again, with a new next hop: replaced, and last in the order of announcements.
    table.apply(R1, monitoring(p, { announced: [announcement("203.0.113.0/24", "198.51.100.9")] }));
    expect(keys(table.routes())).toEqual([
      `${R1} post-policy 198.51.100.1 - 203.0.113.0/24 #2 via 198.51.100.1`,
      `${R1} pre-policy 198.51.100.1 - 203.0.113.0/24 #0 via 198.51.100.1`,
      `${R1} post-policy 198.51.100.1 64500:1 203.0.113.0/24 #0 via 198.51.100.1`,
      `${R2} post-policy 198.51.100.1 - 203.0.113.0/24 #0 via 198.51.100.1`,
      `${R1} post-policy 198.51.100.2 - 203.0.113.0/24 #0 via 198.51.100.2`,
      `${R1} post-policy 198.51.100.1 - 203.0.113.0/24 #0 via 198.51.100.9`,
    ]);
    expect(table.size).toBe(6);
    expect(table.counts.announcements).toBe(7);
  });

  it("removes a withdrawn route by its key, and counts withdrawals of routes it does not hold", () => {
    const table = new ReplayTable();
    const p = peer();
    table.apply(
      R1,
      monitoring(p, {
        announced: [
          announcement("203.0.113.0/24", "198.51.100.1", { pathId: 1 }),
          announcement("203.0.113.0/24", "198.51.100.1", { pathId: 2 }),
          announcement("2001:db8:5::/48", "2001:db8::1"),
        ],
      }),
    );
    table.apply(
      R1,
      monitoring(p, { withdrawn: [route("203.0.113.0/24", { pathId: 1 }), route("2001:db8:5::/48"), route("192.0.2.0/24")] }),
    );
    // The same prefix from the same peer, but another view or router: not this route.
    table.apply(R1, monitoring(peer({ view: "pre-policy" }), { withdrawn: [route("203.0.113.0/24", { pathId: 2 })] }));
    table.apply(R2, monitoring(p, { withdrawn: [route("203.0.113.0/24", { pathId: 2 })] }));
    expect(keys(table.routes())).toEqual([`${R1} post-policy 198.51.100.1 - 203.0.113.0/24 #2 via 198.51.100.1`]);
    expect(table.counts).toMatchObject({ announcements: 3, withdrawals: 5, withdrawalsNotHeld: 3 });
  });

  it("a Peer Down removes every route of that peer, in all views and RDs, and nothing else", () => {
    const table = new ReplayTable();
    const post = peer();
    const pre = peer({ view: "pre-policy" });
    const otherPeer = peer({ address: "198.51.100.2" });
    const vrfPeer = peer({ peerType: 1, distinguisher: "64500:7" }); // same address, an RD instance peer
    for (const p of [post, pre, otherPeer, vrfPeer])
      table.apply(R1, monitoring(p, { announced: [announcement("203.0.113.0/24", p.address)] }));
    table.apply(
      R1,
      monitoring(post, { announced: [announcement("10.1.0.0/16", "198.51.100.1", { safi: 128, routeDistinguisher: "64500:1" })] }),
    );
    table.apply(R2, monitoring(post, { announced: [announcement("203.0.113.0/24", "198.51.100.1")] }));

    table.apply(R1, peerDown(post));
    expect(keys(table.routes())).toEqual([
      `${R1} post-policy 198.51.100.2 - 203.0.113.0/24 #0 via 198.51.100.2`,
      `${R1} post-policy 198.51.100.1 64500:7 203.0.113.0/24 #0 via 198.51.100.1`,
      `${R2} post-policy 198.51.100.1 - 203.0.113.0/24 #0 via 198.51.100.1`,
    ]);
    expect(table.counts.removedByPeerDown).toBe(3);
    table.apply(R1, peerDown(vrfPeer));
    expect(table.size).toBe(2);
  });

  it("gives a Loc-RIB route the router as its peer and the instance's distinguisher as RD when the route has none", () => {
    const table = new ReplayTable();
    const locRib = peer({ peerType: 3, view: "loc-rib", address: "", asn: 65537, distinguisher: "64499:11" });
    table.apply(
      R1,
      monitoring(locRib, {
        announced: [
          announcement("2001:db8::10/128", "2001:db8:11::153"),
          announcement("2001:db8::12/128", "::ffff:198.51.100.62", { safi: 128, routeDistinguisher: "64499:12" }),
        ],
      }),
    );
    expect(table.routes().map((r) => [r.peerAddress, r.peerAsn, r.view, r.routeDistinguisher])).toEqual([
      [R1, 65537, "loc-rib", "64499:11"],
      [R1, 65537, "loc-rib", "64499:12"],
    ]);
    table.apply(R1, monitoring(locRib, { withdrawn: [route("2001:db8::10/128")] }));
    expect(table.size).toBe(1);
    table.apply(R1, peerDown(locRib));
    expect(table.size).toBe(0);
  });

  it("reads the route distinguisher and peer address rules as documented", () => {
    expect(routeDistinguisherOf(peer({ peerType: 1, distinguisher: "64500:3" }), route("10.0.0.0/8"))).toBe("64500:3");
    expect(routeDistinguisherOf(peer({ peerType: 0, distinguisher: "" }), route("10.0.0.0/8"))).toBe("");
    expect(routeDistinguisherOf(peer({ peerType: 2, distinguisher: "64500:3" }), route("10.0.0.0/8"))).toBe("");
    expect(routeDistinguisherOf(peer({ peerType: 1, distinguisher: "64500:3" }), route("10.0.0.0/8", { routeDistinguisher: "1:1" }))).toBe(
      "1:1",
    );
    expect(peerAddressOf(R1, peer({ peerType: 3, view: "loc-rib", address: "" }))).toBe(R1);
    expect(peerAddressOf(R1, peer())).toBe("198.51.100.1");
  });

  it("counts Adj-RIB-Out and skipped families without applying them; End-of-RIB, statistics and Termination change nothing", () => {
    const table = new ReplayTable();
    const p = peer();
    table.apply(R1, monitoring(p, { announced: [announcement("203.0.113.0/24", "198.51.100.1")] }));
    table.apply(R1, monitoring(peer({ adjRibOut: true }), { announced: [announcement("198.18.0.0/15", "198.51.100.1")] }));
    table.apply(R1, monitoring(p, { skipped: { afi: 25, safi: 70, reason: "EVPN" } }));
    table.apply(R1, monitoring(p, { endOfRib: { afi: 1, safi: 1 } }));
    table.apply(R1, { kind: "statistics-report", peer: p, statistics: [{ type: 7, name: "routes in Adj-RIB-In", value: 1 }] });
    table.apply(R1, { kind: "termination", information: [] });
    table.apply(R1, { kind: "bad", type: 0, message: "an UPDATE cut short" });
    expect(keys(table.routes())).toEqual([`${R1} post-policy 198.51.100.1 - 203.0.113.0/24 #0 via 198.51.100.1`]);
    expect(table.counts).toMatchObject({ announcements: 1, adjRibOutMessages: 1, skippedFamilies: { "25/70: EVPN": 1 } });
  });
});
