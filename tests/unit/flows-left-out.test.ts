/**
 * The words and the link a view with a direction puts next to its total for the traffic it leaves
 * out (counted-traffic.ts): the parts that are there, the wording by the view's direction, the view
 * that shows all traffic and a link keeping everything of the URL but the dimension.
 */
import { describe, expect, it } from "vitest";
import { allTrafficHref, allTrafficView, leftOutText } from "~/features/flows/counted-traffic";
import { formatBitsPerSecond } from "~/lib/units";

describe("what a view leaves out", () => {
  it("says each part that is there, by where it entered, and nothing when nothing is left out", () => {
    expect(leftOutText({ bps: 62.4e9, fromNeighboursBps: 0, fromAccessBps: 62.4e9 }, "INGRESS", formatBitsPerSecond)).toBe(
      "62.4 Gbit/s entering from access interfaces",
    );
    expect(leftOutText({ bps: 431.2e9, fromNeighboursBps: 430e9, fromAccessBps: 1.2e9 }, "EGRESS", formatBitsPerSecond)).toBe(
      "431 Gbit/s: 430 Gbit/s entering from neighbours and 1.20 Gbit/s entering from access interfaces and staying inside the network",
    );
    expect(leftOutText({ bps: 0, fromNeighboursBps: 0, fromAccessBps: 0 }, "INGRESS", formatBitsPerSecond)).toBeNull();
  });

  it("links to the router view, else the protocol view, else any view without a direction, keeping the range and filters", () => {
    const offered = (ids: [string, "INGRESS" | "EGRESS" | null][]) =>
      ids.map(([value, direction]) => ({ value, direction }) as Parameters<typeof allTrafficView>[0][number]);
    expect(
      allTrafficView(
        offered([
          ["AS_SRC_INGRESS", "INGRESS"],
          ["IANA_PROTOCOL", null],
          ["ROUTER_IN", null],
        ]),
      ),
    ).toBe("ROUTER_IN");
    expect(
      allTrafficView(
        offered([
          ["AS_SRC_INGRESS", "INGRESS"],
          ["IANA_PROTOCOL", null],
        ]),
      ),
    ).toBe("IANA_PROTOCOL");
    expect(
      allTrafficView(
        offered([
          ["AS_SRC_INGRESS", "INGRESS"],
          ["VRF_NAME", null],
        ]),
      ),
    ).toBe("VRF_NAME");
    expect(allTrafficView(offered([["AS_SRC_INGRESS", "INGRESS"]]))).toBeNull();

    const search = new URLSearchParams(
      "dimension=AS_SRC_INGRESS&dateRange=LAST_7_DAYS&filter=ROUTER_IN:fra-er1&filter=AS_SRC_INGRESS:!15169",
    );
    search.append("view", "sankey");
    search.append("dimension2", "AS_DST_INGRESS");
    search.append("ipVersion", "6");
    const href = new URL(allTrafficHref(search, "ROUTER_IN"), "http://x");
    expect(href.pathname).toBe("/flow-explorer");
    expect([...href.searchParams]).toEqual([
      ["dimension", "ROUTER_IN"],
      ["dateRange", "LAST_7_DAYS"],
      ["filter", "ROUTER_IN:fra-er1"],
      ["filter", "AS_SRC_INGRESS:!15169"],
      ["ipVersion", "6"],
    ]);
    expect(allTrafficHref(new URLSearchParams("view=timeseries"), "IANA_PROTOCOL")).toBe(
      "/flow-explorer?view=timeseries&dimension=IANA_PROTOCOL",
    );
  });
});
