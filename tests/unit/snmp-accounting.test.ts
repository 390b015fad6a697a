/**
 * The SNMP poller's accounting (app/features/collector/snmp/accounting.ts) on readings chosen by
 * hand: every expected figure below is worked out in the comment next to it.
 */
import { describe, expect, it } from "vitest";
import {
  apportion,
  counterDelta,
  difference,
  IntervalMerger,
  observe,
  restarted,
  UPTIME_MODULO,
  type AccountingOptions,
  type CounterSample,
  type InterfaceAccountJson,
  type Reading,
} from "~/features/collector/snmp/accounting";

// A grid boundary: 1.8e12 ms is 6,000,000 five-minute intervals after the epoch.
const T = 1_800_000_000_000;
const S = 1_000;
const OPTIONS: AccountingOptions = { pollIntervalMs: 300 * S, maxInterpolatedIntervals: 3 };
const TWO64 = 2n ** 64n;

const sample = (atMs: number, uptime: number, inOctets: bigint, outOctets: bigint): CounterSample => ({
  atMs,
  uptime,
  inOctets,
  outOctets,
});

describe("counter differences", () => {
  it("subtracts, and goes round 2^64 once when the counter wrapped", () => {
    expect(counterDelta(1_000n, 1_600n)).toBe(600n);
    expect(counterDelta(5n, 5n)).toBe(0n);
    // 100 bytes up to 2^64, then 50 more: 150.
    expect(counterDelta(TWO64 - 100n, 50n)).toBe(150n);
    // From the very top: 2^64 − 1 → 0 is one byte.
    expect(counterDelta(TWO64 - 1n, 0n)).toBe(1n);
  });

  it("calls a sysUpTime that went back a restart, but not one that went round 2^32 in the time that passed", () => {
    expect(restarted(90_000, 120_000, 300 * S)).toBe(false);
    expect(restarted(90_000, 500, 300 * S)).toBe(true);
    // 1,000 ticks before 2^32, 300 s (30,000 ticks) later: 29,000.
    expect(restarted(UPTIME_MODULO - 1_000, 29_000, 300 * S)).toBe(false);
    // Went back to 5 ticks instead: a restart just after the round would be at about 29,000.
    expect(restarted(UPTIME_MODULO - 1_000, 5, 300 * S)).toBe(true);
    // Near the top but too little time passed to go round.
    expect(restarted(UPTIME_MODULO - 100_000, 29_000, 300 * S)).toBe(true);
  });
});

describe("apportioning a difference to the intervals it covers", () => {
  it("splits by time, in whole bytes that add up", () => {
    // T+60 s … T+360 s: 240 s in [T, T+300), 60 s in [T+300, T+600); 3,000 bytes → 2,400 and 600.
    expect(apportion(T + 60 * S, T + 360 * S, 3_000n)).toEqual([
      { start: T, bytes: 2_400n, coveredMs: 240 * S },
      { start: T + 300 * S, bytes: 600n, coveredMs: 60 * S },
    ]);
    // 1,000 bytes, 100 s and 200 s: floor(1000 × 100/300) = 333, then 1,000 − 333 = 667.
    expect(apportion(T + 200 * S, T + 500 * S, 1_000n)).toEqual([
      { start: T, bytes: 333n, coveredMs: 100 * S },
      { start: T + 300 * S, bytes: 667n, coveredMs: 200 * S },
    ]);
    // A span inside one interval gives one share.
    expect(apportion(T + 10 * S, T + 70 * S, 7n)).toEqual([{ start: T, bytes: 7n, coveredMs: 60 * S }]);
  });
});

describe("the difference of two readings", () => {
  it("counts an on-time poll, not interpolated", () => {
    const d = difference(sample(T + 60 * S, 1_000, 0n, 100n), sample(T + 360 * S, 31_000, 3_000n, 400n), OPTIONS);
    expect(d).toEqual({
      kind: "counted",
      inBytes: 3_000n,
      outBytes: 300n,
      interpolated: false,
      contributions: [
        // out: 300 × 240/300 = 240, then 60.
        { start: T, inBytes: 2_400n, outBytes: 240n, coveredMs: 240 * S, interpolated: false },
        { start: T + 300 * S, inBytes: 600n, outBytes: 60n, coveredMs: 60 * S, interpolated: false },
      ],
    });
  });

  it("counts across a 64-bit wrap", () => {
    // in: 1,000 to the top and 2,000 after: 3,000.
    const d = difference(sample(T + 60 * S, 1_000, TWO64 - 1_000n, 0n), sample(T + 360 * S, 31_000, 2_000n, 0n), OPTIONS);
    expect(d.kind).toBe("counted");
    expect(d.kind === "counted" && [d.inBytes, d.contributions.map((c) => c.inBytes)]).toEqual([3_000n, [2_400n, 600n]]);
  });

  it("gives nothing when sysUpTime went back (restart)", () => {
    expect(difference(sample(T + 60 * S, 90_000, 5_000n, 5_000n), sample(T + 360 * S, 200, 10n, 10n), OPTIONS)).toEqual({
      kind: "restart",
      contributions: [],
    });
  });

  it("spreads a late poll by time without marking it (at most 1.5 poll intervals)", () => {
    // T+60 s … T+480 s (two minutes late): 240 s and 180 s of 420 s; 4,200 bytes → 2,400 and 1,800.
    const d = difference(sample(T + 60 * S, 0, 0n, 0n), sample(T + 480 * S, 42_000, 4_200n, 0n), OPTIONS);
    expect(d.kind === "counted" && d.contributions.map((c) => [c.start, c.inBytes, c.interpolated])).toEqual([
      [T, 2_400n, false],
      [T + 300 * S, 1_800n, false],
    ]);
  });

  it("spreads missed polls evenly over up to 3 intervals and marks them interpolated", () => {
    // T+60 s … T+960 s: 900 s = 3 intervals (two polls missed); 9,000 bytes, 10 bytes/s:
    // [T] 240 s → 2,400; [T+300] 300 s → 3,000; [T+600] 300 s → 3,000; [T+900] 60 s → 600.
    const d = difference(sample(T + 60 * S, 0, 0n, 0n), sample(T + 960 * S, 90_000, 9_000n, 900n), OPTIONS);
    expect(d.kind === "counted" && d.interpolated).toBe(true);
    expect(d.kind === "counted" && d.contributions.map((c) => [c.start - T, c.inBytes, c.outBytes, c.coveredMs, c.interpolated])).toEqual([
      [0, 2_400n, 240n, 240 * S, true],
      [300 * S, 3_000n, 300n, 300 * S, true],
      [600 * S, 3_000n, 300n, 300 * S, true],
      [900 * S, 600n, 60n, 60 * S, true],
    ]);
  });

  it("leaves more than 3 missed intervals empty, and follows the configured limit", () => {
    // 1,200 s = 4 intervals: nothing.
    expect(difference(sample(T + 60 * S, 0, 0n, 0n), sample(T + 1_260 * S, 120_000, 12_000n, 0n), OPTIONS)).toEqual({
      kind: "gap",
      contributions: [],
    });
    // With at most 2, the 900 s of the previous case is a gap too; 600 s is still spread.
    const two = { ...OPTIONS, maxInterpolatedIntervals: 2 };
    expect(difference(sample(T + 60 * S, 0, 0n, 0n), sample(T + 960 * S, 90_000, 9_000n, 0n), two).kind).toBe("gap");
    expect(difference(sample(T + 60 * S, 0, 0n, 0n), sample(T + 660 * S, 60_000, 6_000n, 0n), two).kind).toBe("counted");
  });

  it("judges missed polls by the poll interval when polling faster than the grid", () => {
    // Every 60 s: 120 s between readings is a missed poll, 1 interval covered: spread and marked.
    const fast = { ...OPTIONS, pollIntervalMs: 60 * S };
    const d = difference(sample(T + 240 * S, 0, 0n, 0n), sample(T + 360 * S, 12_000, 1_200n, 0n), fast);
    expect(d.kind === "counted" && d.contributions.map((c) => [c.start - T, c.inBytes, c.interpolated])).toEqual([
      [0, 600n, true],
      [300 * S, 600n, true],
    ]);
  });

  it("takes a difference faster than twice the interface's speed for a discontinuity", () => {
    // 1 Gbit/s for 300 s is 37.5e9 bytes; twice that 75e9.
    const gig = { ...OPTIONS, speedBps: 1e9 };
    expect(difference(sample(T, 0, 0n, 0n), sample(T + 300 * S, 30_000, 75_000_000_000n, 0n), gig).kind).toBe("counted");
    expect(difference(sample(T, 0, 0n, 0n), sample(T + 300 * S, 30_000, 75_000_000_001n, 0n), gig).kind).toBe("discontinuity");
    // A counter that went back without a restart looks like a wrap of almost 2^64: too fast.
    expect(difference(sample(T, 0, 500n, 0n), sample(T + 300 * S, 30_000, 400n, 0n), gig).kind).toBe("discontinuity");
  });

  it("ignores a reading that is not newer than the previous one", () => {
    expect(difference(sample(T, 0, 0n, 0n), sample(T, 0, 10n, 0n), OPTIONS).kind).toBe("stale");
  });
});

describe("merging the contributions to one interval", () => {
  it("writes an interval once, when polls cover all of it, with the sum of its parts", () => {
    const merger = new IntervalMerger();
    merger.add([
      { start: T, inBytes: 2_400n, outBytes: 1n, coveredMs: 240 * S, interpolated: false },
      { start: T + 300 * S, inBytes: 600n, outBytes: 2n, coveredMs: 60 * S, interpolated: false },
    ]);
    // [T] ends before T+360 s but holds 240 s of 300: not written; [T+300] is still open.
    expect(merger.take(T + 360 * S)).toEqual({ rows: [], incomplete: 1 });
    merger.add([
      { start: T + 300 * S, inBytes: 2_640n, outBytes: 3n, coveredMs: 240 * S, interpolated: true },
      { start: T + 600 * S, inBytes: 660n, outBytes: 4n, coveredMs: 60 * S, interpolated: false },
    ]);
    // 600 + 2,640 = 3,240 over the whole interval; one part interpolated marks the interval.
    expect(merger.take(T + 660 * S)).toEqual({
      rows: [{ start: T + 300 * S, inBytes: 3_240n, outBytes: 5n, interpolated: true }],
      incomplete: 0,
    });
    // Kept across a restart of the poller as JSON.
    const again = new IntervalMerger(undefined, JSON.parse(JSON.stringify(merger.toJSON())));
    again.add([{ start: T + 600 * S, inBytes: 40n, outBytes: 0n, coveredMs: 240 * S, interpolated: false }]);
    expect(again.take(T + 900 * S)).toEqual({
      rows: [{ start: T + 600 * S, inBytes: 700n, outBytes: 4n, interpolated: false }],
      incomplete: 0,
    });
  });
});

describe("an interface polled over time", () => {
  const read = (seconds: number, uptime: number, inOctets: bigint, extra: Partial<Reading> = {}): Reading => ({
    atMs: T + seconds * S,
    uptime,
    inOctets,
    outOctets: inOctets / 10n,
    ifIndex: 7,
    ifName: "et-0/0/1",
    ...extra,
  });

  function run(readings: Reading[], options = OPTIONS) {
    let account: InterfaceAccountJson = { last: null, open: [] };
    return readings.map((reading) => {
      const step = observe(account, reading, options);
      account = step.account;
      return [step.result.kind, step.result.rows.map((r) => [(r.start - T) / S, r.inBytes, r.outBytes, r.interpolated])];
    });
  }

  it("writes each interval from the two polls that cover it", () => {
    // Polls at T+60, 360, 660, 960 s; in counter 0, 3,000, 6,300, 9,900 (out a tenth).
    // [T+300] = 600 (from 3,000 over 360→... 60 s of 300) + 2,640 (3,300 × 240/300) = 3,240, out 60 + 264 = 324.
    // [T+600] = 660 + 2,880 (3,600 × 240/300) = 3,540; out: 630 − 300 = 330 → 66, 360 → 288: 354.
    expect(run([read(60, 6_000, 0n), read(360, 36_000, 3_000n), read(660, 66_000, 6_300n), read(960, 96_000, 9_900n)])).toEqual([
      ["first", []],
      ["counted", []],
      ["counted", [[300, 3_240n, 324n, false]]],
      ["counted", [[600, 3_540n, 354n, false]]],
    ]);
  });

  it("loses the intervals around a restart rather than guessing them", () => {
    // The third poll finds sysUpTime back at 3,000 and the counter at 500: no difference; [T+300]
    // had only its first 60 s → not written; [T+600] gets 240 s from the fourth poll only → not
    // written; [T+900] is whole again from the fourth and fifth.
    expect(
      run([read(60, 6_000, 0n), read(360, 36_000, 3_000n), read(660, 3_000, 500n), read(960, 33_000, 3_500n), read(1_260, 63_000, 6_500n)]),
    ).toEqual([
      ["first", []],
      ["counted", []],
      ["restart", []],
      ["counted", []],
      // 3,000 × 60/300 = 600 from the fourth poll's difference, 3,000 × 240/300 = 2,400 from the fifth: 3,000.
      ["counted", [[900, 3_000n, 300n, false]]],
    ]);
  });

  it("spreads one missed poll, marked, and leaves a long outage empty", () => {
    // Poll at T+360 s missed: T+60 → T+660 is 600 s, 6,000 bytes: [T+300] gets 3,000 (full), marked.
    expect(run([read(60, 0, 0n), read(660, 60_000, 6_000n), read(960, 90_000, 9_000n)])).toEqual([
      ["first", []],
      ["counted", [[300, 3_000n, 300n, true]]],
      // [T+600]: 600 (interpolated part) + 2,400: marked as a whole.
      ["counted", [[600, 3_000n, 300n, true]]],
    ]);
    // Four intervals without an answer: nothing for them, and the intervals after come back.
    expect(run([read(60, 0, 0n), read(1_260, 120_000, 12_000n), read(1_560, 150_000, 15_000n), read(1_860, 180_000, 18_000n)])).toEqual([
      ["first", []],
      ["gap", []],
      ["counted", []],
      ["counted", [[1_500, 3_000n, 300n, false]]],
    ]);
  });

  it("starts again when the counters come from another ifIndex or ifName", () => {
    expect(
      run([
        read(60, 0, 0n),
        read(360, 30_000, 3_000n),
        read(660, 60_000, 90n, { ifIndex: 12 }),
        read(960, 90_000, 3_090n, { ifIndex: 12 }),
      ]),
    ).toEqual([
      ["first", []],
      ["counted", []],
      ["moved", []],
      ["counted", []],
    ]);
  });
});
