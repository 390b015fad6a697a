import { describe, expect, it } from "vitest";
import { asColumn, FIVE_MINUTE_DAYS, interfaceStatisticsQuery } from "~/features/planners/interface-statistics";

const NOW = 1_800_000_000;
const DAY = 86_400;
const base = { router: "r1", interface: "et-1", dimension: "source" as const, limit: 10, now: NOW };

describe("traffic by AS on one interface", () => {
  it("reads the ingress side for incoming traffic and the egress side for outgoing", () => {
    const into = interfaceStatisticsQuery({ ...base, direction: "in", range: { start: NOW - DAY, end: NOW } });
    expect(into.sql).toContain("ingress_router = {router:String} AND in_if = {interface:String}");
    expect(into.sql).toContain("SELECT as_src AS asn");
    expect(into.params).toEqual({ start: NOW - DAY, end: NOW, seconds: DAY, router: "r1", interface: "et-1", limit: 10 });
    const out = interfaceStatisticsQuery({ ...base, direction: "out", dimension: "neighbour", range: { start: NOW - DAY, end: NOW } });
    expect(out.sql).toContain("egress_router = {router:String} AND out_if = {interface:String}");
    expect(out.sql).toContain("SELECT as_nxt AS asn");
    // Values only as bound parameters.
    expect(out.sql).not.toContain("r1");
  });

  it("maps each dimension to its AS column per direction", () => {
    expect(asColumn("neighbour", "in")).toBe("as_hnd");
    expect(asColumn("neighbour", "out")).toBe("as_nxt");
    expect(asColumn("source", "out")).toBe("as_src");
    expect(asColumn("destination", "in")).toBe("as_dst");
  });

  it("reads the hourly aggregates once the range starts before the 5-minute ones' retention, and filters ASes when asked", () => {
    const inside = interfaceStatisticsQuery({ ...base, direction: "in", range: { start: NOW - FIVE_MINUTE_DAYS * DAY, end: NOW } });
    expect(inside.sql).toContain("FROM flows_5m");
    const older = interfaceStatisticsQuery({
      ...base,
      direction: "in",
      range: { start: NOW - (FIVE_MINUTE_DAYS + 1) * DAY, end: NOW },
      asns: [65010],
    });
    expect(older.sql).toContain("FROM flows_1h");
    expect(older.sql).toContain("as_src IN {asns:Array(Int64)}");
    expect(older.params.asns).toEqual([65010]);
  });

  it("refuses an empty or fractional range", () => {
    expect(() => interfaceStatisticsQuery({ ...base, direction: "in", range: { start: NOW, end: NOW } })).toThrow(/non-empty/);
    expect(() => interfaceStatisticsQuery({ ...base, direction: "in", range: { start: NOW + 0.5, end: NOW + 10 } })).toThrow(
      /whole seconds/,
    );
  });
});
