import { describe, expect, it } from "vitest";
import { compactArea, compactPath, drawnBuckets } from "~/features/flows/ui/chart-paths";

/** The points of an SVG path of compactPath's form, back in absolute coordinates. */
function pointsOf(d: string): { x: number; y: number }[] {
  const [, start, steps = ""] = /^M([^l]+)(?:l(.*))?$/.exec(d)!;
  const [x0, y0] = start.split(",").map(Number);
  const points = [{ x: x0, y: y0 }];
  // Numbers separated by a comma, a space, or nothing before a minus sign.
  const numbers = (steps.match(/-?[\d.]+/g) ?? []).map(Number);
  for (let i = 0; i + 1 < numbers.length; i += 2) {
    const last = points[points.length - 1];
    points.push({ x: last.x + numbers[i], y: last.y + numbers[i + 1] });
  }
  return points;
}

describe("drawnBuckets", () => {
  it("keeps every bucket when each has a pixel column of its own", () => {
    const buckets = Array.from({ length: 720 }, (_, i) => i * 3600);
    expect(
      drawnBuckets(
        buckets,
        buckets.map(() => 1),
        720,
      ),
    ).toEqual(buckets.map((_, i) => i));
  });

  it("keeps per column the buckets of the lowest and highest total, so a one-bucket spike and a dip stay drawn", () => {
    const n = 8640;
    const buckets = Array.from({ length: n }, (_, i) => i * 300);
    const totals = buckets.map((_, i) => 100 + (i % 7));
    totals[4321] = 10_000; // the spike
    totals[777] = 0; // a dip
    const kept = drawnBuckets(buckets, totals, 720);
    expect(kept.length).toBeLessThanOrEqual(2 * 720 + 2);
    expect(kept.length).toBeGreaterThanOrEqual(720);
    expect(kept).toContain(4321);
    expect(kept).toContain(777);
    expect(kept[0]).toBe(0);
    expect(kept[kept.length - 1]).toBe(n - 1);
    // In time order, each once; per column the drawn extremes are the column's own.
    expect([...kept].sort((a, b) => a - b)).toEqual(kept);
    expect(new Set(kept).size).toBe(kept.length);
    const keptTotals = kept.map((i) => totals[i]);
    expect(Math.max(...keptTotals)).toBe(10_000);
    expect(Math.min(...keptTotals)).toBe(0);
    const column = (i: number) => Math.min(719, Math.floor((buckets[i] / buckets[n - 1]) * 720));
    for (let c = 0; c < 720; c += 37) {
      const members = buckets.map((_, i) => i).filter((i) => column(i) === c);
      const drawn = kept.filter((i) => column(i) === c).map((i) => totals[i]);
      const all = members.map((i) => totals[i]);
      expect(Math.max(...drawn)).toBe(Math.max(...all));
      expect(Math.min(...drawn)).toBe(Math.min(...all));
    }
  });
});

describe("compactPath and compactArea", () => {
  it("draw the same points at a tenth of a pixel", () => {
    const points = Array.from({ length: 500 }, (_, i) => ({ x: i * 1.0013, y: 150 + 100 * Math.sin(i / 9) }));
    const back = pointsOf(compactPath(points));
    expect(back).toHaveLength(points.length);
    back.forEach((p, i) => {
      expect(Math.abs(p.x - points[i].x)).toBeLessThanOrEqual(0.05 + 1e-9);
      expect(Math.abs(p.y - points[i].y)).toBeLessThanOrEqual(0.05 + 1e-9);
    });
  });

  it("closes an area along the baseline back to the first point", () => {
    expect(
      compactArea(
        [
          { x: 0, y: 10 },
          { x: 2.04, y: 5.55 },
        ],
        300,
      ),
    ).toBe("M0,10l2-4.4V300H0Z");
    expect(compactPath([{ x: 1, y: 1 }])).toBe("M1,1");
    expect(compactArea([], 300)).toBe("");
  });
});
