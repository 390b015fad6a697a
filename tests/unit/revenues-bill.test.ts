/**
 * The bill of a month (app/features/revenues/bill.ts) against figures worked out here by hand from
 * fixed series: the 95th (the value after dropping the top 5 % of samples), commit, burst, fees,
 * minimum, proration from the 16th, Flatrate, free, in / out / sum / max, the aggregate against the
 * per-port 95th of a billing group, completeness, and the billing timezone's month.
 */
import { describe, expect, it } from "vitest";
import { billingWindow, chargesOf, trafficFigures, type BillTerms, type PortSamples, type Sample } from "~/features/revenues/bill";
import { billingPercentile } from "~/lib/billing-percentile";

const NOV_START = Date.UTC(2026, 10, 1) / 1000; // 2026-11-01 00:00 UTC, a 30-day month
const DEC_START = Date.UTC(2026, 11, 1) / 1000;
const N = (DEC_START - NOV_START) / 300; // 8640 samples
const bytesOf = (mbps: number) => (mbps * 1e6 * 300) / 8;

const terms = (over: Partial<BillTerms> = {}): BillTerms => ({
  method: "Max 95th",
  billedDirection: "max",
  groupMode: "aggregate",
  commitMbps: 2000,
  commitPriceEur: 0.35,
  burstPriceEur: 0.45,
  flatPriceEur: 0,
  portFeeEur: 200,
  crossConnectFeeEur: 100,
  minimumFeeEur: 0,
  validFrom: "2026-01-01",
  validTo: null,
  timezone: "UTC",
  ...over,
});

/** A port whose i-th sample (from Nov 1st) carries in(i) and out(i) Mbit/s. */
function port(
  key: string,
  inMbps: (i: number) => number,
  outMbps: (i: number) => number,
  keep: (i: number) => boolean = () => true,
): PortSamples {
  const samples: Sample[] = [];
  for (let i = 0; i < N; i++)
    if (keep(i)) samples.push({ t: NOV_START + i * 300, inBytes: bytesOf(inMbps(i)), outBytes: bytesOf(outMbps(i)), source: "snmp" });
  return { key, samples };
}

// 3000 Mbit/s out all month, with 432 spikes of 9000 (exactly 5 % of 8640: all dropped); in 1000 with 433 spikes of 5000 (one stays).
const spikesOut = (i: number) => i % 20 === 7;
const spikesIn = (i: number) => i % 20 === 3 || i === 8639;
const transit = port(
  "r1|et-1",
  (i) => (spikesIn(i) ? 5000 : 1000),
  (i) => (spikesOut(i) ? 9000 : 3000),
);

describe("the billing 95th", () => {
  it("drops the top 5 % of the samples and takes the highest remaining", () => {
    const values = Array.from({ length: N }, (_, i) => ((i * 7919) % N) + 1); // 1..8640 shuffled
    expect(billingPercentile(values)).toBe(N - N / 20); // 8208
  });
});

describe("a month's window", () => {
  it("is the calendar month in the billing timezone, prorated by calendar days of validity", () => {
    expect(billingWindow(terms(), 2026, 11)).toEqual({
      start: NOV_START,
      end: DEC_START,
      daysInMonth: 30,
      activeStart: NOV_START,
      activeEnd: DEC_START,
      activeDays: 30,
    });
    const berlin = billingWindow(terms({ timezone: "Europe/Berlin" }), 2026, 11)!;
    expect([berlin.start, berlin.end]).toEqual([NOV_START - 3600, DEC_START - 3600]);
    const fromThe16th = billingWindow(terms({ validFrom: "2026-11-16" }), 2026, 11)!;
    expect([fromThe16th.activeStart, fromThe16th.activeDays]).toEqual([NOV_START + 15 * 86400, 15]);
    const endingThe10th = billingWindow(terms({ validFrom: "2025-05-01", validTo: "2026-11-10" }), 2026, 11)!;
    expect([endingThe10th.activeEnd, endingThe10th.activeDays]).toEqual([NOV_START + 10 * 86400, 10]);
    expect(billingWindow(terms({ validFrom: "2026-12-01" }), 2026, 11)).toBeNull();
    expect(billingWindow(terms({ validFrom: "2025-01-01", validTo: "2026-10-31" }), 2026, 11)).toBeNull();
  });
});

describe("the bill of a Max 95th contract", () => {
  const window = billingWindow(terms(), 2026, 11)!;

  it("bills the higher of in and out by default: commit, burst above it, fees", () => {
    const traffic = trafficFigures([transit], terms(), window);
    expect(traffic.outP95Bps).toBeCloseTo(3000e6, 3);
    expect(traffic.inP95Bps).toBeCloseTo(5000e6, 3);
    expect(traffic.billedBps).toBeCloseTo(5000e6, 3);
    expect([traffic.samples, traffic.expected, traffic.complete, traffic.sources]).toEqual([N, N, true, ["snmp"]]);
    const c = chargesOf(terms(), traffic, window);
    // 2000 × 0.35 = 700; (5000 − 2000) × 0.45 = 1350; fees 300.
    expect([c.commitEur, c.burstEur, c.feesEur, c.totalEur]).toEqual([700, 1350, 300, 2350]);
    expect(c.perBilledMbpsEur).toBeCloseTo(2350 / 5000, 9);
    // The mean of out (the higher mean): (8208 × 3000 + 432 × 9000) / 8640 = 3300.
    expect(traffic.meanBps).toBeCloseTo(3300e6, 3);
    expect(c.perCarriedMbpsEur).toBeCloseTo(2350 / 3300, 9);
  });

  it("bills in, out, or the 95th of in + out when the contract says so", () => {
    const out = trafficFigures([transit], terms({ billedDirection: "out" }), window);
    expect(out.billedBps).toBeCloseTo(3000e6, 3);
    expect(chargesOf(terms(), out, window).totalEur).toBe(700 + 1000 * 0.45 + 300);
    expect(trafficFigures([transit], terms({ billedDirection: "in" }), window).billedBps).toBeCloseTo(5000e6, 3);
    // in + out per interval: 4000 mostly; 864 spiked intervals of 8000 or 10000 (plus the last, 8000): 10 % > 5 %, so the 95th is 8000.
    expect(trafficFigures([transit], terms({ billedDirection: "sum" }), window).billedBps).toBeCloseTo(8000e6, 3);
  });

  it("charges no burst at or under the commit, and at least the minimum fee", () => {
    const low = port(
      "r1|et-1",
      () => 100,
      () => 1500,
    );
    const t = terms({ minimumFeeEur: 1500 });
    const c = chargesOf(t, trafficFigures([low], t, window), window);
    expect([c.commitEur, c.burstEur, c.feesEur, c.minimumTopUpEur, c.totalEur]).toEqual([700, 0, 300, 500, 1500]);
  });

  it("prorates the commit, the fees and the minimum from the 16th, and bills the 95th of the valid days only", () => {
    const t = terms({ validFrom: "2026-11-16" });
    const w = billingWindow(t, 2026, 11)!;
    // 8000 out before the 16th (not billed), 2500 after.
    const p = port(
      "r1|et-1",
      () => 0,
      (i) => (i < 15 * 288 ? 8000 : 2500),
    );
    const traffic = trafficFigures([p], t, w);
    expect(traffic.billedBps).toBeCloseTo(2500e6, 3);
    expect([traffic.samples, traffic.expected]).toEqual([15 * 288, 15 * 288]);
    const c = chargesOf(t, traffic, w);
    expect(c.proration).toBe(0.5);
    expect([c.commitEur, c.burstEur, c.feesEur, c.totalEur]).toEqual([350, 225, 150, 725]);
  });

  it("expects the samples of a month still running only up to now", () => {
    const t = terms();
    const w = billingWindow(t, 2026, 11)!;
    // Ten days and a bit of the month are over; their samples are all there.
    const now = w.activeStart + 10 * 86_400 + 1234;
    const p = port(
      "r1|et-1",
      () => 100,
      () => 200,
    );
    const sofar = { ...p, samples: p.samples.filter((s) => s.t < now) };
    const running = trafficFigures([sofar], t, w, now);
    expect(running.expected).toBe(10 * 288 + 4);
    expect(running.samples).toBe(10 * 288 + 5);
    expect(running.complete).toBe(true);
    // The same samples judged against the whole month: a third of it.
    expect(trafficFigures([sofar], t, w).complete).toBe(false);
  });
});

describe("Flatrate and free", () => {
  const window = billingWindow(terms(), 2026, 11)!;
  it("Flatrate: the flat price and the fees, whatever the traffic", () => {
    const t = terms({ method: "Flatrate", flatPriceEur: 1200 });
    const c = chargesOf(t, trafficFigures([transit], t, window), window);
    expect([c.commitEur, c.burstEur, c.flatEur, c.feesEur, c.totalEur]).toEqual([0, 0, 1200, 300, 1500]);
  });
  it("free: no traffic charge, the fees still (an IX port)", () => {
    const t = terms({ method: "free" });
    const c = chargesOf(t, trafficFigures([transit], t, window), window);
    expect([c.commitEur, c.burstEur, c.flatEur, c.totalEur]).toEqual([0, 0, 0, 300]);
    expect(
      chargesOf(terms({ method: "free", portFeeEur: 0, crossConnectFeeEur: 0 }), { billedBps: 1e9, meanBps: 1e9 }, window).totalEur,
    ).toBe(0);
  });
});

describe("a billing group of two ports", () => {
  const window = billingWindow(terms(), 2026, 11)!;
  // Port a carries 4000 on even samples, port b on odd ones: the sum is 4000 throughout.
  const a = port(
    "r1|et-1",
    () => 0,
    (i) => (i % 2 === 0 ? 4000 : 0),
  );
  const b = port(
    "r1|et-2",
    () => 0,
    (i) => (i % 2 === 1 ? 4000 : 0),
  );

  it("bills the 95th of the summed series (aggregate) unlike the sum of the ports' 95ths (per port)", () => {
    expect(trafficFigures([a, b], terms(), window).billedBps).toBeCloseTo(4000e6, 3);
    expect(trafficFigures([a, b], terms({ groupMode: "per_port" }), window).billedBps).toBeCloseTo(8000e6, 3);
  });

  it("counts an interval complete when every port has its sample, and flags a month under 99 %", () => {
    const gappy = port(
      "r1|et-2",
      () => 0,
      () => 10,
      (i) => i % 50 !== 0,
    ); // 2 % missing
    const agg = trafficFigures([a, gappy], terms(), window);
    expect([agg.samples, agg.expected, agg.complete]).toEqual([N - Math.ceil(N / 50), N, false]);
    const per = trafficFigures([a, gappy], terms({ groupMode: "per_port" }), window);
    expect([per.samples, per.expected, per.complete]).toEqual([2 * N - Math.ceil(N / 50), 2 * N, false]); // 173 of 17280 missing: 98.999 %;
  });
});
