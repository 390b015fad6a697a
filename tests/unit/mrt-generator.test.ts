/** The bench's generated dump is the fixtures' synthetic dump, byte for byte (only faster to write). */
import { describe, expect, it } from "vitest";
import { fastSyntheticRibSlice } from "../../bench/mrt-generator";
import { syntheticRibSlice } from "../fixtures/mrt";

describe("fastSyntheticRibSlice", () => {
  it("writes the bytes of syntheticRibSlice: the peer index table and the first records", () => {
    const options = { prefixes: 5_000, peers: 8 };
    expect(fastSyntheticRibSlice(options, 700).equals(syntheticRibSlice(options, 700))).toBe(true);
  });

  it("and any later slice, up to the last prefix", () => {
    const options = { prefixes: 5_000, peers: 3, from: 4_600 };
    const fast = fastSyntheticRibSlice(options, 1_000);
    expect(fast.length).toBeGreaterThan(10_000);
    expect(fast.equals(syntheticRibSlice(options, 1_000))).toBe(true);
  });
});
