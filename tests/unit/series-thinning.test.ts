/**
 * thinToPixelColumns (app/lib/series-thinning.ts): what a chart of a given width draws keeps each
 * pixel column's minimum and maximum, a one-point spike, the breaks and both ends; checked against
 * the columns recomputed here from the whole series.
 */
import { describe, expect, it } from "vitest";
import { thinToPixelColumns } from "~/lib/series-thinning";

type P = { t: number; v: number | null };
const opts = (columns: number) => ({ x: (p: P) => p.t, y: (p: P) => p.v, columns });
/** A deterministic wobble in [0, 1). */
const wobble = (i: number) => (((i * 7919) % 1000) + 0.5) / 1000;
const series = (n: number, value: (i: number) => number | null = wobble): P[] =>
  Array.from({ length: n }, (_, i) => ({ t: 1_700_000_000 + i * 300, v: value(i) }));

/** Per pixel column of [first t, last t], the min and max of the non-null values. */
function extents(points: readonly P[], columns: number, min: number, max: number) {
  const out = new Map<number, { lo: number; hi: number }>();
  for (const p of points) {
    if (p.v === null) continue;
    const c = Math.min(columns - 1, Math.floor(((p.t - min) / (max - min)) * columns));
    const e = out.get(c);
    out.set(c, e ? { lo: Math.min(e.lo, p.v), hi: Math.max(e.hi, p.v) } : { lo: p.v, hi: p.v });
  }
  return out;
}

describe("thinToPixelColumns", () => {
  it("leaves a series of no more than two points per column as it is", () => {
    const s = series(1600);
    const out = thinToPixelColumns(s, opts(800));
    expect(out).toEqual(s);
    expect(out).not.toBe(s);
  });

  it("keeps each column's minimum and maximum, at most two points a column and both ends", () => {
    const s = series(8640); // 30 days of 5-minute samples
    const columns = 830;
    const out = thinToPixelColumns(s, opts(columns));
    expect(out.length).toBeLessThanOrEqual(2 * columns + 2);
    expect(out.length).toBeGreaterThan(columns);
    expect(out[0]).toBe(s[0]);
    expect(out[out.length - 1]).toBe(s[s.length - 1]);
    // The same objects, in time order.
    const all = new Set(s);
    expect(out.every((p) => all.has(p))).toBe(true);
    expect(out.map((p) => p.t)).toEqual([...out.map((p) => p.t)].sort((a, b) => a - b));
    const [min, max] = [s[0].t, s[s.length - 1].t];
    expect(extents(out, columns, min, max)).toEqual(extents(s, columns, min, max));
  });

  it("a spike of one point stays in the drawn series", () => {
    const s = series(10_000, (i) => (i === 4321 ? 50 : 1 + wobble(i)));
    const out = thinToPixelColumns(s, opts(300));
    expect(out).toContain(s[4321]);
    expect(Math.max(...out.map((p) => p.v ?? 0))).toBe(50);
    // A dip too.
    const dip = series(10_000, (i) => (i === 777 ? -3 : 1 + wobble(i)));
    expect(thinToPixelColumns(dip, opts(300))).toContain(dip[777]);
  });

  it("keeps a break (a null value) once in its column", () => {
    const s = series(6000, (i) => (i >= 3000 && i < 3040 ? null : wobble(i)));
    const out = thinToPixelColumns(s, opts(200));
    const breaks = out.filter((p) => p.v === null);
    expect(breaks.length).toBeGreaterThanOrEqual(1);
    expect(breaks.length).toBeLessThanOrEqual(3);
    expect(breaks[0]).toBe(s[3000]);
  });

  it("uses the axis' domain when given (points outside it fall in the edge columns)", () => {
    const s = series(4000);
    const out = thinToPixelColumns(s, { ...opts(100), domain: { min: s[1000].t, max: s[1999].t } });
    // Everything before the domain is one column, everything after another.
    expect(out.length).toBeLessThanOrEqual(2 * 100 + 2);
    expect(extents(out, 100, s[1000].t, s[1999].t).get(50)).toEqual(extents(s, 100, s[1000].t, s[1999].t).get(50));
  });

  it("with two values a point, keeps what either line needs", () => {
    type Q = { t: number; a: number | null; b: number | null };
    const s: Q[] = Array.from({ length: 9000 }, (_, i) => ({
      t: i * 300,
      a: i === 100 ? 9 : wobble(i),
      b: i === 5000 ? -9 : wobble(i + 3),
    }));
    const columns = 400;
    const out = thinToPixelColumns(s, { x: (p) => p.t, y: [(p) => p.a, (p) => p.b], columns });
    expect(out).toContain(s[100]);
    expect(out).toContain(s[5000]);
    expect(out.length).toBeLessThanOrEqual(4 * columns + 2);
    const as = (q: Q[], key: "a" | "b") => q.map((p) => ({ t: p.t, v: p[key] }));
    const [min, max] = [s[0].t, s[s.length - 1].t];
    for (const key of ["a", "b"] as const) expect(extents(as(out, key), columns, min, max)).toEqual(extents(as(s, key), columns, min, max));
  });

  it("a series at one instant keeps its ends, its minimum and its maximum", () => {
    const s = Array.from({ length: 50 }, (_, i) => ({ t: 5, v: i === 20 ? 99 : i === 30 ? -1 : i }));
    expect(thinToPixelColumns(s, opts(10))).toEqual([s[0], s[20], s[30], s[49]]);
  });
});
