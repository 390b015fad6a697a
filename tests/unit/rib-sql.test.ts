import { describe, expect, it } from "vitest";
import { controlPlaneSql, lookingGlassSql, parseRibQuery, ribDatesSql, type RibMatch } from "~/features/routing/rib-sql";
import { toQueryType } from "~/lib/routing-query-types";
import { parseCommunityPattern } from "~/lib/bgp-communities";

const matchOf = (type: "AsPathQuery" | "IpPrefixQuery", term: string): RibMatch => {
  const parsed = parseRibQuery(type, term);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.match;
};

describe("query types", () => {
  it("maps legacy codes to the current ids", () => {
    expect(toQueryType("AS_PATH_QUERY")).toBe("AsPathQuery");
    expect(toQueryType("IP_PREFIX_QUERY")).toBe("IpPrefixQuery");
    expect(toQueryType("TRACEROUTE_QUERY")).toBe("TracerouteQuery");
    expect(toQueryType("IpPrefixQuery")).toBe("IpPrefixQuery");
    expect(toQueryType("ipprefixquery")).toBeNull();
  });
});

describe("parseRibQuery", () => {
  it("an IPv4 address: its candidate networks of all 33 lengths (distinct), IPv4-mapped", () => {
    const parsed = parseRibQuery("IpPrefixQuery", " 192.0.2.77 ");
    expect(parsed).toMatchObject({ ok: true, term: "192.0.2.77", match: { kind: "address", version: 4, address: "::ffff:192.0.2.77" } });
    const match = matchOf("IpPrefixQuery", "192.0.2.77") as Extract<RibMatch, { kind: "address" }>;
    // Independently: mask 192.0.2.77 (0xC000024D) to each length with 32-bit integer arithmetic.
    const expected = new Set<string>();
    for (let len = 0; len <= 32; len++) {
      const net = len === 0 ? 0 : (0xc000024d & (0xffffffff << (32 - len))) >>> 0;
      expected.add(`::ffff:${net >>> 24}.${(net >>> 16) & 255}.${(net >>> 8) & 255}.${net & 255}`);
    }
    expect([...match.candidates].sort()).toEqual([...expected].sort());
    expect(match.candidates).toContain("::ffff:0.0.0.0");
    expect(match.candidates).toContain("::ffff:192.0.2.64");
    expect(match.candidates).toContain("::ffff:192.0.2.0");
    expect(match.candidates).toContain("::ffff:192.0.0.0");
  });

  it("an IPv6 address: distinct candidates for all 129 lengths", () => {
    const match = matchOf("IpPrefixQuery", "2001:db8::1") as Extract<RibMatch, { kind: "address" }>;
    // 2001:db8::1 shares its network with 2001:db8:: from /32 to /127.
    expect(match.candidates).toEqual(expect.arrayContaining(["::", "2000::", "2001:db8::", "2001:db8::1"]));
    expect(new Set(match.candidates).size).toBe(match.candidates.length);
  });

  it("a prefix: its address range, host bits cleared", () => {
    expect(parseRibQuery("IpPrefixQuery", "10.0.0.1/30")).toEqual({
      ok: true,
      term: "10.0.0.0/30",
      match: { kind: "prefix", version: 4, low: "::ffff:10.0.0.0", high: "::ffff:10.0.0.3", length: 30 },
    });
    expect(parseRibQuery("IpPrefixQuery", "2001:DB8::/32")).toMatchObject({
      term: "2001:db8::/32",
      match: { kind: "prefix", version: 6, low: "2001:db8::", high: "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", length: 32 },
    });
  });

  it("errors: the spec's network message, the pattern message", () => {
    expect(parseRibQuery("IpPrefixQuery", "10.0.0.0/40")).toEqual({ ok: false, error: "Network is not a CIDR or IP" });
    expect(parseRibQuery("IpPrefixQuery", "")).toEqual({ ok: false, error: "Network is not a CIDR or IP" });
    expect(parseRibQuery("AsPathQuery", "AS3356").ok).toBe(false);
    expect(parseRibQuery("AsPathQuery", "3356*")).toEqual({
      ok: true,
      term: "3356 *",
      match: { kind: "asPath", regex: "^3356 (?:[0-9]+ )*$" },
    });
  });
});

describe("lookingGlassSql (golden)", () => {
  it("an address: key lookup of the candidates, then the longest prefix per vantage point and route distinguisher", () => {
    const { sql: query, params } = lookingGlassSql({
      vantagePoints: ["fra1", "ber1"],
      match: matchOf("IpPrefixQuery", "192.0.2.77"),
      limit: 1000,
    });
    expect(query).toBe(
      `SELECT vantage_point, route_distinguisher, prefix, as_path, local_pref, med, bgp_next_hop, communities, ext_communities, originator_id,
       toString(rib_view) AS rib_view, toUnixTimestamp(timestamp) AS last_update, as_path_set, peer_asn, total
FROM (
    SELECT *, count() OVER () AS total,
           row_number() OVER (PARTITION BY vantage_point ORDER BY route_distinguisher, prefix_addr, prefix_len, peer_ip, rib_view, path_id) AS turn
    FROM (
        SELECT *, max(prefix_len) OVER (PARTITION BY vantage_point, route_distinguisher) AS longest
        FROM (
            SELECT timestamp, vantage_point, route_distinguisher, prefix, prefix_addr, prefix_len, peer_ip, rib_view, path_id, afi,
                   is_withdrawn, as_path, local_pref, med, bgp_next_hop, communities, ext_communities, originator_id,
                   as_path_set, peer_asn
            FROM rib_current FINAL
            WHERE vantage_point IN {vantagePoints:Array(String)} AND rib_view IN {ribViews:Array(String)} AND prefix_addr IN {candidates:Array(IPv6)} AND prefix_len <= {maxLength:UInt8} AND prefix_addr = tupleElement(IPv6CIDRToRange({address:IPv6}, toUInt8(prefix_len + {lengthOffset:UInt8})), 1)
        )
        WHERE is_withdrawn = 0 AND afi = {afi:UInt8}
    )
    WHERE prefix_len = longest
)
ORDER BY turn, vantage_point
LIMIT {limit:UInt32}`,
    );
    expect(params).toMatchObject({
      vantagePoints: ["fra1", "ber1"],
      // By default what the routers accepted: post-policy Adj-RIB-In and Loc-RIB, never pre-policy.
      ribViews: ["post-policy", "loc-rib"],
      maxLength: 32,
      lengthOffset: 96,
      afi: 1,
      address: "::ffff:192.0.2.77",
      limit: 1000,
    });
  });

  it("a prefix: a prefix_addr range and lengths from the prefix's own, no longest-match step", () => {
    const { sql: query, params } = lookingGlassSql({ vantagePoints: ["fra1"], match: matchOf("IpPrefixQuery", "2001:db8::/32"), limit: 5 });
    expect(query).toContain(
      "AND prefix_addr BETWEEN {low:IPv6} AND {high:IPv6} AND prefix_len BETWEEN {length:UInt8} AND {maxLength:UInt8}\n",
    );
    expect(query).not.toContain("longest");
    expect(params).toMatchObject({ low: "2001:db8::", length: 32, maxLength: 128, afi: 2, limit: 5 });
  });

  it("an AS path: the pattern is matched on the newest row, after FINAL", () => {
    const { sql: query, params } = lookingGlassSql({ vantagePoints: ["fra1"], match: matchOf("AsPathQuery", "? 3356"), limit: 5 });
    expect(query).toContain(
      "FROM rib_current FINAL\n            WHERE vantage_point IN {vantagePoints:Array(String)} AND rib_view IN {ribViews:Array(String)} AND 1\n",
    );
    expect(query).toContain(
      "WHERE is_withdrawn = 0 AND match(arrayStringConcat(arrayMap(a -> concat(toString(a), ' '), as_path)), {asPathRegex:String})",
    );
    expect(params.asPathRegex).toBe("^[0-9]+ 3356 $");
  });

  it("one table when asked; a community narrows the longest prefix's routes, exactly or by its last part", () => {
    const exact = parseCommunityPattern("64496:0100");
    if (!exact.ok) throw new Error(exact.error);
    const { sql: query, params } = lookingGlassSql({
      vantagePoints: ["fra1"],
      match: matchOf("IpPrefixQuery", "192.0.2.77"),
      limit: 5,
      ribViews: ["pre-policy"],
      community: exact.pattern,
    });
    expect(params).toMatchObject({ ribViews: ["pre-policy"], community: "64496:100" });
    expect(query).toContain(
      "    WHERE prefix_len = longest AND (has(communities, {community:String}) OR has(ext_communities, {community:String}))\n)",
    );
    const wildcard = parseCommunityPattern("RT:64497:*");
    if (!wildcard.ok) throw new Error(wildcard.error);
    const byPrefix = lookingGlassSql({
      vantagePoints: ["fra1"],
      match: matchOf("AsPathQuery", "*"),
      limit: 5,
      community: wildcard.pattern,
    });
    expect(byPrefix.params).toMatchObject({ communityPrefix: "RT:64497:" });
    expect(byPrefix.sql).toContain(
      "    WHERE arrayExists(c -> startsWith(c, {communityPrefix:String}) AND length(c) > length({communityPrefix:String})" +
        " AND position(c, ':', length({communityPrefix:String}) + 1) = 0, arrayConcat(communities, ext_communities))\n)",
    );
    expect(byPrefix.sql).not.toContain("longest");
  });
});

describe("controlPlaneSql and ribDatesSql (golden)", () => {
  it("history in the range, newest first; AS path patterns skip withdrawals", () => {
    const { sql: query, params } = controlPlaneSql({ match: matchOf("AsPathQuery", "*"), start: 100, end: 200, limit: 10 });
    expect(query).toBe(
      `SELECT toUnixTimestamp(timestamp) AS timestamp, vantage_point, router_ip, prefix, as_path, as_path_set, as_confed_seq, local_pref,
       bgp_next_hop, afi, safi, aggregator, toString(origin) AS origin, originator_id, communities, ext_communities,
       toString(rib_view) AS rib_view, path_id, toUnixTimestamp(expire_at) AS expire_at, is_withdrawn, count() OVER () AS total
FROM rib_entries
WHERE timestamp BETWEEN toDateTime({start:UInt32}, 'UTC') AND toDateTime({end:UInt32}, 'UTC') AND rib_view IN {ribViews:Array(String)}
  AND 1 AND is_withdrawn = 0 AND match(arrayStringConcat(arrayMap(a -> concat(toString(a), ' '), as_path)), {asPathRegex:String})
ORDER BY timestamp DESC, vantage_point, prefix_addr, prefix_len, peer_ip, rib_view, path_id
LIMIT {limit:UInt32}`,
    );
    expect(params).toMatchObject({ start: 100, end: 200, limit: 10, asPathRegex: "^(?:[0-9]+ )*$", ribViews: ["post-policy", "loc-rib"] });
    const locRib = controlPlaneSql({ match: matchOf("AsPathQuery", "*"), start: 1, end: 2, limit: 1, ribViews: ["loc-rib"] });
    expect(locRib.params.ribViews).toEqual(["loc-rib"]);
    const prefix = controlPlaneSql({ match: matchOf("IpPrefixQuery", "10.0.0.0/8"), start: 1, end: 2, limit: 10 });
    expect(prefix.sql).toContain("AND afi = {afi:UInt8}\nORDER BY");
    expect(prefix.sql).not.toContain("is_withdrawn = 0");
  });

  it("dates: NULLs for an empty history", () => {
    expect(ribDatesSql().sql).toBe(
      "SELECT if(count() = 0, NULL, toUnixTimestamp(min(timestamp))) AS minTimestamp, if(count() = 0, NULL, toUnixTimestamp(max(timestamp))) AS maxTimestamp FROM rib_entries",
    );
  });
});
