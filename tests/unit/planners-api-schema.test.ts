/**
 * The request rules of the link-utilisation calls (app/features/planners/api-schema.ts): dates in
 * both spellings and in the caller's timezone, the 5-minute snapping and the range bounds, the
 * SearchFilter subset and how it selects links, and the bodies' field-naming refusals.
 */
import { describe, expect, it } from "vitest";
import {
  MAX_RANGE_DAYS,
  externalBodySchema,
  groupingOf,
  interfaceStatisticsQuerySchema,
  interfacesQuerySchema,
  internalQuerySchema,
  linkFiltersSchema,
  matchesLinkFilters,
  normalizeLinkFilters,
  resolveRange,
  summaryBodySchema,
  timeseriesBodySchema,
} from "~/features/planners/api-schema";
import { isIsoCalendarDay } from "~/lib/time-range";

const FIELDS = { start: "startDate", end: "endDate" };
/** The fields a refused value names, as the contract reports them. */
const fieldsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.success ? [] : result.error!.issues.map((i) => i.path.join("."));

describe("dates", () => {
  it("accept unix seconds as numbers or digits, and real calendar days only", () => {
    expect(summaryBodySchema.parse({ startDate: 1_700_000_000, endDate: "1700003600" })).toMatchObject({
      startDate: { unix: 1_700_000_000 },
      endDate: { unix: 1_700_003_600 },
    });
    expect(summaryBodySchema.parse({ startDate: "2026-11-01", endDate: "2026-11-30" })).toMatchObject({
      startDate: { day: "2026-11-01" },
      endDate: { day: "2026-11-30" },
    });
    expect(isIsoCalendarDay("2024-02-29")).toBe(true);
    expect(isIsoCalendarDay("2026-02-29")).toBe(false);
    expect(isIsoCalendarDay("2026-13-01")).toBe(false);
    for (const bad of ["2026-02-30", "yesterday", "", "-5", "1.5", "99999999999", "2026-1-1", "2026-11-01T00:00:00Z"]) {
      expect(fieldsOf(summaryBodySchema.safeParse({ startDate: bad, endDate: 1 })), bad).toEqual(["startDate"]);
    }
    expect(fieldsOf(summaryBodySchema.safeParse({ startDate: -1, endDate: 2.5 }))).toEqual(["startDate", "endDate"]);
  });

  it("read a day in the caller's timezone: a start day from its first moment, an end day to the following midnight", () => {
    const utc = resolveRange({ start: { day: "2026-11-01" }, end: { day: "2026-11-30" } }, "UTC", FIELDS);
    // 2026-11-01T00:00Z = 1793491200; December 1st 00:00Z is 30 days later.
    expect(utc).toEqual({ range: { start: 1_793_491_200, end: 1_793_491_200 + 30 * 86_400 } });
    // Berlin is UTC+1 in November: the day starts an hour earlier in UTC.
    const berlin = resolveRange({ start: { day: "2026-11-01" }, end: { day: "2026-11-01" } }, "Europe/Berlin", FIELDS);
    expect(berlin).toEqual({ range: { start: 1_793_491_200 - 3_600, end: 1_793_491_200 - 3_600 + 86_400 } });
  });

  it("snap to the 5-minute grid, start down and end up, and refuse empty, inverted and over-long ranges naming the start", () => {
    expect(resolveRange({ start: { unix: 1_000_123 }, end: { unix: 1_000_301 } }, "UTC", FIELDS)).toEqual({
      range: { start: 999_900, end: 1_000_500 },
    });
    expect(resolveRange({ start: { unix: 600 }, end: { unix: 600 } }, "UTC", FIELDS)).toEqual({
      problem: { field: "startDate", message: "must be before endDate" },
    });
    expect(resolveRange({ start: { unix: 900 }, end: { unix: 600 } }, "UTC", { start: "startTime", end: "endTime" })).toEqual({
      problem: { field: "startTime", message: "must be before endTime" },
    });
    const longest = MAX_RANGE_DAYS * 86_400;
    expect(resolveRange({ start: { unix: 0 }, end: { unix: longest } }, "UTC", FIELDS)).toEqual({ range: { start: 0, end: longest } });
    const tooLong = resolveRange({ start: { unix: 0 }, end: { unix: longest + 1 } }, "UTC", FIELDS);
    expect(tooLong).toMatchObject({ problem: { field: "startDate" } });
  });
});

describe("filters", () => {
  const links = [
    { neighbourAs: 64601, router: "r1", interface: "et-1" },
    { neighbourAs: 64602, router: "r1", interface: "et-2" },
    { neighbourAs: 64601, router: "r2", interface: "et-1" },
    { neighbourAs: null, router: "r2", interface: "et-4" },
  ];
  const pick = (filters: unknown) =>
    links
      .filter((l) => matchesLinkFilters(l, normalizeLinkFilters(linkFiltersSchema.parse(filters))))
      .map((l) => `${l.router}|${l.interface}`);

  it("select links: values of one dimension are alternatives, dimensions combine, negations remove", () => {
    expect(pick([])).toEqual(["r1|et-1", "r1|et-2", "r2|et-1", "r2|et-4"]);
    expect(pick([{ dimension: "AS_NUMBER", value: "AS64601" }])).toEqual(["r1|et-1", "r2|et-1"]);
    expect(
      pick([
        { dimension: "AS_NUMBER", value: 64601 },
        { dimension: "AS_NUMBER", value: "64602" },
      ]),
    ).toEqual(["r1|et-1", "r1|et-2", "r2|et-1"]);
    expect(
      pick([
        { dimension: "AS_NUMBER", value: "64601" },
        { dimension: "ROUTER", value: "r2" },
      ]),
    ).toEqual(["r2|et-1"]);
    expect(pick([{ dimension: "AS_NUMBER", value: "!64601" }])).toEqual(["r1|et-2", "r2|et-4"]);
    expect(pick([{ dimension: "ROUTER", value: "r1", isNegation: true }])).toEqual(["r2|et-1", "r2|et-4"]);
    expect(pick([{ dimension: "INTERFACE", value: "r2|et-1" }])).toEqual(["r2|et-1"]);
    expect(pick([{ dimension: "INTERFACE", value: "et-1" }])).toEqual(["r1|et-1", "r2|et-1"]);
    // The spec's display fields are accepted and ignored.
    expect(pick([{ dimension: "ROUTER", value: "r1", name: "r1", color: "#fff", type: "primitive", complete: true, id: "r1" }])).toEqual([
      "r1|et-1",
      "r1|et-2",
    ]);
  });

  it("refuse other dimensions, tags, bad AS numbers and empty values, naming the filter's field", () => {
    const refused = (filters: unknown) => fieldsOf(linkFiltersSchema.safeParse(filters));
    expect(refused([{ dimension: "AS_SRC_INGRESS", value: "1" }])).toEqual(["0.dimension"]);
    expect(refused([{ dimension: "AS_NUMBER", value: "1", type: "TAG" }])).toEqual(["0.type"]);
    expect(
      refused([
        { dimension: "ROUTER", value: "r1" },
        { dimension: "AS_NUMBER", value: "Google" },
      ]),
    ).toEqual(["1.value"]);
    expect(refused([{ dimension: "ROUTER", value: "" }])).toEqual(["0.value"]);
    expect(refused([{ dimension: "ROUTER", value: "a\u0000b" }])).toEqual(["0.value"]);
    expect(refused("ROUTER:r1")).toEqual([""]);
  });
});

describe("bodies and parameters", () => {
  it("external: the grouping from dimension or the spec's flags, never contradictory", () => {
    const body = (extra: object) => externalBodySchema.safeParse({ startTime: 0, endTime: 3_600, ...extra });
    expect(groupingOf(externalBodySchema.parse({ startTime: 0, endTime: 1 }))).toBe("AS_NUMBER");
    expect(groupingOf(externalBodySchema.parse({ startTime: 0, endTime: 1, groupByRouter: true }))).toBe("ROUTER");
    expect(groupingOf(externalBodySchema.parse({ startTime: 0, endTime: 1, groupByInterface: true, dimension: "INTERFACE" }))).toBe(
      "INTERFACE",
    );
    expect(fieldsOf(body({ groupByRouter: true, groupByInterface: true }))).toEqual(["groupByInterface"]);
    expect(fieldsOf(body({ groupByRouter: true, dimension: "INTERFACE" }))).toEqual(["dimension"]);
    expect(fieldsOf(body({ groupByRouter: "yes" }))).toEqual(["groupByRouter"]);
    expect(fieldsOf(body({ dimension: "VRF_NAME" }))).toEqual(["dimension"]);
    expect(fieldsOf(body({ currentlyDisplayedValues: "64601" }))).toEqual(["currentlyDisplayedValues"]);
    expect(fieldsOf(externalBodySchema.safeParse({ startTime: "soon", endTime: 1 }))).toEqual(["startTime"]);
    expect(fieldsOf(externalBodySchema.safeParse({ endTime: 1 }))).toEqual(["startTime"]);
  });

  it("timeseries: the body as an object or as a JSON string of it; a string that is not JSON is refused", () => {
    const body = { startDate: "2026-11-01", endDate: "2026-11-02", filters: [{ dimension: "ROUTER", value: "r1" }] };
    expect(timeseriesBodySchema.parse(JSON.stringify(body))).toEqual(timeseriesBodySchema.parse(body));
    expect(timeseriesBodySchema.safeParse("{not json").success).toBe(false);
    expect(fieldsOf(timeseriesBodySchema.safeParse(JSON.stringify({ startDate: "2026-11-01" })))).toEqual(["endDate"]);
  });

  it("internal: a single interface pair needs its four names; all_links is the default", () => {
    const dates = { startDate: "2026-11-01", endDate: "2026-11-02" };
    expect(internalQuerySchema.parse(dates).dataType).toBe("all_links");
    expect(fieldsOf(internalQuerySchema.safeParse({ ...dates, dataType: "single_interface_pair", inRouter: "r1" }))).toEqual([
      "startInterface",
      "outRouter",
      "endInterface",
    ]);
    expect(fieldsOf(internalQuerySchema.safeParse({ ...dates, dataType: "some_links" }))).toEqual(["dataType"]);
    expect(fieldsOf(interfacesQuerySchema.safeParse(dates))).toEqual(["inRouter"]);
  });

  it("interfacestatistics: AS numbers separated by commas (or an interface), a direction, a dimension, a router", () => {
    const q = { startDate: "2026-11-01", endDate: "2026-11-02", router: "r1", isDirectedIn: "true", dimension: "source" };
    expect(interfaceStatisticsQuerySchema.parse({ ...q, ASNumberList: "AS64601, 64602,64601" })).toMatchObject({
      ASNumberList: [64601, 64602],
      isDirectedIn: true,
    });
    expect(interfaceStatisticsQuerySchema.parse({ ...q, ASNumberList: "64601", isDirectedIn: "0" }).isDirectedIn).toBe(false);
    expect(interfaceStatisticsQuerySchema.parse({ ...q, interface: "et-4" }).ASNumberList).toBeUndefined();
    expect(fieldsOf(interfaceStatisticsQuerySchema.safeParse({ ...q, ASNumberList: "Google" }))).toEqual(["ASNumberList"]);
    expect(fieldsOf(interfaceStatisticsQuerySchema.safeParse({ ...q, ASNumberList: ",," }))).toEqual(["ASNumberList"]);
    expect(fieldsOf(interfaceStatisticsQuerySchema.safeParse(q))).toEqual(["ASNumberList"]);
    expect(fieldsOf(interfaceStatisticsQuerySchema.safeParse({ ...q, ASNumberList: "1", isDirectedIn: "maybe" }))).toEqual([
      "isDirectedIn",
    ]);
    expect(fieldsOf(interfaceStatisticsQuerySchema.safeParse({ ...q, ASNumberList: "1", dimension: "AS_SRC_INGRESS" }))).toEqual([
      "dimension",
    ]);
  });
});
