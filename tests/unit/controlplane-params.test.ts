import { describe, expect, it } from "vitest";
import { controlPlaneSearch, parseControlPlaneParams, resolveControlPlaneRange } from "~/features/controlplane/params";
import { parseInstant } from "~/lib/time-range";
import { toDateTimeField, toLocalInput } from "~/lib/date-format";

const DATES = { min: 1_790_000_000, max: 1_790_086_400 };
const NOW = DATES.max + 600;
const params = (search: string) => parseControlPlaneParams(new URLSearchParams(search));

describe("Control Plane URL state", () => {
  it("maps legacy query types and defaults", () => {
    expect(params("queryType=AS_PATH_QUERY").queryType).toBe("AsPathQuery");
    expect(params("queryType=IP_PREFIX_QUERY").queryType).toBe("IpPrefixQuery");
    expect(params("queryType=IpPrefixQuery").queryType).toBe("IpPrefixQuery");
    expect(params("queryType=bogus").queryType).toBe("AsPathQuery");
    expect(params("").page).toBe(1);
    expect(params("page=-3").page).toBe(1);
    expect(params("page=4").page).toBe(4);
    expect(params("dateRange=LAST_1_HOUR").dateRange).toBe("LAST_1_HOUR");
    expect(params("dateRange=NEVER").dateRange).toBeNull();
    expect(params("queryType=bogus").unknown).toEqual([{ parameter: "queryType", value: "bogus" }]);
  });

  it("reads the RIB view: post-policy and Loc-RIB by default, one table when named, an unknown one reported", () => {
    expect(params("").ribView).toBe("default");
    expect(params("ribView=loc-rib").ribView).toBe("loc-rib");
    expect(params("ribView=default").unknown).toEqual([]);
    expect(params("ribView=adj-rib-out")).toMatchObject({ ribView: "default", unknown: [{ parameter: "ribView", value: "adj-rib-out" }] });
    const base = { queryType: "IpPrefixQuery", queryTerm: "10.0.0.0/8", start: 1_790_000_040, end: 1_790_003_640 };
    expect(new URLSearchParams(controlPlaneSearch({ ...base, ribView: "pre-policy" }, "UTC")).get("ribView")).toBe("pre-policy");
    // The default stays out of the links.
    expect(new URLSearchParams(controlPlaneSearch({ ...base, ribView: "default" }, "UTC")).has("ribView")).toBe(false);
  });

  it("reads unix seconds and datetime-local text in the user's timezone", () => {
    expect(parseInstant("1790000000", "UTC", "start")).toBe(1_790_000_000);
    expect(parseInstant("2026-11-22T10:30", "UTC", "start")).toBe(Date.UTC(2026, 10, 22, 10, 30) / 1000);
    expect(parseInstant("2026-11-22T10:30", "Europe/Berlin", "start")).toBe(Date.UTC(2026, 10, 22, 9, 30) / 1000);
    expect(parseInstant("yesterday", "UTC", "start")).toBeNull();
    expect(toLocalInput(Date.UTC(2026, 10, 22, 9, 30) / 1000, "Europe/Berlin")).toBe("2026-11-22T10:30");
  });

  it("reads the form's fields in the spec's dd.MM.yyyy HH:mm, in the user's timezone, as they show it", () => {
    const at = Date.UTC(2026, 10, 22, 9, 30) / 1000;
    expect(toDateTimeField(at, "Europe/Berlin")).toBe("22.11.2026 10:30");
    expect(parseInstant("22.11.2026 10:30", "Europe/Berlin", "start")).toBe(at);
    expect(parseInstant("22.11.2026", "UTC", "end")).toBe(Date.UTC(2026, 10, 23) / 1000);
    expect(parseInstant("31.11.2026 10:30", "UTC", "start")).toBeNull();
    const range = resolveControlPlaneRange(params("start=21.09.2026 16:14&end=21.09.2026 17:14"), DATES, NOW, "Europe/Berlin");
    expect(range).toMatchObject({
      start: Date.UTC(2026, 8, 21, 14, 14) / 1000,
      end: Date.UTC(2026, 8, 21, 15, 14) / 1000,
      adjustments: [],
    });
  });

  it("round-trips through the pager links, with ISO local times", () => {
    const search = controlPlaneSearch(
      { queryType: "IpPrefixQuery", queryTerm: "10.0.0.0/8", start: 1_790_000_040, end: 1_790_003_640, page: 2 },
      "Europe/Berlin",
    );
    expect(params(search)).toMatchObject({
      queryType: "IpPrefixQuery",
      queryTerm: "10.0.0.0/8",
      start: "2026-09-21T16:14",
      end: "2026-09-21T17:14",
      page: 2,
    });
    expect(parseInstant(params(search).start!, "Europe/Berlin", "start")).toBe(1_790_000_040);
  });

  it("reads ISO dates and times: a date is the whole day in the user's timezone, Z or an offset is absolute", () => {
    expect(parseInstant("2026-11-01", "UTC", "start")).toBe(Date.UTC(2026, 10, 1) / 1000);
    expect(parseInstant("2026-11-01", "UTC", "end")).toBe(Date.UTC(2026, 10, 2) / 1000);
    expect(parseInstant("2026-11-01", "Europe/Berlin", "start")).toBe(Date.UTC(2026, 9, 31, 23) / 1000);
    expect(parseInstant("2026-11-01T10:00:00Z", "Europe/Berlin", "start")).toBe(Date.UTC(2026, 10, 1, 10) / 1000);
    expect(parseInstant("2026-11-01T10:00+02:00", "UTC", "start")).toBe(Date.UTC(2026, 10, 1, 8) / 1000);
    expect(parseInstant("2026-02-31", "UTC", "start")).toBeNull();
    expect(parseInstant("2026-11-01T25:00", "UTC", "start")).toBeNull();
  });

  it("knows the Flow Explorer's presets and rolling ranges such as LAST_24_HOURS; anything else is reported", () => {
    expect(params("dateRange=LAST_24_HOURS")).toMatchObject({ dateRange: "LAST_24_HOURS", unknown: [] });
    expect(params("dateRange=LAST_7_DAYS").dateRange).toBe("LAST_7_DAYS");
    expect(params("dateRange=NEXT_CENTURY")).toMatchObject({
      dateRange: null,
      unknown: [{ parameter: "dateRange", value: "NEXT_CENTURY" }],
    });
    expect(params("queryType=BOGUS").unknown).toEqual([{ parameter: "queryType", value: "BOGUS" }]);
  });
});

describe("Control Plane date rules (spec §4)", () => {
  const resolve = (search: string, now = NOW) => resolveControlPlaneRange(params(search), DATES, now, "UTC");
  const minute = (t: number) => t - (t % 60);
  const NEWEST = Math.ceil(DATES.max / 60) * 60;
  const DEFAULT = { start: minute(DATES.max - 3600), end: NEWEST };

  it("defaults to the 60 minutes before the newest data, in whole minutes", () => {
    expect(resolve("")).toEqual({ ...DEFAULT, adjustments: [] });
  });

  it("keeps a range inside the dates with data", () => {
    expect(resolve(`start=${DATES.min + 100}&end=${DATES.min + 220}`)).toEqual({
      start: minute(DATES.min + 100),
      end: DATES.min + 220,
      adjustments: [],
    });
  });

  it("swaps an end before the start, and says so", () => {
    const r = resolve(`start=${DATES.min + 600}&end=${DATES.min + 120}`);
    expect(r.start).toBe(minute(DATES.min + 120));
    expect(r.end).toBe(Math.ceil((DATES.min + 600) / 60) * 60);
    expect(r.adjustments).toEqual([{ kind: "swapped", start: DATES.min + 600, end: DATES.min + 120 }]);
  });

  it("resets a start outside the range to 60 minutes before the max and clamps the end to the max", () => {
    expect(resolve(`start=${DATES.min - 100}&end=${DATES.min + 200}`)).toMatchObject({
      ...DEFAULT,
      adjustments: [{ kind: "start-reset" }, { kind: "end-before-start" }],
    });
    expect(resolve(`start=${DATES.min + 100}&end=${DATES.max + 86_400}`)).toMatchObject({
      start: minute(DATES.min + 100),
      end: NEWEST,
      adjustments: [{ kind: "end-clamped" }],
    });
    expect(resolve(`start=${DATES.max + 100}&end=${DATES.max + 200}`)).toMatchObject({
      ...DEFAULT,
      adjustments: [{ kind: "start-reset" }],
    });
  });

  it("clamps the routine lag of the newest data behind now without a word", () => {
    // LAST_1_HOUR at NOW ends 10 minutes after the newest data: end clamped, start kept, nothing to say.
    expect(resolve("dateRange=LAST_1_HOUR")).toEqual({ start: minute(NOW - 3600), end: NEWEST, adjustments: [] });
    expect(resolve("dateRange=LAST_24_HOURS").adjustments).toEqual([]);
    // Routing data a day old: that is worth saying.
    expect(resolve("dateRange=LAST_1_HOUR", DATES.max + 86_400).adjustments.map((a) => a.kind)).toEqual(["start-reset", "end-clamped"]);
    // LAST_7_DAYS starts before the first data: reset.
    expect(resolve("dateRange=LAST_7_DAYS").start).toBe(DEFAULT.start);
  });

  it("tolerates the minute precision of the form's fields", () => {
    const minMinute = minute(DATES.min);
    expect(resolve(`start=${minMinute}&end=${DATES.max + 59}`)).toEqual({ start: minMinute, end: NEWEST, adjustments: [] });
    expect(resolve(`start=${minMinute - 60}&end=${DATES.max}`).adjustments.map((a) => a.kind)).toEqual(["start-reset"]);
    expect(toLocalInput(1_790_000_020, "UTC", "up")).toBe(toLocalInput(1_790_000_040, "UTC"));
  });

  it("reports unreadable input and unknown values with the parameter and value, and falls back", () => {
    expect(resolve("start=yesterday")).toEqual({
      ...DEFAULT,
      adjustments: [{ kind: "unreadable", parameter: "start", value: "yesterday" }],
    });
    expect(resolve("dateRange=NEXT_CENTURY")).toEqual({
      ...DEFAULT,
      adjustments: [{ kind: "unknown", parameter: "dateRange", value: "NEXT_CENTURY" }],
    });
  });
});
