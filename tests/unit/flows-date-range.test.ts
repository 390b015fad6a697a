import { describe, expect, it } from "vitest";
import { customRangeError, parseExplorerParams, requestedRange } from "~/features/flows/params";
import { DATE_RANGE_PRESETS, PRESET_LABELS, rangeProblem, TIME_PRESETS, unixToWallDate, wallDateToUnix } from "~/features/flows/time";

const ts = (iso: string) => Date.parse(iso) / 1000;
const NOW = ts("2026-03-15T10:07:00Z");

describe("presets in the URL", () => {
  it("accepts the time presets as well as the date ranges, each with a label", () => {
    for (const preset of [...TIME_PRESETS, ...DATE_RANGE_PRESETS]) {
      const params = parseExplorerParams(new URLSearchParams({ dateRange: preset }));
      expect(params.dateRange).toBe(preset);
      expect(requestedRange(params, NOW).preset).toBe(preset);
      expect(PRESET_LABELS[preset]).toMatch(/^[A-Z]/);
    }
    expect(requestedRange(parseExplorerParams(new URLSearchParams("dateRange=LAST_3_HOURS")), NOW)).toEqual({ start: NOW - 3 * 3600, end: NOW, preset: "LAST_3_HOURS" });
    expect(requestedRange(parseExplorerParams(new URLSearchParams("dateRange=TODAY")), NOW)).toEqual({ start: ts("2026-03-15T00:00:00Z"), end: NOW, preset: "TODAY" });
  });
});

describe("custom range in the URL", () => {
  const err = (q: string) => customRangeError(parseExplorerParams(new URLSearchParams(q)));

  it("is fine when used, or when a preset is chosen", () => {
    expect(err("dateRange=CUSTOM&start=100&end=200")).toBeNull();
    expect(err("start=100&end=200")).toBeNull();
    expect(err("dateRange=LAST_7_DAYS&start=300&end=200")).toBeNull();
    expect(err("")).toBeNull();
  });

  it("says why an unusable custom range was replaced by the default", () => {
    expect(err("dateRange=CUSTOM&start=300&end=200")).toBe(
      "The start must not be after the end, and the end must not be after the newest data. The default range (Last 2 days) is shown instead.",
    );
    expect(err("dateRange=CUSTOM&start=300")).toMatch(/needs a start and an end/);
    expect(err("end=300")).toMatch(/needs a start and an end/);
    expect(err("dateRange=CUSTOM&start=abc&end=200")).toMatch(/needs a start and an end/);
  });
});

describe("the date picker's validity rule", () => {
  const bounds = { min: 1000, max: 5000 };
  it("accepts start <= end <= max inside the data", () => {
    expect(rangeProblem({ start: 1000, end: 5000 }, bounds)).toBeNull();
    expect(rangeProblem({ start: 2000, end: 2000 }, bounds)).toBeNull();
  });
  it("tells an out-of-range start, an out-of-range end and a reversed range apart", () => {
    expect(rangeProblem({ start: 999, end: 2000 }, bounds)).toBe("start-out-of-range");
    expect(rangeProblem({ start: 5001, end: 6000 }, bounds)).toBe("start-out-of-range");
    expect(rangeProblem({ start: 2000, end: 5001 }, bounds)).toBe("end-out-of-range");
    expect(rangeProblem({ start: 2000, end: 999 }, bounds)).toBe("end-out-of-range");
    expect(rangeProblem({ start: 3000, end: 2000 }, bounds)).toBe("invalid");
    expect(rangeProblem({ start: 3000, end: 2000 }, { min: -Infinity, max: Infinity })).toBe("invalid");
  });
});

describe("wall-clock dates for the pickers", () => {
  it("shows the user's timezone in the browser's local fields and reads it back", () => {
    const t = ts("2026-03-29T00:30:00Z"); // 01:30 CET, half an hour before the switch to summer time
    const berlin = unixToWallDate(t, "Europe/Berlin");
    expect([berlin.getFullYear(), berlin.getMonth() + 1, berlin.getDate(), berlin.getHours(), berlin.getMinutes()]).toEqual([2026, 3, 29, 1, 30]);
    expect(wallDateToUnix(berlin, "Europe/Berlin")).toBe(t);
    const later = ts("2026-03-29T01:30:00Z"); // 03:30 CEST
    expect(unixToWallDate(later, "Europe/Berlin").getHours()).toBe(3);
    expect(wallDateToUnix(unixToWallDate(later, "Europe/Berlin"), "Europe/Berlin")).toBe(later);
    const ny = unixToWallDate(t, "America/New_York");
    expect([ny.getDate(), ny.getHours()]).toEqual([28, 20]);
    expect(wallDateToUnix(ny, "America/New_York")).toBe(t);
    expect(wallDateToUnix(unixToWallDate(t, "UTC"), "UTC")).toBe(t);
  });
});
