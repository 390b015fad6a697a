/**
 * The tag reference syntax (`#12`, `#g3`, negated `!#12`), the id of api/tag/values/, the filter
 * parser's acceptance of references in every dimension, and that the tag kinds of the schema are
 * the flow filter kinds.
 */
import { describe, expect, it } from "vitest";
import { TAG_DIMENSION_KINDS } from "~db/postgres/schema/tags";
import { DIMENSIONS, FILTER_KINDS } from "~/features/filter/dimensions";
import { parseFilterParams, parseFilterValue, restrictionFilters, serializeFilters } from "~/features/filter/filters";
import { effectiveMapping } from "~/features/tags/mappings.server";
import { isMappingLayer, mappingLayerName } from "~/features/tags/mapping-model";
import { formatTagReference, parseTagReference, parseValuesId } from "~/features/filter/tag-reference";

describe("tag references", () => {
  it("parses tags, groups and negations", () => {
    expect(parseTagReference("#12")).toEqual({ type: "TAG", id: 12, isNegation: false });
    expect(parseTagReference(" !#12 ")).toEqual({ type: "TAG", id: 12, isNegation: true });
    expect(parseTagReference("#g3")).toEqual({ type: "TAG_GROUP", id: 3, isNegation: false });
    expect(parseTagReference("!#G3")).toEqual({ type: "TAG_GROUP", id: 3, isNegation: true });
  });

  it("rejects everything else", () => {
    for (const bad of ["12", "#", "#0", "#g", "#x1", "#12a", "##12", "#1234567890", "AS#12", "#-1", "2906#"]) {
      expect(parseTagReference(bad), bad).toBeNull();
    }
  });

  it("formats back", () => {
    expect(formatTagReference({ type: "TAG", id: 12 })).toBe("#12");
    expect(formatTagReference({ type: "TAG_GROUP", id: 3, isNegation: true })).toBe("!#g3");
  });

  it("api/tag/values/ ids: a tag id or group:<id>", () => {
    expect(parseValuesId(12)).toEqual({ type: "TAG", id: 12 });
    expect(parseValuesId("12")).toEqual({ type: "TAG", id: 12 });
    expect(parseValuesId("group:3")).toEqual({ type: "TAG_GROUP", id: 3 });
    for (const bad of ["", "0", "g3", "group:", "group:x", "#12", "1.5", -4]) expect(parseValuesId(bad), String(bad)).toBeNull();
  });
});

describe("tags in flow filters", () => {
  it("every dimension accepts a reference, kept as a normalised value with its tag", () => {
    for (const d of DIMENSIONS) {
      const parsed = parseFilterValue(d.id, "!#G7");
      expect(parsed, d.id).toEqual({
        filter: { dimension: d.id, value: "#g7", isNegation: true, raw: "#g7", tag: { type: "TAG_GROUP", id: 7 } },
      });
    }
  });

  it("the URL form carries references and serialises them back", () => {
    const result = parseFilterParams(["AS_SRC_INGRESS:#4,!#g2,2906"]);
    expect(result.errors).toEqual([]);
    expect(result.filters.map((f) => [f.value, f.isNegation, f.tag?.type ?? null])).toEqual([
      ["#4", false, "TAG"],
      ["#g2", true, "TAG_GROUP"],
      ["2906", false, null],
    ]);
    expect(serializeFilters(result.filters)).toEqual(["AS_SRC_INGRESS:#4,!#g2,2906"]);
  });

  it("a restriction never takes a reference (it must list its values)", () => {
    expect(restrictionFilters([{ dimension: "AS_DST_INGRESS", constrained_values: ["#4"] }])).toEqual([]);
    expect(restrictionFilters([{ dimension: "AS_DST_INGRESS", constrained_values: ["#4", "3320"] }]).map((f) => f.value)).toEqual(["3320"]);
  });

  it("a # that is no reference keeps the old rules", () => {
    expect("error" in parseFilterValue("AS_SRC_INGRESS", "#abc")).toBe(true);
    expect(parseFilterValue("ROUTER_IN", "#abc")).toEqual({
      filter: { dimension: "ROUTER_IN", value: "#abc", isNegation: false, raw: "#abc" },
    });
  });

  it("the schema's tag kinds are the flow filter kinds", () => {
    expect([...TAG_DIMENSION_KINDS]).toEqual([...FILTER_KINDS]);
  });
});

describe("mapping layers", () => {
  it("names the four layers", () => {
    expect([0, 10, 20, 30].map(mappingLayerName)).toEqual(["base", "product", "site", "user"]);
    expect(isMappingLayer(15)).toBe(false);
  });

  it("per field, the highest layer that sets it wins", () => {
    expect(
      effectiveMapping([
        { layer: 0, name: "Base name", color: "#000000" },
        { layer: 30, name: null, color: "#ff0000" },
        { layer: 20, name: "Site name", color: null },
        { layer: 10, name: "", color: "#00ff00" },
      ]),
    ).toEqual({ name: "Site name", color: "#ff0000", nameLayer: 20, colorLayer: 30 });
    expect(effectiveMapping([])).toEqual({ name: null, color: null, nameLayer: null, colorLayer: null });
  });
});
