/**
 * What-if on fixed series: an AS whose traffic sits at one group's peaks moved to another group; both
 * 95ths recomputed here from the moved series by dropping the top 5 % one by one. Moving 10 % of the
 * group's mean changes its 95th by far more than 10 %.
 */
import { describe, expect, it } from "vitest";
import { billingWindow, type BillTerms } from "~/features/revenues/bill";
import { billOnSeries, moveTraffic, type Series } from "~/features/revenues/what-if";

const START = Date.UTC(2026, 0, 1) / 1000;
const N = 31 * 288;
const bytesOf = (mbps: number) => (mbps * 1e6 * 300) / 8;
const mbpsOf = (bytes: number) => (bytes * 8) / 300 / 1e6;
const times = Array.from({ length: N }, (_, i) => START + i * 300);
// The AS bursts at 6 % of the intervals (more than the forgiven 5 %: its bursts set A's 95th).
const burst = (i: number) => i % 50 < 3;
const asX: Series = new Map(times.map((t, i) => [t, { inBytes: 0, outBytes: burst(i) ? bytesOf(250) : 0 }]));
const groupA: Series = new Map(times.map((t, i) => [t, { inBytes: bytesOf(20), outBytes: bytesOf(100) + (burst(i) ? bytesOf(250) : 0) }]));
const groupB: Series = new Map(times.map((t, i) => [t, { inBytes: bytesOf(10), outBytes: bytesOf(200 + (i % 7)) }]));

function p95(values: number[]): number {
  const left = [...values];
  for (let k = Math.floor(values.length / 20); k > 0; k--) left.splice(left.indexOf(Math.max(...left)), 1);
  return Math.max(...left);
}
const outP95 = (s: Series) => mbpsOf(p95([...s.values()].map((v) => v.outBytes)));
const outMean = (s: Series) => mbpsOf([...s.values()].reduce((a, v) => a + v.outBytes, 0) / s.size);

const terms: BillTerms = {
  method: "Max 95th",
  billedDirection: "max",
  groupMode: "aggregate",
  commitMbps: 100,
  commitPriceEur: 0.3,
  burstPriceEur: 0.4,
  flatPriceEur: 0,
  portFeeEur: 0,
  crossConnectFeeEur: 0,
  minimumFeeEur: 0,
  validFrom: "2020-01-01",
  validTo: null,
  timezone: "UTC",
};
const window = billingWindow(terms, 2026, 1)!;

describe("what-if: moving an AS's traffic between billing groups", () => {
  it("recomputes both 95ths from the moved series: 10 % of the mean moved changes the 95th by more than 10 %", () => {
    const meanA = outMean(groupA);
    const meanX = outMean(asX);
    const share = (0.1 * meanA) / meanX;
    expect(share).toBeLessThan(1);
    const moved = moveTraffic(groupA, groupB, asX, share);
    // 10 % of A's mean left A.
    expect(outMean(moved.from)).toBeCloseTo(meanA * 0.9, 9);
    const before = outP95(groupA);
    const after = outP95(moved.from);
    expect(before).toBeCloseTo(350, 9);
    expect((before - after) / before).toBeGreaterThan(0.1);
    const billA = billOnSeries(moved.from, terms, window);
    const billB = billOnSeries(moved.to, terms, window);
    expect(billA.traffic.billedBps! / 1e6).toBeCloseTo(after, 9);
    expect(billB.traffic.billedBps! / 1e6).toBeCloseTo(outP95(moved.to), 9);
    expect(outP95(moved.to)).toBeGreaterThan(outP95(groupB));
    expect(billA.charges.totalEur).toBeCloseTo(Math.round((100 * 0.3 + Math.max(0, after - 100) * 0.4) * 100) / 100, 2);
    // Averages would have said: A's 95th falls by what left on average (10 % of the mean), far less.
    expect(before - after).toBeGreaterThan(meanA * 0.1 * 3);
  });

  it("moves all of it, never below zero, and refuses a share outside 0–1", () => {
    const all = moveTraffic(groupA, groupB, asX, 1);
    expect(outP95(all.from)).toBeCloseTo(100, 9);
    const tooMuch = moveTraffic(
      new Map([[START, { inBytes: 0, outBytes: 5 }]]),
      new Map(),
      new Map([[START, { inBytes: 3, outBytes: 9 }]]),
      1,
    );
    expect(tooMuch.from.get(START)).toEqual({ inBytes: 0, outBytes: 0 });
    expect(tooMuch.to.get(START)).toEqual({ inBytes: 0, outBytes: 5 });
    expect(() => moveTraffic(groupA, groupB, asX, 1.5)).toThrow(RangeError);
  });
});
