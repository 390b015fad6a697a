/**
 * The week's anomalies (GET api/rootcause/anomalies/), the pure part: per tracked object (a source
 * AS, a handover AS, an ingress router, an external interface) and hourly bucket of the range, the
 * deviation of its traffic from the seasonal band — seasonalBand of app/lib/forecast-seasonal.ts,
 * the model of the analysis's baseline — merged into anomalies, ranked by size and capped. No I/O.
 *
 * A bucket deviates significantly when its traffic is outside the band (below the lowest or above the
 * highest of the previous weeks' trend-adjusted slots) and its distance from the baseline (the median)
 * is at least ANOMALY_MIN_CHANGE of that baseline and at least ANOMALY_MIN_NETWORK_SHARE of the
 * network's ingress baseline in the same bucket (an object with significant traffic). An anomaly
 * starts at a significant deviation and goes on while the traffic stays outside the band in the same
 * direction: a shift is one anomaly even where its size dips under the thresholds (a daily low).
 * Inside the band, a change of direction, or a bucket without a baseline or data ends it.
 */
import { seasonalBand } from "~/lib/forecast-seasonal";
import type { ObjectDimension } from "./link";

/** The detector's bucket: an hour (the analysis's step for periods beyond a day). */
export const ANOMALY_STEP_SECONDS = 3600;
/** A deviation counts from this fraction of the object's own baseline … */
export const ANOMALY_MIN_CHANGE = 0.2;
/** … and from this fraction of the network's ingress baseline in that bucket. */
export const ANOMALY_MIN_NETWORK_SHARE = 0.002;
/** The list holds at most this many anomalies: the largest peak deviations. */
export const ANOMALY_LIMIT = 20;

/** One object's traffic on the grid (bit/s per bucket; null: no data). */
export type ObjectSeries = { dimension: ObjectDimension; value: string; values: readonly (number | null)[] };

export type DetectorInput = {
  /** The grid: values[i] is the bucket starting at gridStart + i × step; the range is [rangeStart, rangeEnd) on it. */
  gridStart: number;
  step: number;
  rangeStart: number;
  rangeEnd: number;
  /** The network's ingress traffic (all objects of one dimension together). */
  total: readonly (number | null)[];
  objects: readonly ObjectSeries[];
};

export type DetectedAnomaly = {
  dimension: ObjectDimension;
  value: string;
  /** First and end (exclusive) bucket of the anomaly. */
  start: number;
  end: number;
  direction: "rise" | "fall";
  /** The range's first bucket already deviates: the anomaly may have started before the range. */
  fromRangeStart: boolean;
  /** The bucket of the largest deviation, its traffic, baseline and deviation (signed bit/s). */
  peakTime: number;
  peakBps: number;
  peakBaselineBps: number;
  peakDeviationBps: number;
  /** peakDeviationBps / peakBaselineBps (null for a baseline of 0: a new object). */
  peakShare: number | null;
  /** Mean deviation over the anomaly's buckets (signed bit/s). */
  meanDeviationBps: number;
};

type Deviation = { sign: 1 | -1; actual: number; baseline: number; deviation: number; significant: boolean } | null;

/** The seasonal band of each bucket of the range, from the values before it; null per bucket without a baseline. */
function bandsOf(input: DetectorInput, values: readonly (number | null)[]): ({ value: number; low: number; high: number } | null)[] | null {
  const { gridStart, step, rangeStart, rangeEnd } = input;
  const before = (rangeStart - gridStart) / step;
  const targets = Array.from({ length: (rangeEnd - rangeStart) / step }, (_, k) => rangeStart + k * step);
  const band = seasonalBand({ start: gridStart, step, values: values.slice(0, before) }, targets);
  if (!band) return null;
  return band.points.map((p) => (p.samples > 0 ? { value: p.value, low: p.low, high: p.high } : null));
}

/**
 * Whether the bucket's traffic is outside the band, by how much it differs from the baseline, and
 * whether that is significant (see the module's comment); null inside the band or without data.
 */
export function bucketDeviation(
  actual: number | null,
  band: { value: number; low: number; high: number } | null,
  networkBaseline: number | null,
): Deviation {
  if (actual === null || band === null || networkBaseline === null) return null;
  const deviation = actual - band.value;
  // Beyond rounding: a band of one value (identical weeks) moved by a trend of a rounding error is still that value.
  const eps = 1e-9 * Math.max(1, band.high);
  const outside = actual > band.high + eps || actual < band.low - eps;
  const size = Math.abs(deviation);
  if (!outside || size === 0) return null;
  // Compared rounded, as the classification's shares are: a deviation of exactly the threshold counts.
  const atLeast = (a: number, b: number) => Math.round((a - b) * 1e6) >= 0;
  const significant = atLeast(size, ANOMALY_MIN_CHANGE * band.value) && atLeast(size, ANOMALY_MIN_NETWORK_SHARE * networkBaseline);
  return { sign: deviation > 0 ? 1 : -1, actual, baseline: band.value, deviation, significant };
}

/**
 * One object's anomalies in the range, oldest first: each from a significant deviation on, while the
 * traffic stays outside the band in that direction (it ends inside the band, at a change of direction,
 * or at a bucket without data or baseline).
 */
export function objectAnomalies(
  input: DetectorInput,
  object: ObjectSeries,
  networkBands: readonly ({ value: number } | null)[],
): DetectedAnomaly[] {
  const bands = bandsOf(input, object.values);
  if (!bands) return [];
  const { gridStart, step, rangeStart } = input;
  const offset = (rangeStart - gridStart) / step;
  const out: DetectedAnomaly[] = [];
  let run: { first: number; sign: 1 | -1; devs: NonNullable<Deviation>[]; peak: number; significant: boolean } | null = null;
  const close = (endIndex: number) => {
    if (run?.significant) {
      const peak = run.devs[run.peak];
      out.push({
        dimension: object.dimension,
        value: object.value,
        start: rangeStart + run.first * step,
        end: rangeStart + endIndex * step,
        direction: run.sign > 0 ? "rise" : "fall",
        fromRangeStart: run.first === 0,
        peakTime: rangeStart + (run.first + run.peak) * step,
        peakBps: peak.actual,
        peakBaselineBps: peak.baseline,
        peakDeviationBps: peak.deviation,
        peakShare: peak.baseline > 0 ? peak.deviation / peak.baseline : null,
        meanDeviationBps: run.devs.reduce((a, d) => a + d.deviation, 0) / run.devs.length,
      });
    }
    run = null;
  };
  bands.forEach((band, k) => {
    const d = bucketDeviation(object.values[offset + k] ?? null, band, networkBands[k]?.value ?? null);
    if (run && (!d || d.sign !== run.sign)) close(k);
    if (!d) return;
    // An anomaly starts at a significant deviation, and goes on while the traffic stays outside the band that way.
    if (!run && !d.significant) return;
    if (!run) run = { first: k, sign: d.sign, devs: [], peak: 0, significant: false };
    run.devs.push(d);
    if (d.significant) run.significant = true;
    if (Math.abs(d.deviation) > Math.abs(run.devs[run.peak].deviation)) run.peak = run.devs.length - 1;
  });
  close(bands.length);
  return out;
}

/** The size an anomaly is ranked by: its peak deviation in bit/s (either direction). */
export const anomalySize = (a: DetectedAnomaly) => Math.abs(a.peakDeviationBps);

/**
 * Every tracked object's anomalies in the range: the ANOMALY_LIMIT largest (by anomalySize, then the
 * newer, then dimension and value), listed newest first (by start, then by size).
 */
export function detectAnomalies(input: DetectorInput, limit = ANOMALY_LIMIT): DetectedAnomaly[] {
  if (
    !Number.isInteger((input.rangeStart - input.gridStart) / input.step) ||
    !Number.isInteger((input.rangeEnd - input.rangeStart) / input.step)
  )
    throw new Error("The range must lie on the grid");
  const network = bandsOf(input, input.total);
  if (!network) return [];
  const all = input.objects.flatMap((o) => objectAnomalies(input, o, network));
  const tie = (a: DetectedAnomaly, b: DetectedAnomaly) =>
    a.dimension < b.dimension ? -1 : a.dimension > b.dimension ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  const largest = all.sort((a, b) => anomalySize(b) - anomalySize(a) || b.start - a.start || tie(a, b)).slice(0, limit);
  return largest.sort((a, b) => b.start - a.start || anomalySize(b) - anomalySize(a) || tie(a, b));
}
