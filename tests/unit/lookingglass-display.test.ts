import { describe, expect, it } from "vitest";
import { sheetToCsv } from "~/lib/sheet-csv";
import type { LookingGlassRow } from "~/features/routing/route-columns";
import {
  asPathHops,
  cellText,
  columnHeader,
  communityEntries,
  dataColumns,
  flattenResults,
  resultsSheet,
  rnaLink,
  rnaRowLinks,
  rnaVrf,
} from "~/features/lookingglass/columns";
import { parseRawFilterValue, type RawFilterKind } from "~/features/filter/raw-filters";
import { tableSvg } from "~/features/shared/export/table-svg.server";
import { brandedFooterLinks } from "~/features/lookingglass/ui/PublicLayout";
import { validateTerm } from "~/features/lookingglass/validation";
import { resultsLimited, MESSAGES } from "~/lib/messages";

const ROW: LookingGlassRow = {
  VantagePoint: "fra-er1 Frankfurt, Germany",
  Prefix: "10.1.2.0/24",
  RouteDistinguisher: "",
  "BGP as_path": "3356 64511",
  "BGP local_pref": 150,
  "BGP med": 0,
  "BGP next_hop": "198.51.100.1",
  "BGP community": "64500:100",
  "BGP originator_id": "192.0.2.9",
  RibView: "post-policy",
  LastUpdate: "2026-09-21T13:33:20Z",
  asNames: {},
  communityNames: {},
  RPKI: "invalid",
};

describe("Looking Glass display", () => {
  it("has the spec's columns, the public variant without the private-only ones", () => {
    // Labels people read on screen and in files; the JSON API keeps the spec's names.
    expect(dataColumns("private").map((c) => columnHeader(c))).toEqual([
      "Vantage point",
      "Prefix",
      "Route distinguisher",
      "AS path",
      "RPKI",
      "Local preference",
      "MED",
      "Next hop",
      "Communities",
      "Originator ID",
      "RIB view",
      "Last update (UTC)",
    ]);
    expect(columnHeader("LastUpdate", "Europe/Berlin")).toBe("Last update (Europe/Berlin)");
    expect(dataColumns("public")).not.toContain("BGP community");
    expect(dataColumns("public")).not.toContain("BGP originator_id");
  });

  it("shows LastUpdate in the spec's long format in the given timezone and flattens results, listing vantage points without data", () => {
    expect(cellText(ROW, "LastUpdate")).toBe("21.09.2026 13:33");
    expect(cellText(ROW, "LastUpdate", "Europe/Berlin")).toBe("21.09.2026 15:33");
    // The origin validation state in words, also when no VRP is loaded (null).
    expect(cellText(ROW, "RPKI")).toBe("Invalid");
    expect(cellText({ ...ROW, RPKI: "valid" }, "RPKI")).toBe("Valid");
    expect(cellText({ ...ROW, RPKI: "not-found" }, "RPKI")).toBe("Not found");
    expect(cellText({ ...ROW, RPKI: null }, "RPKI")).toBe("No ROA data");
    expect(flattenResults({ fra1: [ROW], fra2: "VantagePointWithNoData", ber1: [] })).toEqual({ rows: [ROW], noData: ["fra2", "ber1"] });
  });

  it("exports the variant's columns", () => {
    const csv = sheetToCsv(resultsSheet("t", [ROW], "public"), ";");
    expect(csv).toBe(
      "Vantage point;Prefix;Route distinguisher;AS path;RPKI;Local preference;MED;Next hop;RIB view;Last update (UTC)\r\nfra-er1 Frankfurt, Germany;10.1.2.0/24;;3356 › 64511;Invalid;150;0;198.51.100.1;Adj-RIB-In post-policy;21.09.2026 13:33\r\n",
    );
    const svg = tableSvg(resultsSheet("t", [{ ...ROW, Prefix: "<x>" }], "private"));
    expect(svg).toContain("&lt;x&gt;");
    expect(svg).toContain("Communities");
  });

  it("names the ASes of a path and the communities of a row as the screens and files show them; the row keeps the numbers", () => {
    const named: LookingGlassRow = {
      ...ROW,
      "BGP as_path": "3356 64496 64511",
      "BGP community": "65535:65281 64496:100 64496:1:2 RT:64497:42 64500:1",
      RibView: "loc-rib",
      asNames: { "3356": "LEVEL3", "64511": "Example-Net" },
      communityNames: { "65535:65281": "NO_EXPORT", "64496:100": "Customer routes", "RT:64497:42": "VPN blue" },
    };
    expect(cellText(named, "BGP as_path")).toBe("3356 LEVEL3 › 64496 › 64511 Example-Net");
    expect(asPathHops(named)).toEqual([
      { asn: "3356", name: "LEVEL3" },
      { asn: "64496", name: null },
      { asn: "64511", name: "Example-Net" },
    ]);
    expect(cellText(named, "BGP community")).toBe(
      "65535:65281 NO_EXPORT, 64496:100 Customer routes, 64496:1:2, RT:64497:42 VPN blue, 64500:1",
    );
    expect(communityEntries(named).map((c) => c.name)).toEqual(["NO_EXPORT", "Customer routes", null, "VPN blue", null]);
    expect(cellText(named, "RibView")).toBe("Loc-RIB");
    // An empty path (the network's own routes) and no communities: empty cells, not separators.
    expect(cellText({ ...named, "BGP as_path": "", "BGP community": "" }, "BGP as_path")).toBe("");
    expect(communityEntries({ ...named, "BGP community": "" })).toEqual([]);
    // The RNA filter reads the numbers, not the names.
    expect(rnaLink(named, ["BGP as_path"], () => undefined)).toBe("/rna?filter=AS_DST%3A64511");
  });

  it("builds the RNA link from the picked columns only", () => {
    const routerOf = (vp: string) => (vp === ROW.VantagePoint ? "fra-er1" : undefined);
    expect(rnaLink(ROW, [], routerOf)).toBeNull();
    expect(rnaLink(ROW, ["Prefix", "BGP as_path"], routerOf)).toBe("/rna?filter=DST_PREFIX%3A10.1.2.0%2F24&filter=AS_DST%3A64511");
    expect(rnaLink(ROW, ["VantagePoint"], routerOf)).toBe("/rna?filter=EXPORTER%3Afra-er1");
  });

  it("offers the server-rendered table one RNA link per filter kind and one with all, the dialog's addresses", () => {
    const routerOf = (vp: string) => (vp === ROW.VantagePoint ? "fra-er1" : undefined);
    expect(rnaRowLinks(ROW, routerOf)).toEqual([
      { label: "Exporting router fra-er1", columns: ["VantagePoint"], href: "/rna?filter=EXPORTER%3Afra-er1" },
      { label: "Destination prefix 10.1.2.0/24", columns: ["Prefix"], href: "/rna?filter=DST_PREFIX%3A10.1.2.0%2F24" },
      { label: "Destination (origin) AS 64511", columns: ["BGP as_path"], href: "/rna?filter=AS_DST%3A64511" },
      { label: "Next hop 198.51.100.1", columns: ["BGP next_hop"], href: "/rna?filter=NEXT_HOP%3A198.51.100.1" },
      {
        label: "All of these",
        columns: ["VantagePoint", "Prefix", "BGP as_path", "BGP next_hop"],
        href: rnaLink(ROW, ["VantagePoint", "Prefix", "BGP as_path", "BGP next_hop"], routerOf),
      },
    ]);
    // A column that gives no filter (the network's own route: no AS path; an unknown router) has no link; one left needs no "all".
    const own = { ...ROW, "BGP as_path": "", "BGP next_hop": "", Prefix: "10.9.0.0/16" };
    expect(rnaRowLinks(own, () => undefined)).toEqual([
      { label: "Destination prefix 10.9.0.0/16", columns: ["Prefix"], href: "/rna?filter=DST_PREFIX%3A10.9.0.0%2F16" },
    ]);
  });

  it("scopes the prefix, AS and next hop to the VRF whose route distinguisher the row has, not the exporter", () => {
    const routerOf = (vp: string) => (vp === ROW.VantagePoint ? "fra-er1" : undefined);
    // The inventory's VRFs of fra-er1 (router_vrfs): CUST_A is 64500:1.
    const vrfOf = (vp: string, rd: string) => (routerOf(vp) === "fra-er1" && rd === "64500:1" ? "CUST_A" : undefined);
    const vpn = { ...ROW, RouteDistinguisher: "64500:1" };
    expect(rnaVrf(vpn, vrfOf)).toBe("CUST_A");
    expect(rnaLink(vpn, ["VantagePoint", "Prefix", "BGP as_path", "BGP next_hop"], routerOf, vrfOf)).toBe(
      "/rna?filter=EXPORTER%3Afra-er1&filter=DST_PREFIX%3A10.1.2.0%2F24%40CUST_A&filter=AS_DST%3A64511%40CUST_A" +
        "&filter=NEXT_HOP%3A198.51.100.1%40CUST_A",
    );
    expect(rnaRowLinks(vpn, routerOf, vrfOf).map((l) => l.label)).toEqual([
      "Exporting router fra-er1",
      "Destination prefix 10.1.2.0/24 in VRF CUST_A",
      "Destination (origin) AS 64511 in VRF CUST_A",
      "Next hop 198.51.100.1 in VRF CUST_A",
      "All of these",
    ]);
    // What the link writes, the RNA's filter parser reads back as the same value scoped to the VRF.
    for (const value of new URL(rnaLink(vpn, ["Prefix", "BGP as_path", "BGP next_hop"], routerOf, vrfOf)!, "http://x").searchParams.getAll(
      "filter",
    )) {
      const colon = value.indexOf(":");
      const parsed = parseRawFilterValue(value.slice(0, colon) as RawFilterKind, value.slice(colon + 1));
      expect(["filter" in parsed && parsed.filter.vrf, value]).toEqual(["CUST_A", value]);
    }
    // No distinguisher (the global table), one the inventory does not map, or another router's: unscoped.
    for (const row of [ROW, { ...ROW, RouteDistinguisher: "64500:2" }, { ...vpn, VantagePoint: "ber-er1 Berlin" }]) {
      expect(rnaVrf(row, vrfOf)).toBeNull();
      expect(rnaLink(row, ["Prefix"], routerOf, vrfOf)).toBe("/rna?filter=DST_PREFIX%3A10.1.2.0%2F24");
    }
    // Without the inventory's VRFs at hand (vrfOf absent), as before.
    expect(rnaLink(vpn, ["Prefix"], routerOf)).toBe("/rna?filter=DST_PREFIX%3A10.1.2.0%2F24");
  });

  it("validates terms with the spec's messages", () => {
    expect(validateTerm("IpPrefixQuery", " 2001:0db8:0:0::1 ")).toEqual({ ok: true, value: "2001:db8::1" });
    expect(validateTerm("IpPrefixQuery", "10.0.0.0/33")).toEqual({ ok: false, error: MESSAGES.invalidNetwork });
    expect(validateTerm("PingQuery", "10.0.0.0/24")).toEqual({ ok: false, error: MESSAGES.invalidIpAddress });
    expect(validateTerm("AsPathQuery", "")).toEqual({ ok: true, value: "" });
    expect(validateTerm("AsPathQuery", "? 3356 *").ok).toBe(true);
    expect(validateTerm("AsPathQuery", "AS3356").ok).toBe(false);
  });

  it("words the banner as the spec does and finds the branded footer's links", () => {
    expect(resultsLimited(5000, 1000)).toBe("Your search had 5000 results, only the first 1000 will be shown. Try a more specific query.");
    const links = brandedFooterLinks([
      { id: 1, text: "Imprint", link: "https://example.net/imprint" },
      { id: 2, text: "contact", link: "mailto:noc@example.net" },
      { id: 3, text: "Blog", link: "https://example.net/blog" },
    ]);
    expect(links).toEqual([
      { text: "Contact", link: "mailto:noc@example.net" },
      { text: "Imprint", link: "https://example.net/imprint" },
    ]);
  });
});
