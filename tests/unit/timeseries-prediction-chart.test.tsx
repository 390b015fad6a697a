/**
 * The timeseries chart with a prediction, rendered on the server as the no-JavaScript page and the
 * image exports get it: one dashed line per predicted series, stacked like the areas, after the
 * last measured bucket, and a "Prediction" legend entry.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TimeseriesChart } from "~/features/flows/ui/charts";

const timeseries = {
  buckets: [0, 3600, 7200],
  series: [
    { key: "1", name: "Alpha", values: [100, 200, 300] },
    { key: "2", name: "Beta", values: [50, 50, 50] },
    { key: "-101", name: "Others", values: [10, 10, 10] },
  ],
  prediction: {
    model: "seasonal" as const,
    buckets: [10_800, 14_400, 18_000],
    series: [
      { key: "1", name: "Alpha", values: [400, 500, 600] },
      { key: "2", name: "Beta", values: [60, 70, 80] },
    ],
  },
};

function render(data: Parameters<typeof TimeseriesChart>[0]["timeseries"]): string {
  return renderToStaticMarkup(createElement(TimeseriesChart, { timeseries: data, timezone: "UTC", window: 3600 }));
}

/** The polyline points of the prediction lines, as [x, y] pairs. */
function lines(markup: string): [number, number][][] {
  return [...markup.matchAll(/<polyline data-testid="prediction-line" points="([^"]+)"[^>]*stroke-dasharray="6 4"/g)].map((m) =>
    m[1].split(" ").map((p) => p.split(",").map(Number) as [number, number]),
  );
}

describe("the timeseries chart's prediction", () => {
  it("draws each predicted series dashed, stacked, from the last bucket on, with a Prediction legend entry", () => {
    const markup = render(timeseries);
    const drawn = lines(markup);
    expect(drawn.length).toBe(2);
    expect(markup).toContain('data-testid="prediction-legend"');
    expect(markup).toMatch(/>Prediction<\/text>/);
    // x: the last measured bucket, then the predicted ones, evenly spaced and increasing.
    for (const line of drawn) {
      expect(line.length).toBe(4);
      const steps = line.slice(1).map((p, i) => p[0] - line[i][0]);
      for (const step of steps) expect(step).toBeCloseTo(steps[0], 0);
      expect(steps[0]).toBeGreaterThan(0);
    }
    // y: the scale is linear from 0 (SVG y grows downwards), so heights above the axis are
    // proportional to the stacked values: Alpha alone, then Alpha + Beta.
    // y = base − k·value, solved from the two lines' first points (stacked tops 300 and 350).
    const [alpha, beta] = drawn;
    const k = (alpha[0][1] - beta[0][1]) / (350 - 300);
    const base = alpha[0][1] + k * 300;
    const expectedAlpha = [300, 400, 500, 600];
    const expectedStack = [350, 460, 570, 680];
    alpha.forEach((p, i) => expect((base - p[1]) / k).toBeCloseTo(expectedAlpha[i], 0));
    beta.forEach((p, i) => expect((base - p[1]) / k).toBeCloseTo(expectedStack[i], 0));
    // The accessible description says the prediction.
    expect(markup).toMatch(/aria-label="[^"]*Prediction \(dashed\) of the next period[^"]*Alpha \(average 500 bit\/s\)/);
  });

  it("without a prediction there is no dashed series nor legend entry", () => {
    const markup = render({ ...timeseries, prediction: null });
    expect(lines(markup)).toEqual([]);
    expect(markup).not.toContain("prediction-legend");
  });
});
