import { describe, expect, it } from "vitest";
import { matchesNumericFilter, parseNumericFilter } from "~/lib/numeric-filter";

describe("parseNumericFilter", () => {
  it("reads > and < with numbers, SI prefixes and units", () => {
    expect(parseNumericFilter(">10M")).toEqual({ op: ">", value: 10e6 });
    expect(parseNumericFilter("<5 %")).toEqual({ op: "<", value: 5 });
    expect(parseNumericFilter("> 1.5G")).toEqual({ op: ">", value: 1.5e9 });
    expect(parseNumericFilter(">2.5 Gbit/s")).toEqual({ op: ">", value: 2.5e9 });
    expect(parseNumericFilter("<100k")).toEqual({ op: "<", value: 100e3 });
    expect(parseNumericFilter("<-20%")).toEqual({ op: "<", value: -20 });
    expect(parseNumericFilter(">10m")).toEqual({ op: ">", value: 10e6 });
    expect(parseNumericFilter(">.5T")).toEqual({ op: ">", value: 0.5e12 });
    expect(parseNumericFilter("  >  7  ")).toEqual({ op: ">", value: 7 });
  });

  it("accepts only > and < (spec: numeric column filters accept only > and <)", () => {
    for (const bad of ["=5", ">=5", "10M", "5", "<", ">abc", ">5X", "> 1.2.3", "≥5", ">5 MB"])
      expect(parseNumericFilter(bad)).toBe("invalid");
  });

  it("an empty text is no filter", () => {
    expect(parseNumericFilter("")).toBeNull();
    expect(parseNumericFilter("   ")).toBeNull();
  });
});

describe("matchesNumericFilter", () => {
  it("compares strictly", () => {
    expect(matchesNumericFilter(11e6, ">10M")).toBe(true);
    expect(matchesNumericFilter(10e6, ">10M")).toBe(false);
    expect(matchesNumericFilter(9e6, ">10M")).toBe(false);
    expect(matchesNumericFilter(4.9, "<5 %")).toBe(true);
    expect(matchesNumericFilter(5, "<5 %")).toBe(false);
  });

  it("an empty or unreadable filter keeps every row; a non-numeric cell never passes a filter", () => {
    expect(matchesNumericFilter(1, "")).toBe(true);
    expect(matchesNumericFilter(1, "=1")).toBe(true);
    expect(matchesNumericFilter(1, undefined)).toBe(true);
    expect(matchesNumericFilter("n/a", ">1")).toBe(false);
  });
});
