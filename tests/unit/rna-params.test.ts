// The RNA screen's URL state (app/features/rna/params.ts): every control read from the address,
// bad values falling back with a notice, the default state with and without the site's stored
// default query, the query handed to the engine, and the links that keep the state.
import { describe, expect, it } from "vitest";
import {
  effectiveExpression,
  nextSort,
  parseFilterParam,
  parsePrefixLength,
  parseRnaParams,
  rnaDefaultState,
  rnaSearch,
  toRnaQuery,
  type RnaColumnInfo,
} from "~/features/rna/params";
import { columnsFor, DEFAULT_RNA_COLUMNS, type RnaColumnId } from "~/features/rna/columns";

const CATALOGUE: RnaColumnInfo[] = columnsFor({ permissions: [], featureFlags: [] });
const DEFAULT_COLUMNS = [...DEFAULT_RNA_COLUMNS];
// 2026-12-02 12:34:56 UTC
const NOW = Date.UTC(2026, 11, 2, 12, 34, 56) / 1000;

const defaults = rnaDefaultState(CATALOGUE, DEFAULT_COLUMNS).state;
const parse = (search: string, tz = "UTC", d = defaults) =>
  parseRnaParams(new URLSearchParams(search), { catalogue: CATALOGUE, defaults: d, timezone: tz, now: NOW });

describe("RNA params: the default state", () => {
  it("is the last hour in whole minutes, the default columns, no filter, no aggregation", () => {
    const p = parse("");
    expect(p.range).toEqual({ start: NOW - 3600 - 56, end: NOW + 4 });
    expect(p.dateRange).toBe("LAST_1_HOUR");
    expect(p.columns).toEqual(DEFAULT_COLUMNS);
    expect(p.filters).toEqual([]);
    expect(p.aggregation).toEqual({ v4: null, v6: null });
    expect(p.includeCopies).toBe(false);
    expect(p.sort).toBeNull();
    expect(p.after).toBeNull();
    expect(p.notices).toEqual([]);
    expect(toRnaQuery(p, 25)).toEqual({
      start: p.range.start,
      end: p.range.end,
      columns: DEFAULT_COLUMNS,
      filters: [],
      expression: "",
      aggregation: { v4: null, v6: null },
      includeCopies: false,
      sort: null,
      after: null,
      pageSize: 25,
    });
  });

  it("takes the parts of a stored default query that fit, and says what it left out", () => {
    const { state, notices } = rnaDefaultState(CATALOGUE, DEFAULT_COLUMNS, {
      columns: ["dst_addr", "bytes", "no_such_column"],
      aggregation: { v4: 24, v6: 200 },
      expression: "proto tcp",
      filters: [{ dimension: "AS_DST", values: ["64500"] }],
      sort: { column: "bytes", direction: "desc" },
      dateRange: "LAST_3_HOURS",
    });
    expect(state.columns).toEqual(["dst_addr", "bytes"]);
    expect(state.aggregation).toEqual({ v4: 24, v6: null });
    expect(state.sort).toEqual({ column: "bytes", direction: "desc" });
    expect(state.dateRange).toBe("LAST_3_HOURS");
    expect(notices).toHaveLength(2);
    expect(notices[0]).toContain("no_such_column");
    expect(notices[1]).toContain("Please type a prefix between /1 and /128 to aggregate the data");
    const p = parse("", "UTC", state);
    expect(p.q).toBe("proto tcp");
    expect(toRnaQuery(p).expression).toBe("(proto tcp)");
    expect(p.range.end - p.range.start).toBe(3 * 3600 + 60);
    // The address wins over the stored default, part by part.
    const asked = parse("q=&filter=EXPORTER:r1&aggregationPrefixV4=", "UTC", state);
    expect(asked.q).toBe("");
    expect(asked.filters).toEqual([{ dimension: "EXPORTER", values: ["r1"] }]);
    expect(asked.aggregation.v4).toBeNull();
  });
});

describe("RNA params: filters and the expression", () => {
  it("reads filter=DIMENSION:value as the Flow Explorer and 'Show in RNA' write it", () => {
    const p = parse(
      "filter=DST_PREFIX:2001:db8::/32&filter=AS_DST:64500,!64501&filter=EXPORTER:edge-1&filter=nonsense&filter=lower:x&filter=AS_SRC:",
    );
    expect(p.filters).toEqual([
      { dimension: "DST_PREFIX", values: ["2001:db8::/32"] },
      { dimension: "AS_DST", values: ["64500", "!64501"] },
      { dimension: "EXPORTER", values: ["edge-1"] },
    ]);
    expect(p.notices.filter((n) => n.includes("is not a filter (write DIMENSION:value"))).toHaveLength(3);
    expect(parseFilterParam("NEXT_HOP:192.0.2.1")).toEqual({ dimension: "NEXT_HOP", values: ["192.0.2.1"] });
  });

  it("applies an nfdump expression that parses, and says where one that does not went wrong", () => {
    expect(toRnaQuery(parse("q=proto+udp+and+port+53")).expression).toBe("(proto udp and port 53)");
    const bad = parse("q=proto+tcp+and+");
    expect(bad.qError).toMatch(/^Column \d+: /);
    expect(bad.notices.some((n) => n.startsWith("q=proto tcp and in the address is not a filter expression"))).toBe(true);
    expect(toRnaQuery(bad).expression).toBe("");
  });

  it("turns '>' and '<' column filters into terms of the expression; anything else gets the spec's message", () => {
    const p = parse("q=proto+tcp&dst_port=%3E1023.5&packets_scaled=<2k&src_port=%3D80&bytes=%3E1M");
    expect(p.numeric).toEqual([
      { column: "dst_port", filter: { op: ">", value: 1023.5 } },
      { column: "packets_scaled", filter: { op: "<", value: 2000 } },
    ]);
    expect(effectiveExpression(p)).toBe("(proto tcp) and dst port > 1023 and packets < 2000");
    expect(p.numericErrors).toEqual({ src_port: "=80 is not a valid Source port input" });
    // Bytes compare the sampled figure in the table, which nfdump's `bytes` does not: no filter field, nothing applied.
    expect(p.numericText).not.toHaveProperty("bytes");
    expect(parse("src_port=%3E10%25").numericErrors.src_port).toBe(">10% is not a valid Source port input");
    // Aggregated, a row's bytes are a sum: a filter of single records would not compare what the column shows.
    const aggregated = parse("aggregationPrefixV4=24&bytes_scaled=%3E1M&dst_port=<1024");
    expect(aggregated.numeric).toEqual([{ column: "dst_port", filter: { op: "<", value: 1024 } }]);
    expect(aggregated.numericErrors.bytes_scaled).toMatch(/^With prefix aggregation the rows are sums/);
  });
});

describe("RNA params: columns, aggregation, copies, sort, paging, timeseries", () => {
  it("keeps the catalogue's order, leaves out unknown columns and refuses an empty choice", () => {
    expect(parse("columns=bytes&columns=src_addr,time_received").columns).toEqual(["time_received", "src_addr", "bytes"]);
    const unknown = parse("columns=bytes,application");
    expect(unknown.columns).toEqual(["bytes"]);
    expect(unknown.notices).toEqual(["columns=application in the address: no such column for you; left out."]);
    const empty = parse("columns=");
    expect(empty.columns).toEqual(DEFAULT_COLUMNS);
    expect(empty.notices).toEqual(["Column picker needs at least one column selected; the default columns are shown."]);
  });

  it("reads the prefixes with the spec's four messages", () => {
    expect(parse("aggregationPrefixV4=24&aggregationPrefixV6=/48").aggregation).toEqual({ v4: 24, v6: 48 });
    expect(parsePrefixLength("/32", "v4")).toEqual({ value: 32 });
    expect(parsePrefixLength("128", "v6")).toEqual({ value: 128 });
    expect(parsePrefixLength("0", "v4")).toEqual({ error: "Please type a prefix between /1 and /32 to aggregate the data" });
    expect(parsePrefixLength("33", "v4")).toEqual({ error: "Please type a prefix between /1 and /32 to aggregate the data" });
    expect(parsePrefixLength("129", "v6")).toEqual({ error: "Please type a prefix between /1 and /128 to aggregate the data" });
    expect(parsePrefixLength("24a", "v4")).toEqual({ error: "Wrong IPv4 prefix format" });
    expect(parsePrefixLength("::/48", "v6")).toEqual({ error: "Wrong IPv6 prefix format" });
    const bad = parse("aggregationPrefixV4=x&aggregationPrefixV6=0");
    expect(bad.aggregation).toEqual({ v4: null, v6: null });
    expect(bad.aggregationErrors).toEqual({
      v4: "Wrong IPv4 prefix format",
      v6: "Please type a prefix between /1 and /128 to aggregate the data",
    });
    expect(bad.aggregationText).toEqual({ v4: "x", v6: "0" });
    expect(bad.notices).toHaveLength(2);
  });

  it("includes re-exported copies only when asked", () => {
    expect(parse("copies=1").includeCopies).toBe(true);
    expect(parse("copies=on").includeCopies).toBe(true);
    expect(parse("copies=0").includeCopies).toBe(false);
    const bad = parse("copies=maybe");
    expect(bad.includeCopies).toBe(false);
    expect(bad.notices).toHaveLength(1);
  });

  it("sorts by a shown column, in its first direction unless told", () => {
    expect(parse("sort=bytes").sort).toEqual({ column: "bytes", direction: "desc" });
    expect(parse("sort=src_addr").sort).toEqual({ column: "src_addr", direction: "asc" });
    expect(parse("sort=bytes:asc").sort).toEqual({ column: "bytes", direction: "asc" });
    const sideways = parse("sort=bytes:sideways");
    expect(sideways.sort).toEqual({ column: "bytes", direction: "desc" });
    expect(sideways.notices).toHaveLength(1);
    const hidden = parse("sort=flows");
    expect(hidden.sort).toBeNull();
    expect(hidden.notices[0]).toContain("is not a column of the table");
    const bytes = CATALOGUE.find((c) => c.id === "bytes")!;
    expect(nextSort(null, bytes)).toEqual({ column: "bytes", direction: "desc" });
    expect(nextSort({ column: "bytes" as RnaColumnId, direction: "desc" }, bytes)).toEqual({ column: "bytes", direction: "asc" });
  });

  it("passes the keyset cursor on, and drops one that cannot be a cursor", () => {
    expect(parse("after=abc123").after).toBe("abc123");
    const long = parse(`after=${"x".repeat(3000)}`);
    expect(long.after).toBeNull();
    expect(long.notices).toEqual(["after= in the address is not a page of this table; the first page is shown."]);
  });

  it("groups the timeseries by a shown column only", () => {
    expect(parse("timeseries=dst_addr").timeseries).toBe("dst_addr");
    for (const column of ["flows", "time_received", "bytes_scaled"]) {
      const bad = parse(`timeseries=${column}`);
      expect(bad.timeseries).toBeNull();
      expect(bad.notices).toHaveLength(1);
    }
  });
});

describe("RNA params: dates", () => {
  it("reads presets, start and end in the user's timezone, and says what it could not apply", () => {
    expect(parse("dateRange=LAST_6_HOURS").range.end - parse("dateRange=LAST_6_HOURS").range.start).toBe(6 * 3600 + 60);
    const berlin = parse("start=2026-12-01T10:00&end=2026-12-01T11:30", "Europe/Berlin");
    expect(berlin.range).toEqual({ start: Date.UTC(2026, 11, 1, 9) / 1000, end: Date.UTC(2026, 11, 1, 10, 30) / 1000 });
    expect(berlin.dateRange).toBeNull();
    const swapped = parse("start=1764590400&end=1764586800");
    expect(swapped.range).toEqual({ start: 1764586800, end: 1764590400 });
    expect(swapped.notices).toEqual(["The end was before the start; the two were swapped."]);
    const bad = parse("dateRange=FOREVER&start=yesterday");
    expect(bad.notices).toHaveLength(2);
    expect(bad.notices[0]).toBe("dateRange=FOREVER in the address is not a date range; Last hour was used instead.");
    expect(bad.notices[1]).toMatch(/^start=yesterday in the address is not a date/);
    expect(bad.range.end).toBe(NOW + 4);
  });
});

describe("RNA params: links keep the state", () => {
  it("round-trips through rnaSearch with the range pinned", () => {
    const p = parse(
      "filter=AS_DST:64500&q=proto+tcp&columns=src_addr,bytes&aggregationPrefixV4=24&copies=1&sort=bytes&dst_port=%3E1023&timeseries=src_addr&dateRange=LAST_3_HOURS",
    );
    const again = parse(rnaSearch(p, "UTC").toString());
    expect({ ...again, dateRange: p.dateRange }).toEqual(p);
    const next = rnaSearch(p, "UTC", { after: "cursor-2" });
    expect(next.get("after")).toBe("cursor-2");
    expect(rnaSearch(p, "UTC", { sort: null }).has("sort")).toBe(false);
    expect(rnaSearch(p, "UTC", { without: ["columns"] }).has("columns")).toBe(false);
  });
});
