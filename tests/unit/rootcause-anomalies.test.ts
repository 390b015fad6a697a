/**
 * The anomaly detector (app/features/flows/rootcause/anomalies.ts) on fixed hourly series: deviations
 * from the seasonal band at each threshold, consecutive buckets merged, ranking, the cap and the order.
 */
import { describe, expect, it } from "vitest";
import {
  ANOMALY_LIMIT,
  ANOMALY_MIN_CHANGE,
  ANOMALY_MIN_NETWORK_SHARE,
  bucketDeviation,
  detectAnomalies,
  type DetectorInput,
  type ObjectSeries,
} from "~/features/flows/rootcause/anomalies";
import { seasonalBand, WEEK_SECONDS } from "~/lib/forecast-seasonal";

const H = 3600;
const WEEK_BUCKETS = WEEK_SECONDS / H;
/** 4 weeks of history, then a 7-day range. */
const GRID_START = 1_700_006_400 - (1_700_006_400 % WEEK_SECONDS);
const RANGE_START = GRID_START + 4 * WEEK_SECONDS;
const N = 5 * WEEK_BUCKETS;

/** A flat series with `level` everywhere, then `changes` (range bucket index → value). */
function series(level: number, changes: Record<number, number> = {}): number[] {
  const values = Array.from({ length: N }, () => level);
  for (const [k, v] of Object.entries(changes)) values[4 * WEEK_BUCKETS + Number(k)] = v;
  return values;
}
const obj = (value: string, values: number[], dimension: ObjectSeries["dimension"] = "ROUTER_IN"): ObjectSeries => ({
  dimension,
  value,
  values,
});
const input = (objects: ObjectSeries[], total = series(10_000)): DetectorInput => ({
  gridStart: GRID_START,
  step: H,
  rangeStart: RANGE_START,
  rangeEnd: RANGE_START + WEEK_SECONDS,
  total,
  objects,
});

describe("bucketDeviation", () => {
  const band = { value: 1000, low: 900, high: 1100 };
  it("inside the band: none", () => {
    expect(bucketDeviation(1100, band, 0)).toBeNull();
    expect(bucketDeviation(900, band, 0)).toBeNull();
  });
  it(`significant from ${ANOMALY_MIN_CHANGE * 100} % of the object's baseline`, () => {
    expect(bucketDeviation(1000 * (1 + ANOMALY_MIN_CHANGE), band, 0)).toMatchObject({
      sign: 1,
      deviation: 1000 * ANOMALY_MIN_CHANGE,
      significant: true,
    });
    expect(bucketDeviation(1000 * (1 + ANOMALY_MIN_CHANGE) - 1, band, 0)).toMatchObject({ sign: 1, significant: false });
    expect(bucketDeviation(1000 * (1 - ANOMALY_MIN_CHANGE), band, 0)).toMatchObject({ sign: -1, significant: true });
    expect(bucketDeviation(1000 * (1 - ANOMALY_MIN_CHANGE) + 1, band, 0)).toMatchObject({ sign: -1, significant: false });
  });
  it(`significant from ${ANOMALY_MIN_NETWORK_SHARE * 100} % of the network's baseline`, () => {
    const network = 500 / ANOMALY_MIN_NETWORK_SHARE;
    expect(bucketDeviation(1500, band, network)).toMatchObject({ deviation: 500, significant: true });
    expect(bucketDeviation(1499, band, network)).toMatchObject({ significant: false });
  });
  it("no data or no baseline: no deviation", () => {
    expect(bucketDeviation(null, band, 0)).toBeNull();
    expect(bucketDeviation(5000, null, 0)).toBeNull();
    expect(bucketDeviation(5000, band, null)).toBeNull();
  });
  it("a new object (baseline 0): any traffic above the network threshold", () => {
    expect(bucketDeviation(30, { value: 0, low: 0, high: 0 }, 10_000)).toMatchObject({ deviation: 30, significant: true });
    expect(bucketDeviation(19, { value: 0, low: 0, high: 0 }, 10_000)).toMatchObject({ significant: false });
  });
});

describe("detectAnomalies", () => {
  it("merges consecutive deviating buckets of one direction: start, duration, peak and its share", () => {
    // Baseline 1000 (a band of one value); the range's buckets 10–13 rise to 1500, 1800, 1600, 1300; bucket 14 is back.
    const [a, ...rest] = detectAnomalies(input([obj("r1", series(1000, { 10: 1500, 11: 1800, 12: 1600, 13: 1300 }))]));
    expect(rest).toEqual([]);
    expect(a).toMatchObject({
      dimension: "ROUTER_IN",
      value: "r1",
      start: RANGE_START + 10 * H,
      end: RANGE_START + 14 * H,
      direction: "rise",
      fromRangeStart: false,
      peakTime: RANGE_START + 11 * H,
      peakBps: 1800,
      peakBaselineBps: 1000,
      peakDeviationBps: 800,
      peakShare: 0.8,
      meanDeviationBps: (500 + 800 + 600 + 300) / 4,
    });
  });

  it("starts at a significant deviation and goes on while outside the band where its size dips under the thresholds", () => {
    // +10 %, +30 %, +10 %, +5 %, +40 %, +10 %: all above the band (1000), two buckets significant; +15 % alone is none.
    const found = detectAnomalies(
      input([obj("r1", series(1000, { 20: 1100, 21: 1300, 22: 1100, 23: 1050, 24: 1400, 25: 1100, 40: 1150 }))]),
    );
    expect(found.map((a) => [(a.start - RANGE_START) / H, (a.end - a.start) / H, a.peakDeviationBps])).toEqual([[21, 5, 400]]);
    expect(found[0].meanDeviationBps).toBeCloseTo((300 + 100 + 50 + 400 + 100) / 5, 9);
  });

  it("a change of direction starts a new anomaly; a gap in the data ends one", () => {
    const values = series(1000, { 0: 2000, 1: 100, 5: 2000, 7: 2000 });
    values[4 * WEEK_BUCKETS + 6] = null as unknown as number;
    const found = detectAnomalies(input([obj("r1", values)]));
    expect(found.map((a) => [(a.start - RANGE_START) / H, (a.end - a.start) / H, a.direction])).toEqual([
      [7, 1, "rise"],
      [5, 1, "rise"],
      [1, 1, "fall"],
      [0, 1, "rise"],
    ]);
    expect(found.at(-1)!.fromRangeStart).toBe(true);
  });

  it("the baseline is the seasonal band of the previous weeks (the analysis's model): a daily peak repeated every week is no anomaly", () => {
    // Every day at 20:00 the object triples; the history has it too, so the band holds it.
    const values = Array.from({ length: N }, (_, i) => (i % 24 === 20 ? 3000 : 1000));
    expect(detectAnomalies(input([obj("r1", values)]))).toEqual([]);
    // The same bucket, the previous weeks spread 900–1100 (band) around 1000: 1150 is outside the band but under the change threshold.
    const spread = series(1000);
    [900, 1100, 1000, 1000].forEach((v, w) => (spread[w * WEEK_BUCKETS + 3] = v));
    spread[4 * WEEK_BUCKETS + 3] = 1150;
    expect(detectAnomalies(input([obj("r1", spread)]))).toEqual([]);
    const band = seasonalBand({ start: GRID_START, step: H, values: spread.slice(0, 4 * WEEK_BUCKETS) }, [RANGE_START + 3 * H])!.points[0];
    // (the weekly levels' Theil–Sen trend moves each slot by a fraction of a bit/s)
    [900, 1000, 1100].forEach((v, i) => expect([band.low, band.value, band.high][i]).toBeCloseTo(v, 0));
  });

  it("objects too small for the network are left out", () => {
    // The share of a 10 000 bit/s network is 20 bit/s: a 100 % rise of an object of 5 bit/s is under it.
    expect(detectAnomalies(input([obj("tiny", series(5, { 3: 10 }))]))).toEqual([]);
  });

  it(`ranks by the peak deviation, keeps the ${ANOMALY_LIMIT} largest and lists them newest first`, () => {
    const objects = Array.from({ length: ANOMALY_LIMIT + 5 }, (_, k) => obj(`r${k}`, series(1000, { [k]: 2000 + k * 100 })));
    const found = detectAnomalies(input(objects, series(100_000)));
    expect(found).toHaveLength(ANOMALY_LIMIT);
    // The smallest five (r0–r4, the oldest) are cut.
    expect(found.map((a) => a.value)).toEqual(Array.from({ length: ANOMALY_LIMIT }, (_, k) => `r${ANOMALY_LIMIT + 4 - k}`));
    expect(detectAnomalies(input(objects, series(100_000)), 2).map((a) => a.value)).toEqual([
      `r${ANOMALY_LIMIT + 4}`,
      `r${ANOMALY_LIMIT + 3}`,
    ]);
  });

  it("less than a week of history: no baseline, no anomaly", () => {
    const short: DetectorInput = { ...input([obj("r1", series(1000, { 3: 5000 }))]), gridStart: RANGE_START - 24 * H };
    short.objects = [
      obj(
        "r1",
        Array.from({ length: 24 + WEEK_BUCKETS }, (_, i) => (i === 30 ? 5000 : 1000)),
      ),
    ];
    short.total = Array.from({ length: 24 + WEEK_BUCKETS }, () => 10_000);
    expect(detectAnomalies(short)).toEqual([]);
  });
});
