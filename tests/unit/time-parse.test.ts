/**
 * The one parser of instants (parseInstant of lib/time-range.ts), checked against Intl: every tool reads a URL's,
 * a form's or a call's start and end with it, so the same text names the same range everywhere.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { explicitRange, parseExplorerParams } from "~/features/flows/params";
import { parseControlPlaneParams, resolveControlPlaneRange } from "~/features/controlplane/params";
import { dateToUnix, summaryBodySchema } from "~/features/planners/api-schema";
import { parsePlannerParams } from "~/features/planners/params";
import { parseInstant, UNIX_MAX } from "~/lib/time-range";

const formatters = new Map<string, Intl.DateTimeFormat>();
const formatter = (tz: string) =>
  formatters.get(tz) ??
  formatters
    .set(
      tz,
      new Intl.DateTimeFormat("en-US", {
        timeZone: tz,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      }),
    )
    .get(tz)!;

/** The zone's wall clock at an instant, as Intl tells it. */
function wallClock(unix: number, tz: string) {
  const parts = formatter(tz).formatToParts(new Date(unix * 1000));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return { y: get("year"), mo: get("month"), d: get("day"), h: get("hour"), mi: get("minute"), s: get("second") };
}

const iso = (w: ReturnType<typeof wallClock>) => `${w.y}-${w.mo}-${w.d}T${w.h}:${w.mi}:${w.s}`;
const spec = (w: ReturnType<typeof wallClock>) => `${w.d}.${w.mo}.${w.y} ${w.h}:${w.mi}:${w.s}`;
const utc = (text: string) => Date.parse(`${text}Z`) / 1000;

/** Zones of both hemispheres, with and without DST, whole and half-hour offsets, and their 2026 DST days. */
const ZONES: { tz: string; days: string[] }[] = [
  { tz: "Europe/Berlin", days: ["2026-03-29", "2026-10-25"] },
  { tz: "America/New_York", days: ["2026-03-08", "2026-11-01"] },
  { tz: "Australia/Sydney", days: ["2026-04-05", "2026-10-04"] },
  { tz: "America/Santiago", days: ["2026-04-05", "2026-09-06"] },
  { tz: "Asia/Kolkata", days: ["2026-03-29"] },
  { tz: "Australia/Lord_Howe", days: ["2026-04-05", "2026-10-04"] },
];

describe("parseInstant against Intl", () => {
  it("reads back every instant of a DST-change day from its wall-clock text, in both written forms", () => {
    for (const { tz, days } of ZONES) {
      for (const day of days) {
        const from = utc(`${day}T00:00:00`) - 86_400;
        fc.assert(
          fc.property(fc.integer({ min: from, max: from + 3 * 86_400 }), (unix) => {
            const w = wallClock(unix, tz);
            // A repeated wall time (autumn) is its first occurrence: the instant itself or one an hour (or less) before.
            const earlier = parseInstant(iso(w), tz, "start")!;
            expect(wallClock(earlier, tz)).toEqual(w);
            expect(earlier <= unix && unix - earlier <= 3600).toBe(true);
            // Nothing earlier shows the same wall time.
            for (const step of [1800, 3600]) if (earlier - step >= 0) expect(iso(wallClock(earlier - step, tz))).not.toBe(iso(w));
            expect(parseInstant(spec(w), tz, "start")).toBe(earlier);
          }),
          { numRuns: 120 },
        );
      }
    }
  });

  it("a day is [its local midnight, the next local midnight): 23, 24 or 25 hours, as Intl counts", () => {
    for (const { tz, days } of ZONES) {
      for (const day of days) {
        const start = parseInstant(day, tz, "start")!;
        const end = parseInstant(day, tz, "end")!;
        // Its first moment: 00:00, or where a zone skips midnight (Santiago) the first time the day shows.
        expect(iso(wallClock(start, tz)).slice(0, 10)).toBe(day);
        expect(iso(wallClock(start - 1, tz)).slice(0, 10) < day).toBe(true);
        expect(iso(wallClock(end - 1, tz)).slice(0, 10)).toBe(day);
        expect(iso(wallClock(end, tz)).slice(0, 10) > day).toBe(true);
        expect([23, 23.5, 24, 24.5, 25].map((h) => h * 3600)).toContain(end - start);
        const [y, m, d] = day.split("-");
        expect(parseInstant(`${d}.${m}.${y}`, tz, "end")).toBe(end);
      }
    }
    expect(parseInstant("2026-03-29", "Europe/Berlin", "end")! - parseInstant("2026-03-29", "Europe/Berlin", "start")!).toBe(23 * 3600);
    expect(parseInstant("2026-10-25", "Europe/Berlin", "end")! - parseInstant("2026-10-25", "Europe/Berlin", "start")!).toBe(25 * 3600);
  });

  it("a skipped local time reads with the offset before the change; a repeated one is the first", () => {
    // Berlin, 2026-03-29: 02:00 CET becomes 03:00 CEST; 02:30 does not exist and reads as 03:30 CEST (01:30Z).
    expect(parseInstant("2026-03-29T02:30", "Europe/Berlin", "start")).toBe(utc("2026-03-29T01:30:00"));
    expect(parseInstant("29.03.2026 02:30", "Europe/Berlin", "start")).toBe(utc("2026-03-29T01:30:00"));
    // 2026-10-25: 03:00 CEST becomes 02:00 CET; 02:30 happens twice, first at 00:30Z.
    expect(parseInstant("2026-10-25T02:30", "Europe/Berlin", "start")).toBe(utc("2026-10-25T00:30:00"));
    // Santiago changes at midnight: the skipped 00:00 reads as 01:00 of the new offset, and that day starts there.
    expect(wallClock(parseInstant("2026-09-06", "America/Santiago", "start")!, "America/Santiago")).toMatchObject({ h: "01" });
  });

  it("refuses rollovers, unknown forms and numbers that are not unix seconds", () => {
    for (const bad of [
      "2026-02-30",
      "30.02.2026",
      "2026-13-01",
      "2026-11-01T24:00",
      "2026-11-01T10:61",
      "2026-11-01T10:00:60",
      "2026-11-31T10:00:00Z",
      "1.11.26",
      "1.11.2026 7",
      "2026-11-01T10",
      "yesterday",
      "",
      "-5",
      "1.5",
      "17935000000",
      "1793500000000",
      String(UNIX_MAX + 1),
      "1969-12-31",
    ])
      expect(parseInstant(bad, "Europe/Berlin", "start"), bad).toBeNull();
    expect(parseInstant(String(UNIX_MAX), "UTC", "start")).toBe(UNIX_MAX);
    expect(parseInstant(" 1793500000 ", "UTC", "end")).toBe(1_793_500_000);
    // The spec's forms as people type them: one-digit day, month and hour.
    expect(parseInstant("1.11.2026  7:05", "UTC", "start")).toBe(utc("2026-11-01T07:05:00"));
    expect(parseInstant("1.11.2026", "UTC", "end")).toBe(utc("2026-11-02T00:00:00"));
    expect(parseInstant("2026-11-01T10:00:00+02:00", "Asia/Kolkata", "start")).toBe(utc("2026-11-01T08:00:00"));
    expect(parseInstant("2026-11-01T10:00", "Asia/Kolkata", "start")).toBe(utc("2026-11-01T04:30:00"));
    expect(parseInstant(undefined, "UTC", "start")).toBeNull();
  });
});

describe("every tool reads the same range from the same text", () => {
  const TZ = "Europe/Berlin";
  const DAY = "2026-03-29";
  const expected = { start: utc("2026-03-28T23:00:00"), end: utc("2026-03-29T22:00:00") };

  it(`?start=${DAY}&end=${DAY} in ${TZ}: the Flow Explorer, the Control Plane, both planners and the planners' API`, () => {
    const search = new URLSearchParams({ start: DAY, end: DAY });
    expect(explicitRange(parseExplorerParams(search), TZ)).toEqual(expected);
    for (const screen of ["core", "border"] as const) expect(parsePlannerParams(screen, search, TZ)).toMatchObject(expected);
    const body = summaryBodySchema.parse({ startDate: DAY, endDate: DAY });
    expect({ start: dateToUnix(body.startDate, "start", TZ), end: dateToUnix(body.endDate, "end", TZ) }).toEqual(expected);
    // The Control Plane keeps whole minutes within the dates with data; the day lies inside them here.
    const cp = resolveControlPlaneRange(
      parseControlPlaneParams(search),
      { min: expected.start - 86_400, max: expected.end + 86_400 },
      expected.end + 86_400,
      TZ,
    );
    expect({ start: cp.start, end: cp.end }).toEqual(expected);
  });
});
