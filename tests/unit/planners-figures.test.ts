/**
 * The planners' figures on fixed series against values computed by hand (in the comments): peak
 * hour with a tie, an incomplete quarter, a day without a complete window and a non-UTC day; the
 * billing 95th for n = 20, 8640 and < 20; status; heatmap; and the bytes of a 64-bit counter wrap
 * produced by the SNMP accounting.
 */
import { describe, expect, it } from "vitest";
import { observe, type InterfaceAccountJson } from "~/features/collector/snmp/accounting";
import {
  billedOf,
  billingPercentile,
  dailyMaxOfDirections,
  dailyMaxSampleUtilisation,
  dailyPeakHours,
  daysOfRange,
  heatmapAllowed,
  linkStatus,
  MAX_HEATMAP_DAYS,
  maxDailyOf,
  p95OfSamples,
  quartersOf,
  sampleUtilisation,
  type Sample,
} from "~/features/planners/figures";

/** 2026-11-17 00:00 UTC. */
const D = 1_794_873_600;
const H = 3600;

/** Three 5-minute samples per quarter from 10:00 UTC, each quarter's samples all `perSample[i]` bytes in (out 0). */
function quarterSamples(start: number, perSample: number[], skip: number[] = []): Sample[] {
  const out: Sample[] = [];
  perSample.forEach((b, q) => {
    for (let k = 0; k < 3; k++) {
      const time = start + q * 900 + k * 300;
      if (!skip.includes(time)) out.push({ time, inBytes: b, outBytes: 0 });
    }
  });
  return out;
}

describe("utilisation of a sample", () => {
  it("bytes·8/300/capacity", () => {
    // 375 000 000 bytes in 5 minutes = 10 Mbit/s; of 40 Mbit/s: 0.25.
    expect(sampleUtilisation(375_000_000, 40e6)).toBe(0.25);
    expect(sampleUtilisation(1, null)).toBeNull();
    expect(sampleUtilisation(1, 0)).toBeNull();
  });
});

describe("peak hour", () => {
  // Per-sample bytes of the quarters 10:00 … 11:45: 10 20 30 40 50 40 30 20 (× 1125).
  // Quarter sums (×3): 30 60 90 120 150 120 90 60; windows of 4: 10:00 300, 10:15 420, 10:30 480,
  // 10:45 480, 11:00 420. Tie 10:30 / 10:45 → the earliest, 10:30. Bytes 480·1125 = 540 000 →
  // 540 000·8/3600 = 1200 bit/s; of 4800: 0.25.
  const shape = [10, 20, 30, 40, 50, 40, 30, 20].map((b) => b * 1125);
  const day = daysOfRange({ start: D, end: D + 86_400 }, "UTC");

  it("the window of 4 complete quarters with the most traffic; ties → the earliest", () => {
    const [peak] = dailyPeakHours(quartersOf(quarterSamples(D + 10 * H, shape)), day, 4800, "in");
    expect(peak).toEqual({ day: "2026-11-17", windowStart: D + 10 * H + 30 * 60, bps: 1200, utilisation: 0.25 });
  });

  it("a quarter missing one 5-minute sample does not count (gap): the best window avoiding it", () => {
    // Sample 10:50 missing: quarter 10:45 incomplete; windows touching it (10:00 … 10:45) are out; 11:00 remains:
    // quarters 150 120 90 60 = 420·1125 = 472 500 bytes → 1050 bit/s.
    const samples = quarterSamples(D + 10 * H, shape, [D + 10 * H + 50 * 60]);
    const [peak] = dailyPeakHours(quartersOf(samples), day, 4800, "in");
    expect(peak).toEqual({ day: "2026-11-17", windowStart: D + 11 * H, bps: 1050, utilisation: 0.21875 });
  });

  it("a day without any complete window has no value; directions are separate", () => {
    const days = daysOfRange({ start: D, end: D + 2 * 86_400 }, "UTC");
    // Day 2: three complete quarters only.
    const samples = [...quarterSamples(D + 10 * H, shape), ...quarterSamples(D + 86_400 + 10 * H, [7, 7, 7])];
    const inDaily = dailyPeakHours(quartersOf(samples), days, 4800, "in");
    expect(inDaily.map((d) => [d.day, d.bps])).toEqual([
      ["2026-11-17", 1200],
      ["2026-11-18", null],
    ]);
    expect(inDaily[1]).toEqual({ day: "2026-11-18", windowStart: null, bps: null, utilisation: null });
    // Out is 0 everywhere: a value of 0 (complete windows), the earliest window of the day.
    const outDaily = dailyPeakHours(quartersOf(samples), days, 4800, "out");
    expect(outDaily[0]).toEqual({ day: "2026-11-17", windowStart: D + 10 * H, bps: 0, utilisation: 0 });
    expect(maxDailyOf(inDaily, 4800)).toEqual({ day: "2026-11-17", bps: 1200, utilisation: 0.25 });
    expect(dailyMaxOfDirections(inDaily, outDaily)).toEqual([0.25, null]);
  });

  it("days are calendar days of the user's timezone (Asia/Kolkata, UTC+5:30)", () => {
    // Kolkata's 2026-11-18 starts at 2026-11-17 18:30 UTC. Equal samples 18:00 … 19:30 UTC (6 quarters):
    // in UTC one day, best (earliest of equal) window 18:00; in Kolkata 18:00 and 18:15 UTC are
    // 23:30 and 23:45 of the 17th (no window that day), the 18th's window starts at 18:30 UTC.
    const samples = quarterSamples(D + 18 * H, [900, 900, 900, 900, 900, 900]);
    const range = { start: D, end: D + 86_400 };
    const kolkata = daysOfRange(range, "Asia/Kolkata");
    expect(kolkata).toEqual([
      { day: "2026-11-17", start: D, end: D + 18.5 * H },
      { day: "2026-11-18", start: D + 18.5 * H, end: D + 86_400 },
    ]);
    const daily = dailyPeakHours(quartersOf(samples), kolkata, null, "in");
    // 12 samples of 900 bytes: 10 800·8/3600 = 24 bit/s; no capacity: no utilisation.
    expect(daily).toEqual([
      { day: "2026-11-17", windowStart: null, bps: null, utilisation: null },
      { day: "2026-11-18", windowStart: D + 18.5 * H, bps: 24, utilisation: null },
    ]);
    const utc = dailyPeakHours(quartersOf(samples), daysOfRange(range, "UTC"), null, "in");
    expect(utc).toEqual([{ day: "2026-11-17", windowStart: D + 18 * H, bps: 24, utilisation: null }]);
  });

  it("a DST day has 23 hours (Europe/Berlin, 2026-03-29)", () => {
    // 2026-03-29 00:00 CET = 2026-03-28 23:00 UTC = 1 774 738 800; the next midnight (CEST) 22:00 UTC.
    const start = 1_774_738_800;
    const days = daysOfRange({ start, end: start + 2 * 86_400 }, "Europe/Berlin");
    expect(days[0]).toEqual({ day: "2026-03-29", start, end: start + 23 * H });
    expect(days[1]).toEqual({ day: "2026-03-30", start: start + 23 * H, end: start + 47 * H });
    expect(days[2].day).toBe("2026-03-31");
  });
});

describe("billing 95th percentile", () => {
  it("n = 20: k = 1, the second highest", () => {
    expect(billingPercentile(Array.from({ length: 20 }, (_, i) => 20 - i))).toBe(19);
  });
  it("n = 8640 (30 days): k = 432, sorted[8207]", () => {
    // 1 … 8640 shuffled deterministically: sorted[8640 − 1 − 432] = 8208.
    const values = Array.from({ length: 8640 }, (_, i) => ((i * 7919) % 8640) + 1);
    expect(new Set(values).size).toBe(8640);
    expect(billingPercentile(values)).toBe(8208);
  });
  it("n < 20: k = 0, the highest; n = 0: none", () => {
    expect(billingPercentile([5, 19, 3])).toBe(19);
    expect(billingPercentile(Array.from({ length: 19 }, (_, i) => i + 1))).toBe(19);
    expect(billingPercentile([])).toBeNull();
  });
  it("in and out separately; billed is the higher", () => {
    // In bytes 1…20 ×300: p95 19·300 → 19·300·8/300 = 152 bit/s; out 1…20 ×600 → 304 bit/s. Capacity 1000.
    const inP = p95OfSamples(
      Array.from({ length: 20 }, (_, i) => (i + 1) * 300),
      1000,
    );
    const outP = p95OfSamples(
      Array.from({ length: 20 }, (_, i) => (i + 1) * 600),
      1000,
    );
    expect(inP).toEqual({ bps: 152, utilisation: 0.152 });
    expect(outP).toEqual({ bps: 304, utilisation: 0.304 });
    expect(billedOf(inP, outP)).toEqual(outP);
    expect(billedOf(inP, null)).toEqual(inP);
    expect(billedOf(null, null)).toBeNull();
  });
});

describe("status and heatmap", () => {
  it("status from the highest daily utilisation against medium/high", () => {
    const t = { medium: 0.75, high: 0.95 };
    expect(linkStatus(0.95, t)).toBe("high");
    expect(linkStatus(0.9499, t)).toBe("medium");
    expect(linkStatus(0.75, t)).toBe("medium");
    expect(linkStatus(0.7, t)).toBe("normal");
    expect(linkStatus(null, t)).toBe("no data");
  });

  it("heatmap: per day the highest 5-minute utilisation of either direction; at most 62 days", () => {
    const days = daysOfRange({ start: D, end: D + 2 * 86_400 }, "UTC");
    const samples: Sample[] = [
      { time: D, inBytes: 3_000, outBytes: 9_000 },
      { time: D + 600, inBytes: 12_000, outBytes: 1 },
    ];
    // Day 1: max(3000, 9000, 12 000, 1) = 12 000 bytes → 320 bit/s; of 3200: 0.1. Day 2: nothing.
    expect(dailyMaxSampleUtilisation(samples, days, 3200)).toEqual([0.1, null]);
    expect(MAX_HEATMAP_DAYS).toBe(62);
    expect(heatmapAllowed(daysOfRange({ start: D, end: D + 62 * 86_400 }, "UTC"))).toBe(true);
    expect(heatmapAllowed(daysOfRange({ start: D, end: D + 63 * 86_400 }, "UTC"))).toBe(false);
  });
});

describe("a 64-bit counter wrap through the SNMP accounting", () => {
  it("gives the true bytes per interval; their 95th and peak hour", () => {
    const TOP = 1n << 64n;
    // In grows by 1000·(j + 1) bytes in interval j and wraps in interval 2 (start 2^64 − 3500);
    // out grows by 500 a interval and wraps in interval 1 (start 2^64 − 700).
    let account: InterfaceAccountJson = { last: null, open: [] };
    let inC = TOP - 3500n;
    let outC = TOP - 700n;
    const rows: { start: number; inBytes: bigint; outBytes: bigint }[] = [];
    for (let j = 0; j <= 20; j++) {
      const reading = { atMs: (D + j * 300) * 1000, uptime: j * 30_000, inOctets: inC, outOctets: outC, ifIndex: 1, ifName: "et-1" };
      const step = observe(account, reading, { pollIntervalMs: 300_000, maxInterpolatedIntervals: 3 });
      account = step.account;
      rows.push(...step.result.rows);
      inC = (inC + BigInt(1000 * (j + 1))) % TOP;
      outC = (outC + 500n) % TOP;
    }
    expect(rows.map((r) => Number(r.inBytes))).toEqual(Array.from({ length: 20 }, (_, j) => 1000 * (j + 1)));
    expect(rows.every((r) => r.outBytes === 500n)).toBe(true);
    const samples: Sample[] = rows.map((r) => ({ time: r.start / 1000, inBytes: Number(r.inBytes), outBytes: Number(r.outBytes) }));
    // 95th of 1000 … 20 000 (n = 20, k = 1): 19 000 bytes → 19 000·8/300 = 506.67 bit/s; out 500 → 13.33.
    expect(
      p95OfSamples(
        samples.map((s) => s.inBytes),
        null,
      )?.bps,
    ).toBeCloseTo(506.667, 3);
    expect(
      p95OfSamples(
        samples.map((s) => s.outBytes),
        null,
      )?.bps,
    ).toBeCloseTo(13.333, 3);
    // Quarters (6 complete, the 7th has 2 samples): 6000 15 000 24 000 33 000 42 000 51 000; the best
    // window is the last complete one, 00:30: 150 000 bytes → 150 000·8/3600 = 333.33 bit/s.
    const [peak] = dailyPeakHours(quartersOf(samples), daysOfRange({ start: D, end: D + 86_400 }, "UTC"), null, "in");
    expect(peak.windowStart).toBe(D + 1800);
    expect(peak.bps).toBeCloseTo(333.333, 3);
  });
});
