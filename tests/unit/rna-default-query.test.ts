/**
 * rna_default_query: the stored site setting as the Raw Network Analyzer applies it. A value that
 * fits gives its fields over the built-in default; one that does not gives the built-in default
 * and a notice naming the field and what is wrong (the spec's prefix messages verbatim, the nfdump
 * parser's column); no stored value at all, whatever JSON it is, makes the reader throw.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BUILT_IN_RNA_DEFAULT_QUERY,
  readRnaDefaultQuery,
  RNA_DEFAULT_QUERY_EXAMPLE,
  RNA_DEFAULT_RANGES,
  rnaDefaultQueryProblem,
} from "~/features/rna/default-query";

describe("a default query that fits", () => {
  it("{} is the built-in default: the last hour, the analyzer's own columns, nothing filtered or aggregated", () => {
    expect(readRnaDefaultQuery({})).toEqual({
      value: {
        columns: null,
        aggregationPrefixes: { v4: null, v6: null },
        filters: [],
        filterExpression: "",
        range: "LAST_1_HOUR",
        sort: null,
      },
      notice: null,
    });
  });

  it("the documented example is applied field by field", () => {
    const { value, notice } = readRnaDefaultQuery(RNA_DEFAULT_QUERY_EXAMPLE);
    expect(notice).toBeNull();
    expect(value).toEqual(RNA_DEFAULT_QUERY_EXAMPLE);
  });

  it("fields left out keep the built-in value; a family left out of aggregationPrefixes is not aggregated", () => {
    expect(readRnaDefaultQuery({ range: "LAST_7_DAYS", aggregationPrefixes: { v6: 64 } })).toEqual({
      value: { ...BUILT_IN_RNA_DEFAULT_QUERY, range: "LAST_7_DAYS", aggregationPrefixes: { v4: null, v6: 64 } },
      notice: null,
    });
    expect(readRnaDefaultQuery({ sort: null, columns: ["bytes"] }).value).toMatchObject({ sort: null, columns: ["bytes"] });
    expect(readRnaDefaultQuery({ aggregationPrefixes: { v4: 32, v6: 128 } }).value.aggregationPrefixes).toEqual({ v4: 32, v6: 128 });
  });

  it("every range within the 7 days raw flows are kept is accepted", () => {
    for (const range of RNA_DEFAULT_RANGES) expect([range, rnaDefaultQueryProblem({ range })]).toEqual([range, null]);
  });
});

describe("a default query that does not fit", () => {
  const cases: [string, unknown, string][] = [
    ["not an object", [1, 2], "Enter a JSON object, e.g. {}."],
    ["null", null, "Enter a JSON object, e.g. {}."],
    ["a string", "LAST_1_HOUR", "Enter a JSON object, e.g. {}."],
    [
      "an unknown field",
      { limit: 100 },
      'unknown field "limit" (the fields are columns, aggregationPrefixes, filters, filterExpression, range, sort).',
    ],
    ["no column", { columns: [] }, "columns: pick at least one column."],
    ["a column id in another spelling", { columns: ["Source address"] }, "columns.0: a column id as the API names it, e.g. src_addr."],
    [
      "an IPv4 prefix of /33",
      { aggregationPrefixes: { v4: 33 } },
      "aggregationPrefixes.v4: Please type a prefix between /1 and /32 to aggregate the data.",
    ],
    [
      "an IPv4 prefix of /0",
      { aggregationPrefixes: { v4: 0 } },
      "aggregationPrefixes.v4: Please type a prefix between /1 and /32 to aggregate the data.",
    ],
    [
      "an IPv6 prefix of /129",
      { aggregationPrefixes: { v6: 129 } },
      "aggregationPrefixes.v6: Please type a prefix between /1 and /128 to aggregate the data.",
    ],
    [
      "a prefix as text",
      { aggregationPrefixes: { v4: "24" } },
      "aggregationPrefixes.v4: Please type a prefix between /1 and /32 to aggregate the data.",
    ],
    [
      "a range beyond the raw flows' 7 days",
      { range: "LAST_30_DAYS" },
      "range: choose one of LAST_30_MINUTES, LAST_1_HOUR, LAST_3_HOURS, LAST_6_HOURS, TODAY, LAST_2_DAYS, LAST_7_DAYS (raw flows are kept 7 days).",
    ],
    ["a sort direction", { sort: { column: "bytes", direction: "up" } }, "sort.direction: asc or desc."],
    [
      "a sort field",
      { sort: { column: "bytes", direction: "asc", nulls: "last" } },
      'sort: unknown field "nulls" (the fields here are column, direction).',
    ],
    ["a filter without values", { filters: [{ dimension: "AS_DST", values: [] }] }, "filters.0.values: give at least one value."],
    [
      "a filter dimension in lower case",
      { filters: [{ dimension: "as_dst", values: ["1"] }] },
      "filters.0.dimension: a filter dimension, e.g. AS_DST or DST_PREFIX.",
    ],
  ];

  it.each(cases)("%s: the built-in default, and a notice naming what is wrong", (_label, stored, problem) => {
    expect(rnaDefaultQueryProblem(stored)).toBe(problem);
    expect(readRnaDefaultQuery(stored)).toEqual({
      value: BUILT_IN_RNA_DEFAULT_QUERY,
      notice: `The site's default query (rna_default_query) does not fit, so the built-in default is shown: ${problem}`,
    });
  });

  it("a filter expression the nfdump parser refuses: its message, with the column", () => {
    const problem = rnaDefaultQueryProblem({ filterExpression: "proto tcp and" });
    expect(problem).toMatch(/^filterExpression: .*after "and" at column 14/);
    expect(rnaDefaultQueryProblem({ filterExpression: "vlan 10" })).toMatch(/^filterExpression: /);
    expect(rnaDefaultQueryProblem({ filterExpression: "dst port 443 and src net 10.0.0.0/8" })).toBeNull();
  });

  it("a column outside the analyzer's catalogue, when the catalogue is given", () => {
    const columnIds = ["time_received", "src_addr", "bytes"];
    expect(rnaDefaultQueryProblem({ columns: ["src_addr", "bytes"] }, { columnIds })).toBeNull();
    expect(rnaDefaultQueryProblem({ columns: ["src_addr", "src_mac"] }, { columnIds })).toBe(
      "columns.1: not a column of the Raw Network Analyzer.",
    );
    expect(rnaDefaultQueryProblem({ sort: { column: "src_mac", direction: "asc" } }, { columnIds })).toBe(
      "sort.column: not a column of the Raw Network Analyzer.",
    );
  });

  it("never throws, whatever JSON is stored: either it fits, or the built-in default with a notice", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), fc.record({ range: fc.jsonValue(), columns: fc.jsonValue(), sort: fc.jsonValue() }, { requiredKeys: [] })),
        (stored) => {
          const { value, notice } = readRnaDefaultQuery(stored);
          if (notice === null) expect(rnaDefaultQueryProblem(stored)).toBeNull();
          else expect(value).toBe(BUILT_IN_RNA_DEFAULT_QUERY);
        },
      ),
      { numRuns: 300 },
    );
  });
});
