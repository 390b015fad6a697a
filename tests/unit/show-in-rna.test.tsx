// 'Show in RNA' as plain links: the Flow Explorer's row links (value, view filters, range), who is offered them, and the
// server-rendered markup of the Flow Explorer's and the Looking Glass's tables (new tab, no JavaScript needed).
import { MantineProvider } from "@mantine/core";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { filterParamsToRequest } from "~/features/flows/params";
import { flowRowRnaHref, mayShowInRna, RNA_PATH } from "~/features/flows/rna-link";
import { AggregatedTable } from "~/features/flows/ui/FlowTable";
import { DEFAULT_PLAIN_TABLE_STATE } from "~/features/lookingglass/plain-table";
import { PlainResultsTable } from "~/features/lookingglass/ui/PlainResultsTable";
import type { LookingGlassRow } from "~/features/routing/route-columns";
import { MESSAGES } from "~/lib/messages";
import { isToolBuilt } from "~/lib/routes";

const RANGE = { start: 1_800_000_000, end: 1_800_003_600 };

describe("flowRowRnaHref", () => {
  it("turns a protocol row of one ICMP type into the protocol and the type in the filter language", () => {
    const href = (value: string) =>
      new URL(flowRowRnaHref({ dimension: "IANA_PROTOCOL", value, viewFilters: [], range: RANGE })!, "http://x");
    expect(href("1/8").searchParams.getAll("filter")).toEqual(["IANA_PROTOCOL:1"]);
    expect(href("1/8").searchParams.get("q")).toBe("icmp-type 8");
    expect(href("58/128").searchParams.get("q")).toBe("icmp-type 128");
    // The records that said no type: none of the types.
    expect(href("1/-1").searchParams.get("q")).toBe("not icmp-type 0-255");
    expect(href("6").searchParams.get("q")).toBeNull();
  });

  it("the row's value as a filter of the table's dimension, then the view's filters, the range as unix seconds", () => {
    const href = flowRowRnaHref({
      dimension: "AS_SRC_INGRESS",
      value: "15169",
      viewFilters: ["ROUTER_IN:fra-er1,!ber-er1", " IANA_PROTOCOL:6 ", ""],
      range: RANGE,
    })!;
    const url = new URL(href, "http://x");
    expect(url.pathname).toBe(RNA_PATH);
    expect(url.searchParams.getAll("filter")).toEqual(["AS_SRC_INGRESS:15169", "ROUTER_IN:fra-er1,!ber-er1", "IANA_PROTOCOL:6"]);
    expect(url.searchParams.get("start")).toBe(String(RANGE.start));
    expect(url.searchParams.get("end")).toBe(String(RANGE.end));
    // The same parser reads the row's filter back as exactly the row's value.
    expect(filterParamsToRequest(url.searchParams.getAll("filter"))[0]).toEqual({ dimension: "AS_SRC_INGRESS", values: ["15169"] });
  });

  it("special values that raw records carry keep their link; the Others fold and values the syntax cannot carry have none", () => {
    expect(flowRowRnaHref({ dimension: "AS_DST_INGRESS", value: "-1", viewFilters: [], range: RANGE })).toContain("AS_DST_INGRESS%3A-1");
    expect(flowRowRnaHref({ dimension: "AS_DST_INGRESS", value: "-101", viewFilters: [], range: RANGE })).toBeNull();
    expect(flowRowRnaHref({ dimension: "IANA_PROTOCOL", value: "-101", viewFilters: [], range: RANGE })).toBeNull();
    expect(flowRowRnaHref({ dimension: "ROUTER_IN", value: "Others", viewFilters: [], range: RANGE })).toBeNull();
    for (const value of ["", "a,b", "!x", "#12", " x"])
      expect(flowRowRnaHref({ dimension: "ROUTER_IN", value, viewFilters: [], range: RANGE }), value).toBeNull();
    expect(flowRowRnaHref({ dimension: "ROUTER_IN", value: "fra-er1", viewFilters: [], range: RANGE })).toBe(
      `/rna?filter=ROUTER_IN%3Afra-er1&start=${RANGE.start}&end=${RANGE.end}`,
    );
  });
});

describe("who is offered 'Show in RNA'", () => {
  it("RAW_NETWORK_ANALYZER, and only once the RNA exists in this version", () => {
    expect(mayShowInRna({ permissions: ["API_FLOWS_4D", "RAW_NETWORK_ANALYZER"] }, true)).toBe(true);
    expect(mayShowInRna({ permissions: ["API_FLOWS_4D"] }, true)).toBe(false);
    expect(mayShowInRna({ permissions: ["API_FLOWS_4D", "RAW_NETWORK_ANALYZER"] }, false)).toBe(false);
    // By default it follows the tool catalogue.
    expect(mayShowInRna({ permissions: ["RAW_NETWORK_ANALYZER"] })).toBe(isToolBuilt("/rna"));
  });
});

const wrap = (node: React.ReactNode) => renderToString(<MantineProvider>{node}</MantineProvider>);
const ROWS = [
  { key: "15169", name: "Google", bps: 3000, bytes: "1" },
  { key: "-101", name: "Others", bps: 1000, bytes: "1" },
];
const links = (html: string) => [...html.matchAll(/<a [^>]*href="\/rna\?[^>]*>/g)].map((m) => m[0]);

describe("the Flow Explorer's aggregated table", () => {
  it("leaves the links to the interactive table: the server's table stays within its byte budget", () => {
    const html = wrap(
      <AggregatedTable
        rows={ROWS}
        dimension={{ id: "AS_SRC_INGRESS", label: "Source AS", isAs: true }}
        total={4000}
        compared={false}
        rnaHref={(value) => flowRowRnaHref({ dimension: "AS_SRC_INGRESS", value, viewFilters: [], range: RANGE })}
      />,
    );
    expect(links(html)).toEqual([]);
    expect(html).not.toContain("Raw flows");
  });

  it("has no such column without the permission", () => {
    const html = wrap(
      <AggregatedTable rows={ROWS} dimension={{ id: "AS_SRC_INGRESS", label: "Source AS", isAs: true }} total={4000} compared={false} />,
    );
    expect(links(html)).toEqual([]);
    expect(html).not.toContain("Raw flows");
  });
});

const LG_ROW: LookingGlassRow = {
  VantagePoint: "fra-er1 Frankfurt, Germany",
  Prefix: "10.1.2.0/24",
  RouteDistinguisher: "",
  "BGP as_path": "3356 64511",
  "BGP local_pref": 150,
  "BGP med": 0,
  "BGP next_hop": "198.51.100.1",
  RibView: "post-policy",
  LastUpdate: "2026-09-21T13:33:20Z",
  asNames: {},
  RPKI: "valid",
};

describe("the Looking Glass's server-rendered table", () => {
  const table = (rna: { rawFlowsEmpty: boolean } | null) =>
    wrap(
      <PlainResultsTable
        rows={[LG_ROW]}
        variant="private"
        timezone="UTC"
        state={DEFAULT_PLAIN_TABLE_STATE}
        path="/lookingglass"
        query={new URLSearchParams("queryType=IP_PREFIX_QUERY&queryTerm=203.0.113.0%2F24")}
        rna={rna ? { ...rna, routerOf: () => "fra-er1" } : null}
      />,
    );

  it("offers each filter kind and all of them as plain new-tab links", () => {
    const html = table({ rawFlowsEmpty: false });
    const anchors = [...html.matchAll(/<a [^>]*href="(\/rna[^"]*)"[^>]*>/g)];
    expect(anchors.map((m) => m[1].replaceAll("&amp;", "&"))).toEqual([
      "/rna?filter=EXPORTER%3Afra-er1",
      "/rna?filter=DST_PREFIX%3A10.1.2.0%2F24",
      "/rna?filter=AS_DST%3A64511",
      "/rna?filter=NEXT_HOP%3A198.51.100.1",
      "/rna?filter=EXPORTER%3Afra-er1&filter=DST_PREFIX%3A10.1.2.0%2F24&filter=AS_DST%3A64511&filter=NEXT_HOP%3A198.51.100.1",
    ]);
    for (const [anchor] of anchors) {
      expect(anchor).toContain('target="_blank"');
      expect(anchor).toContain('rel="noopener"');
    }
  });

  it("says why there is no link while the flow records are empty, and shows nothing without the permission", () => {
    const empty = table({ rawFlowsEmpty: true });
    expect(empty).not.toContain('href="/rna');
    expect(empty).toContain(`title="${MESSAGES.emptyDatabase}"`);
    const none = table(null);
    expect(none).not.toContain("Show in RNA");
  });
});
