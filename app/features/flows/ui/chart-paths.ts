/**
 * The drawn path of the timeseries chart, made small enough for a page: pure and isomorphic.
 *
 * - `drawnBuckets`: with more buckets than the plot has pixel columns, each column draws only its
 *   buckets of the lowest and the highest stacked total (in time order), so a one-bucket spike
 *   stays visible while the path holds at most two points per column (and the first and last bucket). The data itself is not
 *   thinned: tooltips, tables and exports keep every bucket.
 * - `compactPath`: a polyline as an SVG path at a tenth of a pixel (finer than a screen draws),
 *   relative steps after the first point: a third of the bytes of nivo's absolute coordinates.
 */

/** The indices of the buckets to draw: all of them when each has a column of its own. */
export function drawnBuckets(buckets: readonly number[], totals: readonly number[], columns: number): number[] {
  const all = buckets.map((_, i) => i);
  if (buckets.length <= columns || buckets.length < 2) return all;
  const first = buckets[0];
  const span = buckets[buckets.length - 1] - first;
  const kept: number[] = [];
  let column = -1;
  let low = -1;
  let high = -1;
  const flush = () => {
    if (low < 0) return;
    kept.push(...(low === high ? [low] : [Math.min(low, high), Math.max(low, high)]));
  };
  for (const i of all) {
    const c = span > 0 ? Math.min(columns - 1, Math.floor(((buckets[i] - first) / span) * columns)) : 0;
    if (c !== column) {
      flush();
      column = c;
      low = high = i;
      continue;
    }
    if (totals[i] < totals[low]) low = i;
    if (totals[i] > totals[high]) high = i;
  }
  flush();
  // The first and the last bucket always: the line starts and ends where the data do (the prediction goes on from the last).
  const ends = new Set([0, buckets.length - 1, ...kept]);
  return [...ends].sort((a, b) => a - b);
}

const tenth = (v: number) => Math.round(v * 10) / 10;
/** A rounded difference without float noise (0.30000000000000004 → 0.3). */
const step = (v: number) => String(Math.round(v * 10) / 10);

/** "M x,y l dx,dy dx,dy …": the points joined by straight segments. */
export function compactPath(points: readonly { x: number; y: number }[]): string {
  if (!points.length) return "";
  let x = tenth(points[0].x);
  let y = tenth(points[0].y);
  const start = `M${x},${y}`;
  const steps: string[] = [];
  for (const p of points.slice(1)) {
    const nx = tenth(p.x);
    const ny = tenth(p.y);
    const dy = step(ny - y);
    // A minus sign separates the two numbers by itself.
    steps.push(`${step(nx - x)}${dy.startsWith("-") ? "" : ","}${dy}`);
    x = nx;
    y = ny;
  }
  return start + (steps.length ? `l${steps.join(" ")}` : "");
}

/** The area under a polyline down to `baseline` (a y position): the line's path closed along the baseline. */
export function compactArea(points: readonly { x: number; y: number }[], baseline: number): string {
  if (!points.length) return "";
  return `${compactPath(points)}V${tenth(baseline)}H${tenth(points[0].x)}Z`;
}
