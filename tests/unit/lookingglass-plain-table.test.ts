import { describe, expect, it } from "vitest";
import type { LookingGlassRow } from "~/features/routing/route-columns";
import {
  applyPlainTableState,
  DEFAULT_PLAIN_TABLE_STATE,
  parsePlainTableState,
  plainTableHref,
  queryParams,
  sortedBy,
} from "~/features/lookingglass/plain-table";

function row(prefix: string, localPref: number, lastUpdate: string, vp = "fra-er1 Frankfurt, Germany", community = ""): LookingGlassRow {
  return {
    VantagePoint: vp,
    Prefix: prefix,
    RouteDistinguisher: "",
    "BGP as_path": "3356 64511",
    "BGP local_pref": localPref,
    "BGP med": 0,
    "BGP next_hop": "198.51.100.1",
    "BGP community": community,
    RibView: "post-policy",
    LastUpdate: lastUpdate,
    asNames: { "3356": "Lumen" },
    communityNames: {},
    RPKI: null,
  };
}

const ROWS = [
  row("10.0.0.0/8", 100, "2026-11-02T10:00:00Z"),
  row("9.0.0.0/8", 300, "2026-11-01T10:00:00Z", "ams-er1 Amsterdam, Netherlands", "64500:100"),
  row("192.0.2.0/24", 200, "2026-11-03T10:00:00Z"),
  row("2001:db8::/32", 100, "2026-10-30T10:00:00Z", "ams-er1 Amsterdam, Netherlands"),
];

const search = (s: string) => new URLSearchParams(s);

describe("the server-rendered Looking Glass table's URL state", () => {
  it("reads page, sort and filter, and leaves out what it does not know", () => {
    expect(parsePlainTableState(search(""), "public")).toEqual(DEFAULT_PLAIN_TABLE_STATE);
    expect(parsePlainTableState(search("page=3&sort=Prefix&order=desc&filter=%20ams%20&filterColumn=VantagePoint"), "public")).toEqual({
      page: 3,
      sort: { column: "Prefix", order: "desc" },
      filter: { text: "ams", column: "VantagePoint" },
    });
    // A private-only column is no column of the public table; a bad page or order falls back.
    expect(parsePlainTableState(search("sort=BGP+community&page=-2&order=up&filter=x&filterColumn=BGP+community"), "public")).toEqual({
      page: 1,
      sort: null,
      filter: { text: "x", column: null },
    });
    expect(parsePlainTableState(search("sort=BGP+community"), "private").sort).toEqual({ column: "BGP community", order: "asc" });
    expect(parsePlainTableState(search(`filter=${"a".repeat(500)}`), "public").filter?.text).toHaveLength(200);
  });

  it("sorts numbers as numbers, prefixes with numeric collation, times in time order; ties keep the answer's order", () => {
    const prefixes = (rows: LookingGlassRow[]) => rows.map((r) => r.Prefix);
    const sorted = (column: string, order = "asc") =>
      prefixes(applyPlainTableState(ROWS, parsePlainTableState(search(`sort=${column}&order=${order}`), "private"), "private", "UTC"));
    expect(sorted("Prefix")).toEqual(["9.0.0.0/8", "10.0.0.0/8", "192.0.2.0/24", "2001:db8::/32"]);
    expect(sorted("BGP+local_pref")).toEqual(["10.0.0.0/8", "2001:db8::/32", "192.0.2.0/24", "9.0.0.0/8"]);
    expect(sorted("BGP+local_pref", "desc")).toEqual(["9.0.0.0/8", "192.0.2.0/24", "10.0.0.0/8", "2001:db8::/32"]);
    expect(sorted("LastUpdate")).toEqual(["2001:db8::/32", "9.0.0.0/8", "10.0.0.0/8", "192.0.2.0/24"]);
  });

  it("filters by text in one column or any, ignoring case, before sorting", () => {
    const shown = (q: string) =>
      applyPlainTableState(ROWS, parsePlainTableState(search(q), "private"), "private", "UTC").map((r) => r.Prefix);
    expect(shown("filter=AMSTERDAM&filterColumn=VantagePoint&sort=Prefix")).toEqual(["9.0.0.0/8", "2001:db8::/32"]);
    // Any column: the community and the AS names are text of the row too.
    expect(shown("filter=64500:100")).toEqual(["9.0.0.0/8"]);
    expect(shown("filter=lumen")).toHaveLength(4);
    expect(shown("filter=amsterdam&filterColumn=Prefix")).toEqual([]);
  });

  it("builds links that keep the query and flip the sort order, back to page 1", () => {
    const query = queryParams(search("queryType=IP_PREFIX_QUERY&queryTerm=10.0.0.0%2F8&page=4&sort=Prefix&filter=x"));
    expect(query.toString()).toBe("queryType=IP_PREFIX_QUERY&queryTerm=10.0.0.0%2F8");
    const state = parsePlainTableState(search("page=4&sort=Prefix&order=asc&filter=ams"), "public");
    expect(plainTableHref("/lookingglass", query, sortedBy(state, "Prefix"))).toBe(
      "/lookingglass?queryType=IP_PREFIX_QUERY&queryTerm=10.0.0.0%2F8&filter=ams&sort=Prefix&order=desc",
    );
    expect(plainTableHref("/lookingglass", query, sortedBy(state, "BGP next_hop"))).toContain("sort=BGP+next_hop&order=asc");
    expect(plainTableHref("/lookingglass", query, { ...state, page: 5 })).toContain("&page=5");
  });
});
