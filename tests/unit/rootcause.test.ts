/**
 * Root-cause analysis (app/features/rootcause/): the duration and start inputs with the spec's
 * invalid-input text, each classification and conclusion at its thresholds on fixed figures, the
 * precedence of the rules, and the seasonal band the baseline comes from.
 */
import { describe, expect, it } from "vitest";
import {
  classify,
  conclusionFor,
  decompose,
  pollGapShare,
  POLL_GAP_SHARE,
  routingConclusion,
  type Part,
  type RootCauseInput,
} from "~/features/flows/rootcause/classify";
import { formatDuration, parseDuration, parseStart } from "~/features/flows/rootcause/duration";
import { seasonalBand, seasonalPrediction, WEEK_SECONDS } from "~/lib/forecast-seasonal";

describe("parseDuration", () => {
  it("reads d, h and m in that order", () => {
    expect(parseDuration("10h20m")).toEqual({ ok: true, value: 10 * 3600 + 20 * 60 });
    expect(parseDuration("3h")).toEqual({ ok: true, value: 3 * 3600 });
    expect(parseDuration("1d12h")).toEqual({ ok: true, value: 36 * 3600 });
    expect(parseDuration("90m")).toEqual({ ok: true, value: 5400 });
    expect(parseDuration("7d")).toEqual({ ok: true, value: 7 * 86400 });
    expect(parseDuration("6d23h60m")).toEqual({ ok: true, value: 7 * 86400 });
  });
  it("refuses more than 7 days, zero, other units and other orders with the spec's text", () => {
    for (const bad of ["7d1m", "8d", "0m", "0h0m", "", "10x", "20m10h", "1.5h", "h", "-3h", "3 h"]) {
      expect(parseDuration(bad)).toEqual({ ok: false, message: `${bad} is not a valid duration input` });
    }
  });
  it("formats back", () => {
    expect(formatDuration(37200)).toBe("10h20m");
    expect(formatDuration(86400)).toBe("1d");
    expect(formatDuration(2700)).toBe("45m");
    expect(formatDuration(0)).toBe("0m");
  });
});

describe("parseStart", () => {
  it("reads ISO 8601 with an offset", () => {
    expect(parseStart("2026-11-20T18:00:00Z")).toEqual({ ok: true, value: Date.UTC(2026, 10, 20, 18) / 1000 });
    expect(parseStart("2026-11-20T19:00+01:00")).toEqual({ ok: true, value: Date.UTC(2026, 10, 20, 18) / 1000 });
  });
  it("refuses other forms and days that do not exist", () => {
    for (const bad of ["2026-11-20 18:00", "2026-11-20T18:00:00", "yesterday", "2026-02-31T00:00Z", "2026-13-01T00:00Z"]) {
      expect(parseStart(bad)).toEqual({ ok: false, message: `${bad} is not a valid start input` });
    }
  });
});

describe("conclusionFor at its edges", () => {
  it("80 % and more: Yes (Gain) / Yes (Loss)", () => {
    expect(conclusionFor(0.8, 10)).toBe("Yes (Gain)");
    expect(conclusionFor(0.8, -10)).toBe("Yes (Loss)");
    expect(conclusionFor(1, -1)).toBe("Yes (Loss)");
  });
  it("50 % to under 80 %: the Probably forms", () => {
    expect(conclusionFor(0.7999, 10)).toBe("Yes (Probably gain)");
    expect(conclusionFor(0.5, -10)).toBe("Yes (Probably loss)");
  });
  it("under 50 % or no change: No; no data: Unknown", () => {
    expect(conclusionFor(0.4999, 10)).toBe("No");
    expect(conclusionFor(0, 0)).toBe("No");
    expect(conclusionFor(null, null)).toBe("Unknown");
  });
  it("routing evidence: Yes with changes, No without, Unknown without vantage points", () => {
    expect(routingConclusion(3, 2)).toBe("Yes");
    expect(routingConclusion(0, 2)).toBe("No");
    expect(routingConclusion(0, 0)).toBe("Unknown");
  });
});

const part = (key: string, baseline: number | null, anomaly: number | null): Part => ({ key, label: key, baseline, anomaly });

describe("decompose", () => {
  it("changes, shares, moved share and each part's share of the level's change", () => {
    const d = decompose([part("A", 60, 20), part("B", 40, 100), part("C", 0, 0)]);
    expect(d.baselineTotal).toBe(100);
    expect(d.anomalyTotal).toBe(120);
    expect(d.gains).toBe(60);
    expect(d.losses).toBe(40);
    const [b, a] = d.rows;
    expect(b.key).toBe("B");
    expect(b.change).toBe(60);
    expect(b.anomalyShare).toBeCloseTo(100 / 120, 12);
    // Moved: ½ (|20/120 − 0.6| + |100/120 − 0.4|).
    expect(d.moved).toBeCloseTo(0.5 * (Math.abs(20 / 120 - 0.6) + Math.abs(100 / 120 - 0.4)), 8);
    expect(b.explains).toBe(1);
    expect(b.conclusion).toBe("Yes (Gain)");
    expect(a.explains).toBeCloseTo(40 / 60, 8);
    expect(a.conclusion).toBe("Yes (Probably loss)");
    expect(d.rows[2].conclusion).toBe("No");
  });
  it("a part without data is Unknown", () => {
    expect(decompose([part("A", 10, 20), part("B", null, 5)]).rows.find((r) => r.key === "B")?.conclusion).toBe("Unknown");
  });
});

/** One-level input: the same parts at each level unless given. */
function input(levels: Partial<RootCauseInput["levels"]>, extra: Partial<RootCauseInput> = {}): RootCauseInput {
  const flat = [part("all", 100, 100)];
  return {
    levels: { handoverAs: levels.handoverAs ?? flat, router: levels.router ?? flat, interface: levels.interface ?? flat },
    path: null,
    directUtilisation: null,
    completeness: {},
    ...extra,
  };
}
/** Two parts where exactly `moved` of 100 changed hands (totals kept at 100). */
const shift = (moved: number, a = "A", b = "B") => [part(a, 50, 50 - moved), part(b, 50, 50 + moved)];

describe("classify: shifts at the 10 % threshold", () => {
  it("Handover AS Shift from 10 % moved between handover ASes, not at 9.99 %", () => {
    expect(classify(input({ handoverAs: shift(10) })).classification).toBe("Handover AS Shift");
    expect(classify(input({ handoverAs: shift(9.99) })).classification).toBe("Unknown");
  });
  it("Router Shift: under 10 % between ASes, 10 % between routers", () => {
    expect(classify(input({ handoverAs: shift(9.99), router: shift(10) })).classification).toBe("Router Shift");
    expect(classify(input({ router: shift(10) })).classification).toBe("Router Shift");
  });
  it("Interface Shift: under 10 % between ASes and routers, 10 % between interfaces", () => {
    expect(classify(input({ router: shift(9.99), interface: shift(10) })).classification).toBe("Interface Shift");
    expect(classify(input({ interface: shift(9.99) })).classification).toBe("Unknown");
  });
  it("precedence: a transit change that also moves routers and interfaces is a Handover AS Shift", () => {
    const r = classify(input({ handoverAs: shift(40), router: shift(40), interface: shift(40) }));
    expect(r.classification).toBe("Handover AS Shift");
    expect(r.levels.handoverAs.rows.map((row) => row.conclusion)).toEqual(["Yes (Loss)", "Yes (Gain)"]);
    expect(classify(input({ router: shift(30), interface: shift(30) })).classification).toBe("Router Shift");
  });
});

describe("classify: Organic within 5 %", () => {
  it("a 20 % growth spread evenly is Organic, every candidate No", () => {
    const grow = [part("A", 25, 30), part("B", 25, 30), part("C", 25, 30), part("D", 25, 30)];
    const r = classify(input({ handoverAs: grow, router: grow, interface: grow }));
    expect(r.classification).toBe("Organic");
    expect(r.levels.handoverAs.rows.every((row) => row.conclusion === "No")).toBe(true);
  });
  it("4.99 % moved is Organic, 5 % is not (and not a shift: Unknown)", () => {
    expect(classify(input({ handoverAs: shift(4.99) })).classification).toBe("Organic");
    expect(classify(input({ handoverAs: shift(5) })).classification).toBe("Unknown");
  });
});

describe("classify: Indirect Overflow", () => {
  const overflowPath = (directAnomaly: number, indirectAnomaly: number) => ({
    direct: { baseline: 80, anomaly: directAnomaly },
    indirect: { baseline: 20, anomaly: indirectAnomaly },
  });
  // The AS level shows the same move (direct = the AS itself, indirect = transit T).
  const levels = (d: number, i: number) => ({ handoverAs: [part("self", 80, d), part("T", 20, i)] });

  it("direct capped (+5 % of its baseline), indirect +10 % of the total, links at 90 %: Indirect Overflow before Handover AS Shift", () => {
    const r = classify(input(levels(84, 30), { path: overflowPath(84, 30), directUtilisation: 0.9 }));
    expect(r.classification).toBe("Indirect Overflow");
  });
  it("each condition just missed falls through to the next rule", () => {
    // Links at 89.9 %: the moved share decides (here over 10 points: a Handover AS Shift).
    expect(classify(input(levels(70, 40), { path: overflowPath(70, 40), directUtilisation: 0.899 })).classification).toBe(
      "Handover AS Shift",
    );
    // Direct rose by more than 5 %.
    expect(classify(input(levels(84.1, 30), { path: overflowPath(84.1, 30), directUtilisation: 0.95 })).classification).not.toBe(
      "Indirect Overflow",
    );
    // Indirect rose by under 10 % of the total.
    expect(classify(input(levels(80, 29.9), { path: overflowPath(80, 29.9), directUtilisation: 0.95 })).classification).not.toBe(
      "Indirect Overflow",
    );
  });
  it("the pattern with the utilisation interpolated is Unknown; without any utilisation the next rules decide", () => {
    expect(classify(input(levels(70, 40), { path: overflowPath(70, 40), directUtilisation: null })).classification).toBe(
      "Handover AS Shift",
    );
    expect(
      classify(
        input(levels(84, 30), { path: overflowPath(84, 30), directUtilisation: 0.95, completeness: { interpolatedUtilisation: true } }),
      ).classification,
    ).toBe("Unknown");
  });
});

describe("classify: Unknown for incomplete data, before every other rule", () => {
  it("no baseline, poll gaps, folded into Others, no traffic", () => {
    for (const completeness of [{ noBaseline: true }, { pollGaps: true }, { foldedIntoOthers: true }]) {
      expect(classify(input({ handoverAs: shift(40) }, { completeness })).classification).toBe("Unknown");
    }
    expect(classify(input({ handoverAs: [part("A", 0, 10)] })).classification).toBe("Unknown");
    expect(classify(input({ handoverAs: [part("A", 10, 0)] })).classification).toBe("Unknown");
  });
});

describe("seasonalBand: the prediction's model with the spread of the previous weeks", () => {
  const step = 86_400;
  // Three weeks of daily values, flat levels (no trend): slot 0 was 10, 20, 15.
  const week = (first: number) => [first, 1, 1, 1, 1, 1, 1];
  const history = { start: 0, step, values: [...week(10), ...week(20), ...week(15)] };
  it("value is the seasonal prediction, low and high the extreme slots", () => {
    const targets = [3 * WEEK_SECONDS, 3 * WEEK_SECONDS + step];
    const band = seasonalBand(history, targets);
    const p = seasonalPrediction(history, targets);
    expect(band?.points.map((b) => b.value)).toEqual(p?.values);
    expect(band?.slopePerWeek).toBe(p?.slopePerWeek);
    const slope = band!.slopePerWeek;
    expect(band?.points[0]).toEqual({
      value: 15 + slope,
      low: Math.min(15 + slope, 20 + 2 * slope, 10 + 3 * slope),
      high: Math.max(15 + slope, 20 + 2 * slope, 10 + 3 * slope),
      samples: 3,
    });
  });
  it("null without a complete week", () => {
    expect(seasonalBand({ start: 0, step, values: [1, 2, 3] }, [7 * step])).toBeNull();
  });
});

describe("pollGapShare: the share of polled intervals missed or interpolated", () => {
  const range = { start: 0, end: 100 * 300 };
  it("counts from each interface's first poll, missed and interpolated intervals alike, over polled interfaces only", () => {
    expect(pollGapShare([], range)).toBe(0);
    expect(pollGapShare([{ first: 0, samples: 100, interpolated: 0 }], range)).toBe(0);
    // 98 polled of 100, none interpolated: 2 % — at the threshold.
    expect(pollGapShare([{ first: 0, samples: 98, interpolated: 0 }], range)).toBeCloseTo(POLL_GAP_SHARE, 12);
    // 99 polled of 100, one of them interpolated: 2 % as well.
    expect(pollGapShare([{ first: 0, samples: 99, interpolated: 1 }], range)).toBeCloseTo(0.02, 12);
    // Polled from the 51st interval on, every one since: no gap before its first poll.
    expect(pollGapShare([{ first: 50 * 300, samples: 50, interpolated: 0 }], range)).toBe(0);
    // Two interfaces: 1 gap in 200 intervals.
    expect(
      pollGapShare(
        [
          { first: 0, samples: 100, interpolated: 0 },
          { first: 0, samples: 99, interpolated: 0 },
        ],
        range,
      ),
    ).toBeCloseTo(0.005, 12);
  });

  it("with poll gaps the classification is Unknown, whatever the levels", () => {
    const base = {
      levels: { handoverAs: [], router: [], interface: [] },
      path: null,
      directUtilisation: null,
    } as unknown as RootCauseInput;
    expect(classify({ ...base, completeness: { pollGaps: true } }).classification).toBe("Unknown");
  });
});
