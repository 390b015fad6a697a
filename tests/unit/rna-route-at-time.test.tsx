// The route that carried a flow: which route of a prefix is taken, the Control Plane address of that moment, and the detail's markup.
import { MantineProvider } from "@mantine/core";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import {
  carryingRoute,
  controlPlaneAtTimeHref,
  CONTROL_PLANE_WINDOW_SECONDS,
  type RouteAtTimeResult,
  type RouteAtTimeRoute,
} from "~/features/rna/route-at-time";
import { RouteAtTime } from "~/features/rna/ui/RouteAtTime";

const route = (over: Partial<RouteAtTimeRoute>): RouteAtTimeRoute => ({
  prefix: "10.0.0.0/8",
  announcedAt: 1_800_000_000,
  ribView: "post-policy",
  pathId: 0,
  peerIp: "198.51.100.1",
  peerAs: { asn: 64500, name: "Transit-A" },
  nextHop: "198.51.100.1",
  asPath: [
    { asn: 64500, name: "Transit-A" },
    { asn: 64510, name: null },
  ],
  asPathSet: [],
  origin: "IGP",
  localPref: 100,
  med: 0,
  communities: [{ community: "65535:65281", label: "NO_EXPORT" }],
  rpki: "valid",
  ...over,
});
const same = (a: string, b: string) => a === b;

describe("carryingRoute", () => {
  it("follows the decision steps in order: local preference, path length (a set counts one), origin, MED, peer", () => {
    const pick = (...routes: RouteAtTimeRoute[]) => carryingRoute(routes, null, same)!.route.peerIp;
    expect(pick(route({ peerIp: "a", localPref: 100 }), route({ peerIp: "b", localPref: 150 }))).toBe("b");
    const short = route({ peerIp: "s", asPath: [{ asn: 1, name: null }], asPathSet: [7, 8] });
    expect(pick(route({ peerIp: "l", asPath: [1, 2, 3].map((asn) => ({ asn, name: null })) }), short)).toBe("s");
    expect(pick(route({ peerIp: "i", asPath: [1, 2].map((asn) => ({ asn, name: null })) }), short)).toBe("i");
    expect(pick(route({ peerIp: "x", origin: "INCOMPLETE" }), route({ peerIp: "y", origin: "EGP" }))).toBe("y");
    expect(pick(route({ peerIp: "x", med: 20 }), route({ peerIp: "y", med: 10 }))).toBe("y");
    expect(pick(route({ peerIp: "y" }), route({ peerIp: "x" }))).toBe("x");
  });

  it("the flow's next hop, then the Loc-RIB, before the best path; the others are listed best first", () => {
    const best = route({ peerIp: "b", nextHop: "192.0.2.2", localPref: 300 });
    const loc = route({ peerIp: "", nextHop: "192.0.2.3", ribView: "loc-rib" });
    const low = route({ peerIp: "c", nextHop: "192.0.2.9", localPref: 50 });
    expect(carryingRoute([low, loc, best], "192.0.2.9", same)).toMatchObject({ route: low, because: "flow-next-hop", others: [best, loc] });
    expect(carryingRoute([low, loc, best], "192.0.2.77", same)).toMatchObject({ route: loc, because: "loc-rib" });
    expect(carryingRoute([low, best], null, same)).toMatchObject({ route: best, because: "best-path", others: [low] });
    expect(carryingRoute([low], "192.0.2.2", same)).toMatchObject({ route: low, because: "only-route" });
    expect(carryingRoute([], null, same)).toBeNull();
  });
});

describe("controlPlaneAtTimeHref", () => {
  it("an IP query for the destination from the announcement (or an hour before) to an hour after, unix seconds", () => {
    const at = 1_800_000_500;
    const href = new URL(controlPlaneAtTimeHref("2001:db8::1", at, 1_800_000_000), "http://x");
    expect(href.pathname).toBe("/controlplane");
    expect([...href.searchParams]).toEqual([
      ["queryType", "IpPrefixQuery"],
      ["queryTerm", "2001:db8::1"],
      ["start", "1800000000"],
      ["end", String(at + CONTROL_PLANE_WINDOW_SECONDS)],
    ]);
    expect(new URL(controlPlaneAtTimeHref("10.0.0.1", at, null), "http://x").searchParams.get("start")).toBe(
      String(at - CONTROL_PLANE_WINDOW_SECONDS),
    );
  });
});

const render = (result: RouteAtTimeResult) =>
  renderToString(
    <MantineProvider>
      <RouteAtTime result={result} timezone="UTC" />
    </MantineProvider>,
  );
const vantagePoint = { key: "vp-a", name: "ra-er1 Zurich, Switzerland", router: "ra-er1" };

describe("RouteAtTime", () => {
  it("shows the route with names, labels, RPKI, the other routes and the Control Plane link", () => {
    const html = render({
      kind: "route",
      at: 1_800_000_500,
      destination: "10.1.2.3",
      vantagePoint,
      routeDistinguisher: "",
      vrf: null,
      unmappedVrf: null,
      route: route({}),
      carriedBecause: "best-path",
      otherPaths: [route({ peerIp: "198.51.100.2", rpki: "invalid" })],
      controlPlaneHref: "/controlplane?queryType=IpPrefixQuery&queryTerm=10.1.2.3&start=1&end=2",
    });
    expect(html).toContain('data-kind="route"');
    expect(html).toContain("10.0.0.0/8");
    expect(html).toContain("Transit-A");
    expect(html).toContain("NO_EXPORT");
    expect(html).toContain('data-rpki="valid"');
    expect(html).toContain('data-rpki="invalid"');
    expect(html).toContain("1 other route");
    expect(html).toContain('href="/controlplane?queryType=IpPrefixQuery&amp;queryTerm=10.1.2.3&amp;start=1&amp;end=2"');
    expect(html).toContain("ra-er1 Zurich, Switzerland");
  });

  it("says when there is no route, and leaves the link out without one", () => {
    const html = render({
      kind: "no-route",
      at: 1,
      destination: "192.0.2.1",
      vantagePoint,
      routeDistinguisher: "",
      vrf: null,
      unmappedVrf: null,
      message: "No route covered 192.0.2.1 at ra-er1 Zurich, Switzerland at that time.",
      controlPlaneHref: null,
    });
    expect(html).toContain("No route covered 192.0.2.1");
    expect(html).not.toContain("/controlplane");
    expect(render({ kind: "not-available", at: 1, destination: "192.0.2.1", message: "Not for you." })).toContain("Not for you.");
  });

  it("names the VRF whose table was read, and says when the VRF has no table in the inventory", () => {
    const html = render({
      kind: "route",
      at: 1_800_000_500,
      destination: "10.1.2.3",
      vantagePoint,
      routeDistinguisher: "64999:1",
      vrf: "CUST_A",
      unmappedVrf: null,
      route: route({}),
      carriedBecause: "only-route",
      otherPaths: [],
      controlPlaneHref: null,
    });
    expect(html).toContain("ra-er1 Zurich, Switzerland, VRF CUST_A (route distinguisher 64999:1)");
    expect(html).not.toContain("route-unmapped-vrf");
    const unmapped = render({
      kind: "no-route",
      at: 1,
      destination: "10.1.2.3",
      vantagePoint,
      routeDistinguisher: "",
      vrf: null,
      unmappedVrf: "CUST_B",
      message: "No route covered 10.1.2.3 at ra-er1 Zurich, Switzerland at that time.",
      controlPlaneHref: null,
    });
    expect(unmapped).toContain('data-testid="route-unmapped-vrf"');
    expect(unmapped).toContain("The flow is of VRF CUST_B, which the inventory does not give router ra-er1 with a route distinguisher");
  });
});
