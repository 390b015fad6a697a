import { describe, expect, it } from "vitest";
import { DEFAULT_COLUMNS } from "~/features/planners/columns";
import { parsePlannerParams, plannerSearch, resolvePlannerRange } from "~/features/planners/params";
import { parseInstant } from "~/lib/time-range";

const parse = (screen: "border" | "core", q: string, tz = "UTC") => parsePlannerParams(screen, new URLSearchParams(q), tz);

describe("planner URL state", () => {
  it("defaults: last 30 days, grouped by neighbour AS, sorted by status, default columns, no notice", () => {
    const p = parse("border", "");
    expect(p).toMatchObject({ dateRange: "LAST_30_DAYS", group: "as", sort: "status", order: "desc", page: 1, link: null });
    expect(p.columns).toEqual(DEFAULT_COLUMNS.border);
    expect(p.notices).toEqual([]);
    expect(plannerSearch(p)).toBe("");
  });

  it("reads every control and writes it back", () => {
    const q =
      "dateRange=LAST_7_DAYS&group=router&as=AS64500,64501&router=r1&interface=et-0/0/1&sort=capacity&order=asc&capacity=%3E10G&status=medium,high&columns=router,capacity&page=2&link=r1%7Cet-0%2F0%2F1";
    const p = parse("border", q);
    expect(p).toMatchObject({
      dateRange: "LAST_7_DAYS",
      group: "router",
      asns: [64500, 64501],
      routers: ["r1"],
      interfaces: ["et-0/0/1"],
      sort: "capacity",
      order: "asc",
      columns: ["router", "capacity"],
      page: 2,
      link: "r1|et-0/0/1",
    });
    expect(p.filters).toEqual([{ column: "capacity", filter: { op: ">", value: 10e9 } }]);
    // The Status filter takes statuses, not a number (its rank would make "> 80 %" meaningless).
    expect(p.statuses).toEqual(["high", "medium"]);
    expect(p.notices).toEqual([]);
    const again = parse("border", plannerSearch(p).slice(1));
    expect({ ...again, notices: [] }).toEqual({ ...p, notices: [] });
  });

  it("reads the spec's groupByRouter / groupByInterface flags", () => {
    expect(parse("border", "groupByRouter=true").group).toBe("router");
    expect(parse("border", "groupByInterface=true").group).toBe("interface");
  });

  it("start/end as ISO days in the user's timezone, or unix seconds; numeric sort starts descending", () => {
    const p = parse("border", "start=2026-11-01&end=2026-11-02&sort=billedP95", "Europe/Berlin");
    // 2026-11-01 00:00 in Berlin (CET, +1) is 2026-10-31 23:00 UTC; the end is the end of 2026-11-02.
    expect(p.start).toBe(Date.UTC(2026, 9, 31, 23) / 1000);
    expect(p.end).toBe(Date.UTC(2026, 10, 2, 23) / 1000);
    expect(p.dateRange).toBeNull();
    expect(p.order).toBe("desc");
    expect(resolvePlannerRange(p, 0, "Europe/Berlin")).toEqual({ start: p.start, end: p.end });
    expect(parseInstant("1700000000", "UTC", "start")).toBe(1700000000);
    expect(parseInstant("2026-02-30", "UTC", "start")).toBeNull();
  });

  it("start/end as the form's fields write them, the spec's dd.MM.yyyy", () => {
    const p = parse("border", "start=01.11.2026&end=02.11.2026", "Europe/Berlin");
    expect([p.start, p.end, p.notices]).toEqual([Date.UTC(2026, 9, 31, 23) / 1000, Date.UTC(2026, 10, 2, 23) / 1000, []]);
    expect(parseInstant("30.02.2026", "UTC", "start")).toBeNull();
  });

  it("aligns a preset to 5 minutes and leaves the interval being measured out", () => {
    const now = Date.UTC(2026, 10, 26, 12, 7, 30) / 1000;
    const r = resolvePlannerRange(parse("border", "dateRange=LAST_2_DAYS"), now, "UTC");
    expect(r).toEqual({ start: Date.UTC(2026, 10, 24, 12, 5) / 1000, end: Date.UTC(2026, 10, 26, 12, 5) / 1000 });
  });

  it("falls back with a notice for every value it cannot use", () => {
    const p = parse("border", "dateRange=YESTERDAY&group=city&as=AS1x&sort=nope&order=up&capacity=%3D5&columns=foo&page=-1");
    expect(p).toMatchObject({ dateRange: "LAST_30_DAYS", group: "as", asns: [], sort: "status", order: "desc", page: 1 });
    expect(p.columns).toEqual(DEFAULT_COLUMNS.border);
    expect(p.filters).toEqual([]);
    expect(p.filterErrors.capacity).toBe("=5 is not a valid Capacity input");
    expect(p.notices).toHaveLength(7);
    expect(p.notices.join("\n")).toMatch(/dateRange=YESTERDAY.*Last 30 days was used/);
    expect(p.notices.join("\n")).toMatch(/AS1x is not a valid AS number input/);
  });

  it("refuses an end before the start and a range longer than the data kept", () => {
    expect(parse("border", "start=2026-11-05&end=2026-11-01").notices[0]).toMatch(/start date must be before the end date/);
    expect(parse("border", "start=2020-01-01&end=2026-11-01").notices[0]).toMatch(/at most 800 days/);
    expect(parse("border", "start=2026-11-05").notices[0]).toMatch(/both a start and an end/);
    expect(parse("border", "start=2026-11-05&end=2026-11-01").dateRange).toBe("LAST_30_DAYS");
  });

  it("Core Planner: one interface pair needs its four fields", () => {
    const ok = parse("core", "dataType=single_interface_pair&inRouter=a&outRouter=b&startInterface=x&endInterface=y");
    expect(ok.dataType).toBe("single_interface_pair");
    expect(ok.pair).toEqual({ inRouter: "a", outRouter: "b", startInterface: "x", endInterface: "y" });
    expect(plannerSearch(ok)).toContain("dataType=single_interface_pair");
    const missing = parse("core", "dataType=single_interface_pair&inRouter=a");
    expect(missing.dataType).toBe("all_links");
    expect(missing.notices[0]).toMatch(/needs outRouter, startInterface, endInterface/);
    expect(parse("core", "dataType=some").notices[0]).toMatch(/not a link choice/);
    // The Border Planner's columns are not the Core Planner's.
    expect(parse("core", "sort=neighbour").notices[0]).toMatch(/not a column/);
  });
});
