/** The observed traffic ratio's categories at each numeric edge (1.5:1 and 3:1 both ways, zeros), and when declared and observed disagree. */
import { describe, expect, it } from "vitest";
import { BALANCED_MAX, MOSTLY_MAX, observedRatio, ratiosDisagree } from "~/features/routing/peeringdb/ratio";

describe("observedRatio", () => {
  it.each([
    [100, 100, "Balanced"],
    [150, 100, "Balanced"],
    [150.0001, 100, "Mostly Outbound"],
    [300, 100, "Mostly Outbound"],
    [300.0001, 100, "Heavy Outbound"],
    [1, 0, "Heavy Outbound"],
    [100, 150, "Balanced"],
    [100, 150.0001, "Mostly Inbound"],
    [100, 300, "Mostly Inbound"],
    [100, 300.0001, "Heavy Inbound"],
    [0, 1, "Heavy Inbound"],
    [0, 0, "Not Disclosed"],
    // Bits per second of real links: the edges hold at any scale.
    [3e9, 1e9, "Mostly Outbound"],
    [1.5e10, 1e10, "Balanced"],
  ] as const)("outbound %d, inbound %d: %s", (outbound, inbound, category) => {
    expect(observedRatio(outbound, inbound)).toBe(category);
  });

  it("uses the documented edges", () => {
    expect([BALANCED_MAX, MOSTLY_MAX]).toEqual([1.5, 3]);
  });
});

describe("ratiosDisagree", () => {
  it("flags a different category, never one that is not disclosed", () => {
    expect(ratiosDisagree("Balanced", "Heavy Outbound")).toBe(true);
    expect(ratiosDisagree("Mostly Inbound", "Mostly Inbound")).toBe(false);
    expect(ratiosDisagree("Not Disclosed", "Heavy Inbound")).toBe(false);
    expect(ratiosDisagree("Heavy Inbound", "Not Disclosed")).toBe(false);
  });
});
