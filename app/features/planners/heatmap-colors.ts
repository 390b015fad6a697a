/**
 * The heatmap's colour scale: d3's sequential "Oranges" (the colours of its 9-class scheme joined
 * by a uniform cubic B-spline per RGB channel, as d3-scale-chromatic's interpolateOranges does),
 * from 0 % (no traffic) to 100 % of the capacity; above 100 % stays the darkest.
 */

/** d3-scale-chromatic's schemeOranges[9]. */
const ORANGES = ["fff5eb", "fee6ce", "fdd0a2", "fdae6b", "fd8d3c", "f16913", "d94801", "a63603", "7f2704"];
const CHANNELS = [0, 1, 2].map((c) => ORANGES.map((hex) => parseInt(hex.slice(c * 2, c * 2 + 2), 16)));

/** Colour of a cell without samples. */
export const HEATMAP_EMPTY_COLOR = "#f1f3f5";

/** The uniform cubic B-spline through `values` at t in [0, 1] (d3-interpolate's interpolateBasis). */
function basisAt(values: readonly number[], t: number): number {
  const n = values.length - 1;
  const i = t <= 0 ? 0 : t >= 1 ? n - 1 : Math.floor(t * n);
  const u = (Math.min(1, Math.max(0, t)) - i / n) * n;
  const v1 = values[i];
  const v2 = values[i + 1];
  const v0 = i > 0 ? values[i - 1] : 2 * v1 - v2;
  const v3 = i < n - 1 ? values[i + 2] : 2 * v2 - v1;
  const u2 = u * u;
  const u3 = u2 * u;
  return ((1 - 3 * u + 3 * u2 - u3) * v0 + (4 - 6 * u2 + 3 * u3) * v1 + (1 + 3 * u + 3 * u2 - 3 * u3) * v2 + u3 * v3) / 6;
}

const hex2 = (v: number) =>
  Math.max(0, Math.min(255, Math.round(v)))
    .toString(16)
    .padStart(2, "0");

/** The colour of a share t of the scale (0 = lightest, 1 = darkest; clamped) as #rrggbb. */
export function orangesAt(t: number): string {
  return `#${CHANNELS.map((values) => hex2(basisAt(values, t))).join("")}`;
}

/** The colour of a utilisation in percent on the 0–100 % scale; the empty colour for none. */
export function heatmapColor(percent: number | null): string {
  return percent === null ? HEATMAP_EMPTY_COLOR : orangesAt(percent / 100);
}
