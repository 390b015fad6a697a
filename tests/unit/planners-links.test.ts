/**
 * What a delegated account sees of the external links (deny by default, AS numbers narrowed by
 * routers and interfaces), and the interfaces that feed each link (the far end of an internal link
 * swapped, an interface feeding one link only).
 */
import { describe, expect, it } from "vitest";
import { linkTitle } from "~/features/planners/cells";
import { delegatedSees, endsOf } from "~/features/planners/links.server";
import type { ExternalLink, InternalLink } from "~/features/planners/types";

const ext = (router: string, iface: string, neighbourAs: number | null): ExternalLink => ({
  kind: "external",
  key: `${router}|${iface}`,
  router,
  interface: iface,
  description: "",
  neighbourAs,
  asName: null,
  peering: "Transit",
  connection: null,
  capacityBps: 1e9,
});

describe("delegated visibility of external links", () => {
  const none = { ASNumberList: [], routerList: [], interfaceList: [] };
  it("an empty AS number list sees nothing, whatever the other lists say", () => {
    expect(delegatedSees(none, ext("r1", "et-1", 64501))).toBe(false);
    expect(delegatedSees({ ...none, routerList: ["r1"], interfaceList: ["r1|et-1"] }, ext("r1", "et-1", 64501))).toBe(false);
  });
  it("the AS numbers decide; an exchange port (no neighbour AS) is never seen", () => {
    const r = { ...none, ASNumberList: [64501] };
    expect(delegatedSees(r, ext("r1", "et-1", 64501))).toBe(true);
    expect(delegatedSees(r, ext("r1", "et-2", 64502))).toBe(false);
    expect(delegatedSees(r, ext("r1", "ix", null))).toBe(false);
  });
  it("non-empty router and interface lists narrow the AS numbers' links", () => {
    const r = { ASNumberList: [64501], routerList: ["r2"], interfaceList: [] };
    expect(delegatedSees(r, ext("r1", "et-1", 64501))).toBe(false);
    expect(delegatedSees(r, ext("r2", "et-1", 64501))).toBe(true);
    const i = { ASNumberList: [64501], routerList: [], interfaceList: ["r2|et-9"] };
    expect(delegatedSees(i, ext("r2", "et-1", 64501))).toBe(false);
    expect(delegatedSees(i, ext("r2", "et-9", 64501))).toBe(true);
  });
});

describe("link ends", () => {
  const core: InternalLink = {
    kind: "internal",
    key: "r1|c-1>r2|c-1",
    a: { router: "r1", interface: "c-1", description: "", capacityBps: 100e9 },
    b: { router: "r2", interface: "c-1", description: "", capacityBps: 40e9 },
    capacityBps: 40e9,
  };
  it("external: its interface; internal: a preferred, b swapped", () => {
    expect(endsOf([ext("r1", "et-1", 1), core])).toEqual([
      { link: "r1|et-1", router: "r1", interface: "et-1", swap: false, preference: 2 },
      { link: "r1|c-1>r2|c-1", router: "r1", interface: "c-1", swap: false, preference: 2 },
      { link: "r1|c-1>r2|c-1", router: "r2", interface: "c-1", swap: true, preference: 1 },
    ]);
    expect(linkTitle({ link: core })).toBe("r1 c-1 → r2 c-1");
  });
  it("an interface feeds one link only (a remote declared inconsistently)", () => {
    const other: InternalLink = { ...core, key: "r1|c-1>r3|c-1", b: { ...core.b, router: "r3" } };
    expect(endsOf([core, other]).map((e) => `${e.link} ${e.router}`)).toEqual(["r1|c-1>r2|c-1 r1", "r1|c-1>r2|c-1 r2", "r1|c-1>r3|c-1 r3"]);
  });
});
