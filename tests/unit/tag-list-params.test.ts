import { describe, expect, it } from "vitest";
import { parseTagListParams, tagListUrl } from "~/features/tags/tag-list-params";
import { checkInventoryValues, normalizeTagValue, parseTagValues, TAG_KINDS, type InventoryNames } from "~/features/tags/tag-values";
import { TAG_DIMENSION_KINDS } from "~db/postgres/schema/tags";

describe("Tag list parameters", () => {
  it("reads kind and the open tag or group, and names what it could not apply", () => {
    expect(parseTagListParams(new URLSearchParams("kind=ROUTER&tag=12&saved=tag-created"))).toEqual({
      kind: "ROUTER",
      tag: 12,
      group: null,
      deleteTag: null,
      deleteGroup: null,
      saved: "tag-created",
      notApplied: [],
    });
    const bad = parseTagListParams(new URLSearchParams("kind=PREFIX&tag=-1&group=1e3"));
    expect(bad).toMatchObject({ kind: "AS_NUMBER", tag: null, group: null });
    expect(bad.notApplied).toEqual([
      '"PREFIX" is not a kind of tag: AS numbers are shown.',
      '"-1" is not a tag id.',
      '"1e3" is not a tag group id.',
    ]);
    expect(tagListUrl({ kind: "INTERFACE", group: 3, saved: "group-updated" })).toBe(
      "/manage-tags?kind=INTERFACE&group=3&saved=group-updated",
    );
  });
});

describe("tag values", () => {
  it("has the schema's kinds", () => {
    expect([...TAG_KINDS]).toEqual([...TAG_DIMENSION_KINDS]);
  });

  it("checks and normalises one value per kind", () => {
    expect(normalizeTagValue("AS_NUMBER", " as3320 ")).toEqual({ value: "3320" });
    expect(normalizeTagValue("AS_NUMBER", "-101")).toEqual({ value: "-101" });
    expect(normalizeTagValue("AS_NUMBER", "12345678901")).toEqual({ error: "12345678901 is not a valid AS number input" });
    expect(normalizeTagValue("AS_NUMBER", "!3320")).toHaveProperty("error");
    expect(normalizeTagValue("INTERFACE", "fra1-r1 | et-0/0/1")).toEqual({ value: "fra1-r1|et-0/0/1" });
    expect(normalizeTagValue("INTERNAL_LINK", "fra1-r1|")).toHaveProperty("error");
    expect(normalizeTagValue("INTERFACE", "a|b|c")).toHaveProperty("error");
    expect(normalizeTagValue("ROUTER", "fra1-r1")).toEqual({ value: "fra1-r1" });
    expect(normalizeTagValue("ROUTER", "#g3")).toHaveProperty("error");
    expect(normalizeTagValue("IANA_PROTOCOL", "017")).toEqual({ value: "17" });
    expect(normalizeTagValue("IANA_PROTOCOL", "300")).toHaveProperty("error");
    expect(normalizeTagValue("APPLICATION", "Video streaming")).toEqual({ value: "Video streaming" });
    expect(normalizeTagValue("VRF_NAME", "x".repeat(201))).toHaveProperty("error");
  });

  it("splits a pasted list at line breaks and commas, keeps the first of repeats and reports at most ten bad values", () => {
    expect(parseTagValues("AS_NUMBER", "AS3320, 1299\r\n3320\n\n,174")).toEqual({ values: ["3320", "1299", "174"], errors: [] });
    const garbage = parseTagValues("AS_NUMBER", Array.from({ length: 12 }, (_, i) => `x${i}`).join("\n"));
    expect(garbage.values).toEqual([]);
    expect(garbage.errors).toHaveLength(11);
    expect(garbage.errors[10]).toBe("… and 2 more values that are not valid.");
    const many = parseTagValues("AS_NUMBER", Array.from({ length: 5001 }, (_, i) => String(i + 1)).join(","));
    expect(many.errors).toEqual(["A tag holds at most 5000 values; this list has 5001."]);
  });

  it("checks routers and interfaces against the inventory's names: each unknown one named, known ones as the inventory spells them", () => {
    const names: InventoryNames = new Map([
      ["fra1-r1", { name: "fra1-r1", interfaces: new Map([["et-0/0/1", "et-0/0/1"]]) }],
      ["ber1-r1", { name: "BER1-R1", interfaces: new Map() }],
    ]);
    expect(checkInventoryValues("ROUTER", ["FRA1-R1", "ber1-r1", "fra1-r1"], names)).toEqual({
      values: ["fra1-r1", "BER1-R1"],
      errors: [],
    });
    expect(checkInventoryValues("ROUTER", ["x", "fra1-r1"], names)).toEqual({
      values: ["fra1-r1"],
      errors: ["x is not a router of the network inventory."],
    });
    expect(checkInventoryValues("INTERFACE", ["fra1-r1|ET-0/0/1", "ber1-r1|ae1", "x|y"], names)).toEqual({
      values: ["fra1-r1|et-0/0/1"],
      errors: ["ber1-r1|ae1: BER1-R1 has no interface ae1 in the network inventory.", "x|y: x is not a router of the network inventory."],
    });
    // Other kinds pass as they are, even names the inventory lacks.
    expect(checkInventoryValues("INTERNAL_LINK", ["x|y"], names)).toEqual({ values: ["x|y"], errors: [] });
    const unknown = checkInventoryValues(
      "ROUTER",
      Array.from({ length: 13 }, (_, i) => `r${i}`),
      names,
    );
    expect(unknown.errors).toHaveLength(11);
    expect(unknown.errors[10]).toBe("… and 3 more values that are not in the network inventory.");
  });
});
