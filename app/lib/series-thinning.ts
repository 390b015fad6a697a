/**
 * Thinning a drawn series to the plot's pixel columns: a chart a few hundred pixels wide cannot
 * show more than a few points per column, yet every point sent costs HTML (the loader data and
 * the SVG path). Per column the point with the smallest and the one with the largest value are
 * kept, so the column's vertical extent is drawn as before and a spike of a single point stays
 * visible; the series' first and last point are kept so the line spans the same range. Points
 * without a value (null: a break in the line) are kept once per column, so a break stays a break.
 *
 * Only for what is drawn: tooltips, tables and exports keep every value.
 */

type ValueOf<T> = (point: T) => number | null;

export type ThinningOptions<T> = {
  /** The point's position on the x axis (time, usually). */
  x: (point: T) => number;
  /**
   * The point's value; null where the line breaks. Several accessors when one point carries the
   * values of several lines (in and out): a point is kept when any of them needs it.
   */
  y: ValueOf<T> | readonly ValueOf<T>[];
  /** The plot's width in pixels (the drawing area, without the axes' margins). */
  columns: number;
  /** The x axis' extent; the series' first and last x when absent. */
  domain?: { min: number; max: number };
};

/**
 * The points of `points` (sorted by x) a chart `columns` pixels wide needs: the same objects, in
 * the same order, at most 2 per column and value (3 with a break) plus the first and last point. A series
 * that already has no more than two points per column is returned as it is.
 */
export function thinToPixelColumns<T>(points: readonly T[], options: ThinningOptions<T>): T[] {
  const { x } = options;
  const accessors = typeof options.y === "function" ? [options.y] : options.y;
  const columns = Math.max(1, Math.floor(options.columns));
  if (points.length <= 2 * columns) return [...points];
  const min = options.domain?.min ?? x(points[0]);
  const max = options.domain?.max ?? x(points[points.length - 1]);
  const span = max - min;
  // A series at one instant is one column.
  const columnOf = (p: T) => (span > 0 ? Math.min(columns - 1, Math.max(0, Math.floor(((x(p) - min) / span) * columns))) : 0);

  const kept = new Set<number>([0, points.length - 1]);
  // Per value accessor: the indexes of the current column's lowest, highest and first null point.
  const ext = accessors.map(() => ({ low: -1, high: -1, gap: -1 }));
  let column = -1;
  const close = () => {
    for (const e of ext) for (const i of [e.low, e.high, e.gap]) if (i >= 0) kept.add(i);
  };
  points.forEach((p, i) => {
    const c = columnOf(p);
    if (c !== column) {
      close();
      column = c;
      for (const e of ext) e.low = e.high = e.gap = -1;
    }
    accessors.forEach((y, k) => {
      const e = ext[k];
      const v = y(p);
      if (v === null || Number.isNaN(v)) {
        if (e.gap < 0) e.gap = i;
      } else {
        if (e.low < 0 || v < y(points[e.low])!) e.low = i;
        if (e.high < 0 || v > y(points[e.high])!) e.high = i;
      }
    });
  });
  close();
  return [...kept].sort((a, b) => a - b).map((i) => points[i]);
}
