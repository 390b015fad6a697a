import { describe, expect, it } from "vitest";
import { formatBitsPerSecond, formatUtilisation } from "~/lib/units";

describe("formatBitsPerSecond", () => {
  it.each([
    [0, "0 bit/s"],
    [1, "1.00 bit/s"],
    [0.5, "0.500 bit/s"],
    [12.345, "12.3 bit/s"],
    [999, "999 bit/s"],
    [999.6, "1.00 kbit/s"],
    [1000, "1.00 kbit/s"],
    [1234, "1.23 kbit/s"],
    [12_345, "12.3 kbit/s"],
    [123_456, "123 kbit/s"],
    [999_999, "1.00 Mbit/s"],
    [1_500_000, "1.50 Mbit/s"],
    [2.5e9, "2.50 Gbit/s"],
    [987.6e12, "988 Tbit/s"],
    [1e15, "1.00 Pbit/s"],
    [1e18, "1.00 Ebit/s"],
    [1e21, "1000 Ebit/s"],
    [-2500, "-2.50 kbit/s"],
  ])("%s → %s", (input, expected) => {
    expect(formatBitsPerSecond(input)).toBe(expected);
  });

  it("non-finite values", () => {
    expect(formatBitsPerSecond(Number.NaN)).toBe("–");
    expect(formatBitsPerSecond(Number.POSITIVE_INFINITY)).toBe("–");
  });

  it("always 3 significant digits across magnitudes", () => {
    for (let e = 0; e < 18; e++) {
      const text = formatBitsPerSecond(1.23456 * 10 ** e);
      expect(text.split(" ")[0].replace(/[.-]/g, "").replace(/^0+/, "").length).toBe(3);
    }
  });
});

describe("formatUtilisation", () => {
  it.each([
    [0, "0 %"],
    [0.00001, "< 1 %"],
    [0.004, "< 1 %"],
    [0.0099, "< 1 %"],
    [0.01, "1.00 %"],
    [0.456, "45.6 %"],
    [1.2, "120 %"],
    [null, "–"],
  ])("%s reads %s (a little traffic never reads as none)", (fraction, text) => {
    expect(formatUtilisation(fraction)).toBe(text);
  });
});
