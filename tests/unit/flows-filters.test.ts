import { describe, expect, it } from "vitest";
import {
  addFilter,
  lockedDimensions,
  parseAsValue,
  parseFilterParams,
  parseIpVersion,
  removeFilter,
  serializeFilters,
} from "~/features/filter/filters";

describe("AS-number rule", () => {
  it.each([
    ["2906", "2906", false],
    ["AS2906", "2906", false],
    ["as2906", "2906", false],
    ["aS2906", "2906", false],
    ["!AS15169", "15169", true],
    ["!15169", "15169", true],
    ["-101", "-101", false],
    ["AS-999", "-999", false],
    ["4294967295", "4294967295", false],
  ])("accepts %s", (input, value, isNegation) => {
    expect(parseAsValue(input)).toEqual({ value, isNegation });
  });

  it.each(["", "AS", "12345678901", "AS 2906", "2906a", "!!2906", "AS!2906", "1.5", "ASN2906"])("rejects %j", (input) => {
    expect(parseAsValue(input)).toBeNull();
  });
});

describe("filter params", () => {
  it("parses dimensions and values, normalising AS numbers", () => {
    const r = parseFilterParams(new URLSearchParams("filter=AS_SRC_INGRESS:2906,!AS15169&filter=ROUTER_IN:fra-er1"));
    expect(r.errors).toEqual([]);
    expect(r.filters.map(({ dimension, value, isNegation }) => ({ dimension, value, isNegation }))).toEqual([
      { dimension: "AS_SRC_INGRESS", value: "2906", isNegation: false },
      { dimension: "AS_SRC_INGRESS", value: "15169", isNegation: true },
      { dimension: "ROUTER_IN", value: "fra-er1", isNegation: false },
    ]);
    expect(serializeFilters(r.filters)).toEqual(["AS_SRC_INGRESS:2906,!15169", "ROUTER_IN:fra-er1"]);
  });

  it("reports invalid AS values with the invalidInput message and unknown dimensions", () => {
    const r = parseFilterParams(["AS_DST_INGRESS:foo,12", "NOPE:1"]);
    expect(r.errors).toEqual(["foo is not a valid Destination AS (ingress) input"]);
    expect(r.filters.map((f) => f.value)).toEqual(["12"]);
    expect(r.rejected).toEqual([{ dimension: "NOPE", value: "1", reason: "UNKNOWN_DIMENSION" }]);
  });

  it("other dimensions accept any text", () => {
    const r = parseFilterParams(["AS_APPLICATION:Netflix Video,!Some thing"]);
    expect(r.errors).toEqual([]);
    expect(r.filters.map((f) => [f.value, f.isNegation])).toEqual([
      ["Netflix Video", false],
      ["Some thing", true],
    ]);
  });

  it("a negation replaces the earlier positive filter with the notice", () => {
    const r = parseFilterParams(["AS_SRC_INGRESS:AS15169,2906,!15169"]);
    expect(r.notices).toEqual(["The previously set filter AS15169 was removed since its negation was added."]);
    expect(r.filters.map((f) => `${f.isNegation ? "!" : ""}${f.value}`)).toEqual(["2906", "!15169"]);
  });

  it("same value in another dimension is not replaced; duplicates are ignored", () => {
    const r = parseFilterParams(["AS_SRC_INGRESS:1,1", "AS_DST_INGRESS:!1"]);
    expect(r.notices).toEqual([]);
    expect(r.filters).toHaveLength(2);
  });

  it("locked dimensions: forced filters, no additions, negations or removals", () => {
    const restrictions = [{ dimension: "AS_DST_INGRESS", constrained_values: [64501, "AS64502"], output: "x" }];
    const r = parseFilterParams(["AS_DST_INGRESS:!64501,3320", "ROUTER_IN:fra-er1"], restrictions);
    expect(r.filters.map((f) => [f.dimension, f.value, f.isNegation, !!f.locked])).toEqual([
      ["AS_DST_INGRESS", "64501", false, true],
      ["AS_DST_INGRESS", "64502", false, true],
      ["ROUTER_IN", "fra-er1", false, false],
    ]);
    expect(r.rejected.map((x) => [x.value, x.reason])).toEqual([
      ["64501", "LOCKED"],
      ["3320", "LOCKED"],
    ]);
    const locked = lockedDimensions(restrictions);
    const removed = removeFilter(r.filters, { dimension: "AS_DST_INGRESS", value: "64501", isNegation: false }, locked);
    expect(removed.rejected?.reason).toBe("LOCKED");
    expect(removed.filters).toHaveLength(3);
    expect(removeFilter(r.filters, { dimension: "ROUTER_IN", value: "fra-er1", isNegation: false }, locked).filters).toHaveLength(2);
    expect(addFilter(r.filters, { dimension: "AS_DST_INGRESS", value: "1", isNegation: false }, locked).rejected?.reason).toBe("LOCKED");
    expect(serializeFilters(r.filters)).toEqual(["ROUTER_IN:fra-er1"]);
  });
});

describe("IP version", () => {
  it("accepts all, 4 and 6", () => {
    expect(parseIpVersion("all")).toEqual({ ipVersion: "all" });
    expect(parseIpVersion(null)).toEqual({ ipVersion: "all" });
    expect(parseIpVersion("4")).toEqual({ ipVersion: 4 });
    expect(parseIpVersion("6")).toEqual({ ipVersion: 6 });
    expect(parseIpVersion("5")).toEqual({ ipVersion: "all", error: "5 is not a valid IP version input" });
  });
});
