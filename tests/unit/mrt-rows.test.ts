import { describe, expect, it } from "vitest";
import { emptyAttributes, mergeAs4Path } from "~/features/routing/mrt/attributes";
import { pathColumns, ribRecordRows, RIB_COLUMNS, updateRows } from "~/features/routing/mrt/rib-rows";
import type { PathAttributes } from "~/features/routing/mrt/attributes";
import type { RibRecord, UpdateRecord } from "~/features/routing/mrt/types";

const NO_ATTRIBUTES: PathAttributes = emptyAttributes();
const asObject = (row: unknown[]) => Object.fromEntries(RIB_COLUMNS.map((c, i) => [c, row[i]]));

describe("AS path columns", () => {
  it("puts sequences in as_path, sets in as_path_set and confederation segments in as_confed_seq", () => {
    expect(
      pathColumns([
        { type: "confed-sequence", asns: [65001, 65002] },
        { type: "sequence", asns: [64496, 64497] },
        { type: "set", asns: [64511, 64512] },
        { type: "confed-set", asns: [65003] },
      ]),
    ).toEqual({ asPath: [64496, 64497], asPathSet: [64511, 64512], asConfedSeq: [65001, 65002, 65003] });
  });

  it("ignores an AS4_PATH longer than AS_PATH (RFC 6793 §4.2.3)", () => {
    const asPath = [{ type: "sequence" as const, asns: [64501, 23456] }];
    expect(mergeAs4Path(asPath, [{ type: "sequence", asns: [1, 2, 3] }])).toEqual(asPath);
    expect(mergeAs4Path(asPath, [{ type: "sequence", asns: [4_200_000_009] }])).toEqual([
      { type: "sequence", asns: [64501] },
      { type: "sequence", asns: [4_200_000_009] },
    ]);
  });
});

describe("rib_entries rows", () => {
  it("times RIB rows by the entry's originated time and stores IPv4 prefixes IPv4-mapped", () => {
    const record: RibRecord = {
      kind: "rib",
      offset: 0,
      timestamp: 1_700_000_000,
      microseconds: 0,
      type: 13,
      subtype: 2,
      sequence: 0,
      safi: 1,
      prefix: { prefix: "192.0.2.0/24", address: "192.0.2.0", length: 24, afi: 1 },
      entries: [
        {
          peer: { bgpId: "198.51.100.10", ip: "198.51.100.10", asn: 64496 },
          originatedTime: 1_699_000_000,
          attributes: {
            ...NO_ATTRIBUTES,
            origin: "EGP",
            asPath: [{ type: "sequence", asns: [64496] }],
            nextHop: "198.51.100.10",
            localPref: 120,
            communities: ["64496:1"],
            largeCommunities: ["64496:2:3"],
            extendedCommunities: ["RT:64496:7"],
            aggregator: "64496 198.51.100.10",
          },
        },
      ],
    };
    expect(ribRecordRows(record, "fra1", "198.51.100.1").map(asObject)).toEqual([
      {
        timestamp: 1_699_000_000,
        vantage_point: "fra1",
        router_ip: "198.51.100.1",
        peer_ip: "198.51.100.10",
        peer_asn: 64496,
        route_distinguisher: "",
        prefix: "192.0.2.0/24",
        prefix_addr: "::ffff:192.0.2.0",
        prefix_len: 24,
        afi: 1,
        safi: 1,
        is_withdrawn: 0,
        as_path: [64496],
        as_path_set: [],
        as_confed_seq: [],
        local_pref: 120,
        med: 0,
        bgp_next_hop: "198.51.100.10",
        origin: "EGP",
        aggregator: "64496 198.51.100.10",
        originator_id: "",
        communities: ["64496:1", "64496:2:3"],
        expire_at: 0,
        rib_view: "post-policy",
        path_id: 0,
        ext_communities: ["RT:64496:7"],
      },
    ]);
  });

  it("writes withdrawals without attributes and announcements with their own next hop", () => {
    const record: UpdateRecord = {
      kind: "update",
      offset: 0,
      timestamp: 1_700_000_100,
      microseconds: 0,
      type: 16,
      subtype: 4,
      peerAsn: 64501,
      localAsn: 64500,
      interfaceIndex: 0,
      afi: 2,
      peerIp: "2001:db8::1",
      localIp: "2001:db8::2",
      announced: [{ prefix: "2001:db8:1::/48", address: "2001:db8:1::", length: 48, afi: 2, nextHop: "2001:db8::1" }],
      withdrawn: [{ prefix: "192.0.2.0/24", address: "192.0.2.0", length: 24, afi: 1 }],
      attributes: { ...NO_ATTRIBUTES, origin: "IGP", asPath: [{ type: "sequence", asns: [64501] }], med: 5, communities: ["64501:9"] },
    };
    const rows = updateRows(record, "ams1").map(asObject);
    expect(
      rows.map((r) => [r.prefix, r.prefix_addr, r.is_withdrawn, r.as_path, r.bgp_next_hop, r.med, r.communities, r.router_ip, r.timestamp]),
    ).toEqual([
      ["192.0.2.0/24", "::ffff:192.0.2.0", 1, [], "", 0, [], "2001:db8::2", 1_700_000_100],
      ["2001:db8:1::/48", "2001:db8:1::", 0, [64501], "2001:db8::1", 5, ["64501:9"], "2001:db8::2", 1_700_000_100],
    ]);
  });
});
