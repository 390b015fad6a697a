import { describe, expect, it } from "vitest";
import { clampToData, isValidRange, presetRange } from "~/lib/time-range";
import { alignRange, defaultWindow, tableForWindow } from "~/features/flows/aggregation-window";

const ts = (iso: string) => Date.parse(iso) / 1000;
const NOW = ts("2026-03-15T10:07:00Z");
const DAY = 86_400;

describe("presets", () => {
  it("rolling presets end at now", () => {
    expect(presetRange("LAST_30_MINUTES", NOW)).toEqual({ start: NOW - 1800, end: NOW });
    expect(presetRange("LAST_1_HOUR", NOW)).toEqual({ start: NOW - 3600, end: NOW });
    expect(presetRange("LAST_3_HOURS", NOW)).toEqual({ start: NOW - 3 * 3600, end: NOW });
    expect(presetRange("LAST_6_HOURS", NOW)).toEqual({ start: NOW - 6 * 3600, end: NOW });
    expect(presetRange("LAST_2_DAYS", NOW)).toEqual({ start: NOW - 2 * DAY, end: NOW });
    expect(presetRange("LAST_7_DAYS", NOW)).toEqual({ start: NOW - 7 * DAY, end: NOW });
    expect(presetRange("LAST_30_DAYS", NOW)).toEqual({ start: NOW - 30 * DAY, end: NOW });
    expect(presetRange("LAST_90_DAYS", NOW)).toEqual({ start: NOW - 90 * DAY, end: NOW });
  });

  it("calendar presets in UTC", () => {
    expect(presetRange("TODAY", NOW)).toEqual({ start: ts("2026-03-15T00:00:00Z"), end: NOW });
    expect(presetRange("CURRENT_MONTH", NOW)).toEqual({ start: ts("2026-03-01T00:00:00Z"), end: NOW });
    expect(presetRange("CURRENT_YEAR", NOW)).toEqual({ start: ts("2026-01-01T00:00:00Z"), end: NOW });
    expect(presetRange("LAST_MONTH", NOW)).toEqual({ start: ts("2026-02-01T00:00:00Z"), end: ts("2026-03-01T00:00:00Z") });
    expect(presetRange("LAST_3_MONTHS", NOW)).toEqual({ start: ts("2025-12-01T00:00:00Z"), end: ts("2026-03-01T00:00:00Z") });
  });

  it("calendar presets in the user's timezone (across a DST change)", () => {
    const tz = "Europe/Berlin";
    // 2026-04-01 00:30 Berlin (CEST, +02:00) is still March 31 in UTC.
    const now = ts("2026-03-31T22:30:00Z");
    expect(presetRange("TODAY", now, tz)).toEqual({ start: ts("2026-03-31T22:00:00Z"), end: now });
    expect(presetRange("CURRENT_MONTH", now, tz)).toEqual({ start: ts("2026-03-31T22:00:00Z"), end: now });
    expect(presetRange("LAST_MONTH", now, tz)).toEqual({ start: ts("2026-02-28T23:00:00Z"), end: ts("2026-03-31T22:00:00Z") });
    expect(presetRange("LAST_3_MONTHS", now, tz)).toEqual({ start: ts("2025-12-31T23:00:00Z"), end: ts("2026-03-31T22:00:00Z") });
    expect(presetRange("CURRENT_YEAR", now, tz)).toEqual({ start: ts("2025-12-31T23:00:00Z"), end: now });
    // Pacific/Auckland (+13:00): 10:07 UTC is 23:07 local on the 15th, which began at 11:00 UTC on the 14th.
    expect(presetRange("TODAY", NOW, "Pacific/Auckland")).toEqual({ start: ts("2026-03-14T11:00:00Z"), end: NOW });
  });
});

describe("validity and clamping", () => {
  it("start <= end <= max", () => {
    expect(isValidRange({ start: 1, end: 2 }, 2)).toBe(true);
    expect(isValidRange({ start: 2, end: 2 }, 2)).toBe(true);
    expect(isValidRange({ start: 3, end: 2 }, 5)).toBe(false);
    expect(isValidRange({ start: 1, end: 6 }, 5)).toBe(false);
    expect(isValidRange({ start: 1, end: 4 }, 5, 2)).toBe(false);
  });

  it("clamps to the available data", () => {
    const min = 1000_000;
    const max = 2000_000;
    expect(clampToData({ start: min + 10, end: max - 10 }, min, max)).toEqual({ start: min + 10, end: max - 10, adjusted: "none" });
    expect(clampToData({ start: min - 10, end: max - 10 }, min, max)).toEqual({ start: min, end: max - 10, adjusted: "start-moved" });
    expect(clampToData({ start: min + 10, end: max + 10 }, min, max)).toEqual({ start: min + 10, end: max, adjusted: "end-clamped" });
    expect(clampToData({ start: min - 10, end: max + 10 }, min, max).adjusted).toBe("start-moved-end-clamped");
    expect(clampToData({ start: max + 10, end: max + 20 }, min, max)).toEqual({ start: max - 1800, end: max, adjusted: "last-30-minutes" });
    expect(clampToData({ start: 0, end: min - 1 }, min, max)).toEqual({ start: max - 1800, end: max, adjusted: "last-30-minutes" });
  });
});

describe("aggregation windows and tables", () => {
  const r = (days: number) => ({ start: 0, end: Math.round(days * DAY) });
  it("picks the default window by range length", () => {
    expect(defaultWindow(r(0.5))).toBe(300);
    expect(defaultWindow(r(1))).toBe(300);
    expect(defaultWindow(r(2))).toBe(900);
    expect(defaultWindow(r(6))).toBe(900);
    expect(defaultWindow(r(7))).toBe(3600);
    expect(defaultWindow(r(59))).toBe(3600);
    expect(defaultWindow(r(60))).toBe(86_400);
    expect(defaultWindow(r(365))).toBe(86_400);
  });
  it("reads flows_5m for 5/15 min, flows_1h for hourly and daily", () => {
    expect(tableForWindow(300)).toBe("flows_5m");
    expect(tableForWindow(900)).toBe("flows_5m");
    expect(tableForWindow(3600)).toBe("flows_1h");
    expect(tableForWindow(86_400)).toBe("flows_1h");
  });
  it("aligns a range outwards to the table granularity", () => {
    expect(alignRange({ start: 3700, end: 7300 }, "flows_1h")).toEqual({ start: 3600, end: 10_800 });
    expect(alignRange({ start: 301, end: 599 }, "flows_5m")).toEqual({ start: 300, end: 600 });
  });
});
