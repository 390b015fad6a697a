// Colours derived from a site style reach WCAG 2.1 AA text contrast (4.5:1) for any style a moderator sets.
import { DEFAULT_THEME } from "@mantine/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { accessibleColorVariables, blend, colorRoles, DEFAULT_COLORS, LIGHT_SURFACES, shadesOf, WARNING_TEXT } from "~/lib/colors";

/** The WCAG 2.1 definition, written out here independently of the module under test. */
function wcagContrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, b2] = [1, 3, 5]
      .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4)));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b2;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const SURFACES = ["#ffffff", "#f8f9fa", "#f1f3f5"];
const hexColour = fc.integer({ min: 0, max: 0xffffff }).map((n) => "#" + n.toString(16).padStart(6, "0"));

function expectReadable(shades: readonly string[]) {
  const roles = colorRoles(shades);
  expect(wcagContrast(roles.filledText, roles.filled)).toBeGreaterThanOrEqual(4.5);
  for (const surface of SURFACES) {
    expect(wcagContrast(roles.text, surface)).toBeGreaterThanOrEqual(4.5);
    // The light variant paints shade 6 at 10 % (12 % on hover) over the surface.
    for (const opacity of [0.1, 0.12])
      expect(wcagContrast(roles.lightColor, blend(shades[6], opacity, surface))).toBeGreaterThanOrEqual(4.5);
  }
}

describe("accessible colour roles", () => {
  it("fixes the default style's failures: primary on its light background and the dimmed text", () => {
    // Mantine's defaults measured 3.97:1 (#137cbd on #e7f2f8) and 3.32:1 (gray.6 #868e96 on white).
    expect(wcagContrast("#137cbd", "#e7f2f8")).toBeLessThan(4.5);
    expect(wcagContrast("#868e96", "#ffffff")).toBeLessThan(4.5);
    const vars = accessibleColorVariables({ brand: shadesOf(DEFAULT_COLORS.primary) }, "brand", DEFAULT_COLORS.secondary);
    expect(wcagContrast(vars["--mantine-color-brand-light-color"], "#e7f2f8")).toBeGreaterThanOrEqual(4.5);
    expect(wcagContrast(vars["--mantine-color-dimmed"], "#ffffff")).toBeGreaterThanOrEqual(4.5);
    expect(wcagContrast(vars["--mantine-color-anchor"], "#ffffff")).toBeGreaterThanOrEqual(4.5);
  });

  it("keeps the style's colours where they already pass", () => {
    const roles = colorRoles(shadesOf(DEFAULT_COLORS.primary));
    // White on #137cbd is 4.52:1: the brand's buttons stay as they are.
    expect(roles.filled).toBe(DEFAULT_COLORS.primary);
    expect(roles.filledText).toBe("#ffffff");
    const vars = accessibleColorVariables({}, "brand", DEFAULT_COLORS.secondary);
    expect(vars["--mantine-color-dimmed"]).toBe(DEFAULT_COLORS.secondary);
  });

  it("derives readable shades for Mantine's own colours (yellow, green, red …)", () => {
    for (const shades of Object.values(DEFAULT_THEME.colors)) expectReadable(shades);
  });

  it("derives readable shades for any primary colour a moderator sets", () => {
    fc.assert(
      fc.property(hexColour, (hex) => expectReadable(shadesOf(hex))),
      { numRuns: 400 },
    );
  });

  it("derives a readable dimmed colour from any secondary colour", () => {
    fc.assert(
      fc.property(hexColour, (hex) => {
        const dimmed = accessibleColorVariables({}, "brand", hex)["--mantine-color-dimmed"];
        for (const surface of SURFACES) expect(wcagContrast(dimmed, surface)).toBeGreaterThanOrEqual(4.5);
      }),
      { numRuns: 400 },
    );
  });
});

describe("WARNING_TEXT", () => {
  it("reads on every light surface at AA for normal text", () => {
    for (const surface of LIGHT_SURFACES) expect(wcagContrast(WARNING_TEXT, surface)).toBeGreaterThanOrEqual(4.5);
  });
});
