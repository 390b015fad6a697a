/**
 * The planners' heatmap (ui/PlannerCharts.tsx, heatmap-colors.ts): its colours are d3's
 * sequential Oranges over 0–100 % (as the chart library drew them before), and the plain SVG draws
 * one cell a link and day, coloured by its value, with the value in the cell's title and the colour
 * scale under it.
 */
import { MantineProvider } from "@mantine/core";
import { interpolateOranges } from "d3-scale-chromatic";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { HEATMAP_EMPTY_COLOR, heatmapColor, orangesAt } from "~/features/planners/heatmap-colors";
import type { PlannerHeatmap } from "~/features/planners/types";
import { UtilisationHeatmap } from "~/features/planners/ui/PlannerCharts";

const hexOf = (rgb: string) =>
  `#${rgb
    .match(/\d+/g)!
    .map((v) => Number(v).toString(16).padStart(2, "0"))
    .join("")}`;

describe("heatmap colours", () => {
  it("are d3's interpolateOranges from 0 to 100 %, clamped, grey without samples", () => {
    for (let t = 0; t <= 1.0001; t += 0.01) expect(orangesAt(t)).toBe(hexOf(interpolateOranges(t)));
    expect(heatmapColor(0)).toBe(hexOf(interpolateOranges(0)));
    expect(heatmapColor(45)).toBe(hexOf(interpolateOranges(0.45)));
    expect(heatmapColor(130)).toBe(hexOf(interpolateOranges(1)));
    expect(heatmapColor(-5)).toBe(hexOf(interpolateOranges(0)));
    expect(heatmapColor(null)).toBe(HEATMAP_EMPTY_COLOR);
  });
});

describe("the heatmap's SVG", () => {
  const heatmap: PlannerHeatmap = {
    ok: true,
    days: ["2026-11-01", "2026-11-02", "2026-11-03"],
    rows: [
      { key: "r1|et-1", label: "r1 et-1 (AS64501)", values: [0.5, null, 0.004] },
      { key: "r2|et-2", label: "r2 et-2", values: [1.2, 0.25, 0] },
    ],
  };
  const markup = renderToStaticMarkup(
    createElement(MantineProvider, null, createElement(UtilisationHeatmap, { heatmap, timezone: "UTC" })),
  );
  const svg = /<svg[\s\S]*?<\/svg>/.exec(markup)![0];

  it("draws a cell a link and day, coloured by its value, the value in its title", () => {
    const cells = [
      ...svg.matchAll(/<rect x="[^"]*" y="[^"]*" width="[^"]*" height="[^"]*" fill="([^"]*)"><title>([^<]*)<\/title><\/rect>/g),
    ];
    expect(cells.map((c) => [c[1], c[2]])).toEqual([
      [heatmapColor(50), "01.11: 50.0 %"],
      [HEATMAP_EMPTY_COLOR, "02.11: –"],
      [heatmapColor(0.4), "03.11: &lt; 1 %"],
      [heatmapColor(120), "01.11: 120 %"],
      [heatmapColor(25), "02.11: 25.0 %"],
      [heatmapColor(0), "03.11: 0 %"],
    ]);
    expect(svg).toContain(">r1 et-1 (AS64501)</text>");
    expect(svg).toContain(">r2 et-2</text>");
    expect(svg).toContain(">02.11</text>");
  });

  it("draws its colour scale with its title and ticks", () => {
    expect(svg).toContain("Daily maximum utilisation (grey: no samples)");
    for (const t of [0, 25, 50, 75, 100]) expect(svg).toContain(`>${t} %</text>`);
    expect(svg).toContain(`stop-color="${heatmapColor(100)}"`);
  });

  it("says the refusal of a range too long", () => {
    const refused = renderToStaticMarkup(
      createElement(
        MantineProvider,
        null,
        createElement(UtilisationHeatmap, { heatmap: { ok: false, message: "Too long" }, timezone: "UTC" }),
      ),
    );
    expect(refused).toContain("Too long");
    expect(refused).not.toContain("<svg");
  });
});
