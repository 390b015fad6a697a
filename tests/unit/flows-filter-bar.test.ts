import { describe, expect, it } from "vitest";
import {
  advancedFilterValues,
  dropValue,
  filterParams,
  filterRows,
  initialFilterState,
  pickValue,
} from "~/features/flows/ui/filter-bar-state";

const none: never[] = [];

describe("filter bar state from the URL", () => {
  it("reads the filter parameters, leaves out invalid values and unknown dimensions, and writes them back", () => {
    const state = initialFilterState(["AS_SRC_INGRESS:AS2906,!15169,banana", "NOPE:1", "ROUTER_IN:r1.fra"], none);
    expect(state.filters.map((f) => [f.dimension, f.value, f.isNegation])).toEqual([
      ["AS_SRC_INGRESS", "2906", false],
      ["AS_SRC_INGRESS", "15169", true],
      ["ROUTER_IN", "r1.fra", false],
    ]);
    expect(filterParams(state)).toEqual(["AS_SRC_INGRESS:2906,!15169", "ROUTER_IN:r1.fra"]);
  });

  it("puts the account's locked filters first, locks their dimension and keeps them out of the URL", () => {
    const applied = [
      { dimension: "AS_DST_INGRESS", value: "64501", isNegation: false, locked: true },
      { dimension: "AS_SRC_INGRESS", value: "2906", isNegation: false, locked: false },
    ];
    const state = initialFilterState(["AS_SRC_INGRESS:2906", "AS_DST_INGRESS:3320"], applied);
    expect(state.locked.has("AS_DST_INGRESS")).toBe(true);
    expect(state.filters.map((f) => [f.dimension, f.value, Boolean(f.locked)])).toEqual([
      ["AS_DST_INGRESS", "64501", true],
      ["AS_SRC_INGRESS", "2906", false],
    ]);
    expect(filterParams(state)).toEqual(["AS_SRC_INGRESS:2906"]);
    const rows = filterRows(state);
    expect(rows.map((r) => [r.dimension, r.locked, r.filters.length])).toEqual([
      ["AS_SRC_INGRESS", false, 1],
      ["AS_DST_INGRESS", true, 1],
    ]);
  });
});

describe("picking and removing values", () => {
  const base = initialFilterState(["AS_SRC_INGRESS:2906"], none);

  it("adds a picked value, normalising AS numbers", () => {
    const change = pickValue(base, "AS_SRC_INGRESS", "as3320");
    expect(change.error).toBeUndefined();
    expect(filterParams({ ...base, filters: change.filters })).toEqual(["AS_SRC_INGRESS:2906,3320"]);
  });

  it("a negation replaces the positive filter with the spec's notice", () => {
    const change = pickValue(base, "AS_SRC_INGRESS", "!AS2906");
    expect(change.notice).toBe("The previously set filter 2906 was removed since its negation was added.");
    expect(filterParams({ ...base, filters: change.filters })).toEqual(["AS_SRC_INGRESS:!2906"]);
  });

  it("refuses an invalid AS number with the invalid-input text and keeps the filters", () => {
    const change = pickValue(base, "AS_DST_INGRESS", "AS12x");
    expect(change.error).toBe("AS12x is not a valid Destination AS (ingress) input");
    expect(change.filters).toBe(base.filters);
  });

  it("passes tag references through", () => {
    const change = pickValue(base, "AS_DST_INGRESS", "!#12");
    expect(filterParams({ ...base, filters: change.filters })).toEqual(["AS_SRC_INGRESS:2906", "AS_DST_INGRESS:!#12"]);
  });

  it("does not add to, nor remove from, a locked dimension", () => {
    const locked = initialFilterState([], [{ dimension: "AS_DST_INGRESS", value: "64501", isNegation: false, locked: true }]);
    expect(pickValue(locked, "AS_DST_INGRESS", "3320").error).toBe("Filters cannot be added to a locked dimension.");
    const removed = dropValue(locked, { dimension: "AS_DST_INGRESS", value: "64501", isNegation: false });
    expect(removed.error).toBe("The filters of a locked dimension cannot be removed.");
    expect(removed.filters).toHaveLength(1);
  });

  it("removes a chip", () => {
    const change = dropValue(base, { dimension: "AS_SRC_INGRESS", value: "2906", isNegation: false });
    expect(change.filters).toEqual([]);
    expect(filterParams({ ...base, filters: change.filters })).toEqual([]);
  });
});

describe("advanced query filter values", () => {
  it("negates every value when asked, whatever was typed", () => {
    expect(advancedFilterValues("AS_SRC_INGRESS", ["2906", "!AS3320", " "], true)).toEqual({ texts: ["!2906", "!AS3320"] });
    expect(advancedFilterValues("ROUTER_IN", ["r1.fra"], false)).toEqual({ texts: ["r1.fra"] });
  });

  it("names the first invalid AS number as typed", () => {
    expect(advancedFilterValues("AS_SRC_INGRESS", ["2906", "!banana"], false)).toEqual({
      error: "banana is not a valid Source AS (ingress) input",
    });
    expect(advancedFilterValues("AS_SRC_INGRESS", ["12345678901"], false)).toEqual({
      error: "12345678901 is not a valid Source AS (ingress) input",
    });
  });

  it("needs a known dimension and a value", () => {
    expect(advancedFilterValues("NOPE", ["1"], false)).toEqual({ error: "Choose a dimension." });
    expect(advancedFilterValues("AS_SRC_INGRESS", [], false)).toEqual({ error: "Add at least one value." });
  });
});
