import { describe, expect, it } from "vitest";
import { customRangeError, parseExplorerParams, requestedRange, unappliedParams } from "~/features/flows/params";
import { parseInstant } from "~/lib/time-range";
import { toDateTimeField, toLocalInput } from "~/lib/date-format";
import { DATE_RANGE_PRESETS, PRESET_LABELS, rangeProblem, TIME_PRESETS } from "~/lib/time-range";

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
    expect(requestedRange(parseExplorerParams(new URLSearchParams("dateRange=LAST_3_HOURS")), NOW)).toEqual({
      start: NOW - 3 * 3600,
      end: NOW,
      preset: "LAST_3_HOURS",
    });
    expect(requestedRange(parseExplorerParams(new URLSearchParams("dateRange=TODAY")), NOW)).toEqual({
      start: ts("2026-03-15T00:00:00Z"),
      end: NOW,
      preset: "TODAY",
    });
  });
});

describe("custom range in the URL", () => {
  const err = (q: string, tz = "UTC") => customRangeError(parseExplorerParams(new URLSearchParams(q)), tz);

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
    expect(err("dateRange=CUSTOM&start=abc&end=200")).toBe(
      'The start "abc" is not a date: write a date (01.11.2026), a date and time (01.11.2026 10:00) in your timezone, or unix seconds. The default range (Last 2 days) is shown instead.',
    );
    expect(err("start=2026-02-30&end=2026-03-02")).toMatch(/^The start "2026-02-30" is not a date/);
  });
});

describe("ISO dates in the URL", () => {
  const range = (q: string, tz = "UTC") => requestedRange(parseExplorerParams(new URLSearchParams(q)), NOW, tz);

  it("reads dates, local date-times in the user's timezone, zoned date-times and unix seconds", () => {
    // A date is its local midnight; an end date runs to the midnight after it (the whole day).
    expect(range("start=2026-11-01&end=2026-11-01")).toEqual({
      start: ts("2026-11-01T00:00:00Z"),
      end: ts("2026-11-02T00:00:00Z"),
      preset: null,
    });
    expect(range("start=2026-11-01&end=2026-11-03", "Europe/Berlin")).toEqual({
      start: ts("2026-10-31T23:00:00Z"),
      end: ts("2026-11-03T23:00:00Z"),
      preset: null,
    });
    expect(range("dateRange=CUSTOM&start=2026-11-01T10:00&end=2026-11-01T12:30", "Europe/Berlin")).toEqual({
      start: ts("2026-11-01T09:00:00Z"),
      end: ts("2026-11-01T11:30:00Z"),
      preset: null,
    });
    expect(range("start=2026-11-01T10:00:00Z&end=2026-11-01T12:00:00%2B01:00")).toEqual({
      start: ts("2026-11-01T10:00:00Z"),
      end: ts("2026-11-01T11:00:00Z"),
      preset: null,
    });
    // Old links with unix seconds keep working.
    expect(range("start=1793526000&end=1793529600")).toEqual({ start: 1793526000, end: 1793529600, preset: null });
  });

  it("a day across a daylight-saving change is its real length", () => {
    const r = range("start=2026-10-25&end=2026-10-25", "Europe/Berlin");
    expect(r.end - r.start).toBe(25 * 3600);
  });

  it("refuses what is not a date, and round-trips the URL's local value", () => {
    for (const bad of [
      "2026-13-01",
      "2026-11-01T25:00",
      "yesterday",
      "99999999999",
      "2026-11-01T10",
      "31.02.2026 10:00",
      "01.11.2026 24:00",
    ])
      expect(parseInstant(bad, "UTC", "start")).toBeNull();
    expect(toLocalInput(ts("2026-11-01T09:00:00Z"), "Europe/Berlin")).toBe("2026-11-01T10:00");
    expect(parseInstant("2026-11-01T10:00", "Europe/Berlin", "start")).toBe(ts("2026-11-01T09:00:00Z"));
  });

  it("reads the date fields' dd.MM.yyyy HH:mm (and dd.MM.yyyy) in the user's timezone, and round-trips their value", () => {
    expect(toDateTimeField(ts("2026-11-29T20:31:00Z"), "Europe/Berlin")).toBe("29.11.2026 21:31");
    expect(parseInstant("29.11.2026 21:31", "Europe/Berlin", "start")).toBe(ts("2026-11-29T20:31:00Z"));
    expect(parseInstant(" 1.11.2026  9:05 ", "UTC", "start")).toBe(ts("2026-11-01T09:05:00Z"));
    // A day alone is the whole day, as its ISO form.
    expect(range("dateRange=CUSTOM&start=01.11.2026&end=01.11.2026")).toEqual({
      start: ts("2026-11-01T00:00:00Z"),
      end: ts("2026-11-02T00:00:00Z"),
      preset: null,
    });
  });
});

describe("URL values that are not applied", () => {
  const unapplied = (q: string) =>
    unappliedParams(new URLSearchParams(q), parseExplorerParams(new URLSearchParams(q)), { rangeLabel: "Last 2 days" });

  it("names the parameter, the value and what is shown instead", () => {
    expect(unapplied("dateRange=NEXT_CENTURY")).toEqual([
      expect.stringMatching(
        /^The address's dateRange=NEXT_CENTURY was not applied \(a date range is one of .*LAST_2_DAYS.*\); showing Last 2 days instead\.$/,
      ),
    ]);
    expect(unapplied("ipVersion=7")).toEqual([
      "The address's ipVersion=7 was not applied (the IP version is all, 4 or 6); showing all IP versions instead.",
    ]);
    expect(unapplied("view=pie&table=flat")).toHaveLength(2);
  });

  it("says nothing about values that apply", () => {
    expect(unapplied("dateRange=LAST_7_DAYS&ipVersion=6&view=sankey&table=detailed")).toEqual([]);
    expect(unapplied("ipVersion=all&dateRange=CUSTOM")).toEqual([]);
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
