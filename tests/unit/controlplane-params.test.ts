import { describe, expect, it } from "vitest";
import { controlPlaneSearch, parseControlPlaneParams, parseUrlTime, resolveControlPlaneRange, toLocalInput } from "~/features/controlplane/params";

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
  });

  it("reads unix seconds and datetime-local text in the user's timezone", () => {
    expect(parseUrlTime("1790000000", "UTC")).toBe(1_790_000_000);
    expect(parseUrlTime("2026-11-22T10:30", "UTC")).toBe(Date.UTC(2026, 10, 22, 10, 30) / 1000);
    expect(parseUrlTime("2026-11-22T10:30", "Europe/Berlin")).toBe(Date.UTC(2026, 10, 22, 9, 30) / 1000);
    expect(parseUrlTime("yesterday", "UTC")).toBeNull();
    expect(toLocalInput(Date.UTC(2026, 10, 22, 9, 30) / 1000, "Europe/Berlin")).toBe("2026-11-22T10:30");
  });

  it("round-trips through the pager links", () => {
    const search = controlPlaneSearch({ queryType: "IpPrefixQuery", queryTerm: "10.0.0.0/8", start: 5, end: 9, page: 2 });
    expect(params(search)).toMatchObject({ queryType: "IpPrefixQuery", queryTerm: "10.0.0.0/8", start: "5", end: "9", page: 2 });
  });
});

describe("Control Plane date rules (spec §4)", () => {
  const resolve = (search: string) => resolveControlPlaneRange(params(search), DATES, NOW, "UTC");

  it("defaults to the 60 minutes before the newest data", () => {
    expect(resolve("")).toEqual({ start: DATES.max - 3600, end: DATES.max, adjustments: [] });
  });

  it("keeps a range inside the dates with data", () => {
    expect(resolve(`start=${DATES.min + 100}&end=${DATES.min + 200}`)).toEqual({ start: DATES.min + 100, end: DATES.min + 200, adjustments: [] });
  });

  it("resets a start outside the range to 60 minutes before the max and clamps the end to the max", () => {
    expect(resolve(`start=${DATES.min - 100}&end=${DATES.min + 200}`)).toEqual({ start: DATES.max - 3600, end: DATES.max, adjustments: ["start-reset", "end-clamped"] });
    expect(resolve(`start=${DATES.min + 100}&end=${DATES.max + 60}`)).toEqual({ start: DATES.min + 100, end: DATES.max, adjustments: ["end-clamped"] });
    expect(resolve(`start=${DATES.max + 10}&end=${DATES.max + 20}`)).toEqual({ start: DATES.max - 3600, end: DATES.max, adjustments: ["start-reset"] });
  });

  it("takes a preset from dateRange, then applies the same rules", () => {
    // LAST_1_HOUR at NOW ends 10 minutes after the newest data: end clamped, start kept.
    expect(resolve("dateRange=LAST_1_HOUR")).toEqual({ start: NOW - 3600, end: DATES.max, adjustments: ["end-clamped"] });
    // LAST_7_DAYS starts before the first data: reset.
    expect(resolve("dateRange=LAST_7_DAYS").start).toBe(DATES.max - 3600);
  });

  it("tolerates the minute precision of the form's fields", () => {
    const minMinute = DATES.min - (DATES.min % 60);
    expect(resolve(`start=${minMinute}&end=${DATES.max + 59}`)).toEqual({ start: minMinute, end: DATES.max, adjustments: [] });
    expect(resolve(`start=${minMinute - 60}&end=${DATES.max}`).adjustments).toEqual(["start-reset"]);
    expect(toLocalInput(1_790_000_020, "UTC", "up")).toBe(toLocalInput(1_790_000_040, "UTC"));
  });

  it("reports unreadable input and falls back", () => {
    expect(resolve("start=yesterday")).toEqual({ start: DATES.max - 3600, end: DATES.max, adjustments: ["unreadable"] });
  });
});
