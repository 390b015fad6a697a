/**
 * Golden text of the planners' SQL builders (features/planners/sql.ts): one sample per link and
 * time by the source rule, the far end of an internal link swapped, values only as parameters.
 * tests/integration/sql-syntax.test.ts proves ClickHouse parses every statement.
 */
import { describe, expect, it } from "vitest";
import {
  datesWithDataQuery,
  heatmapQuery,
  linkFiguresQuery,
  samplingConfidenceQuery,
  seriesQuery,
  timeseriesQuery,
  type LinkEnd,
} from "~/features/planners/sql";

const RANGE = { start: 1_794_873_600, end: 1_794_960_000 };
const ENDS: LinkEnd[] = [
  { link: "r1|et-1", router: "r1", interface: "et-1", swap: false, preference: 2 },
  { link: "r1|c-1>r2|c-1", router: "r1", interface: "c-1", swap: false, preference: 2 },
  { link: "r1|c-1>r2|c-1", router: "r2", interface: "c-1", swap: true, preference: 1 },
];
const PARAMS = {
  start: RANGE.start,
  end: RANGE.end,
  ends: ["r1|et-1", "r1|c-1", "r2|c-1"],
  links: ["r1|et-1", "r1|c-1>r2|c-1", "r1|c-1>r2|c-1"],
  swaps: [0, 0, 1],
  preferences: [2, 2, 1],
};

describe("planners SQL builders (golden)", () => {
  it("link figures in one scan: one sample per link and time (best source, then the near end), quarter sums and maxima, the billing 95th (n − intDiv(n, 20), 1-based)", () => {
    const q = linkFiguresQuery(ENDS, RANGE);
    expect(q.name).toBe("planners.linkFigures");
    expect(q.params).toEqual(PARAMS);
    expect(q.sql).toMatchInlineSnapshot(`
      "SELECT link,
        groupArray(quarter) AS quarters,
        groupArray(quarter_in_sum) AS quarter_in,
        groupArray(quarter_out_sum) AS quarter_out,
        groupArray(quarter_n) AS quarter_samples,
        groupArray(quarter_max_bytes) AS quarter_max,
        toUInt32(sum(quarter_n)) AS samples,
        toUInt32(sum(quarter_interpolated)) AS interpolated,
        arraySort(groupUniqArrayArray(quarter_sources)) AS sources,
        toFloat64(arrayElement(arraySort(arrayFlatten(groupArray(quarter_in_list))), sum(quarter_n) - intDiv(sum(quarter_n), 20))) AS in_p95_bytes,
        toFloat64(arrayElement(arraySort(arrayFlatten(groupArray(quarter_out_list))), sum(quarter_n) - intDiv(sum(quarter_n), 20))) AS out_p95_bytes
      FROM (
        SELECT link, toUInt32(intDiv(toUInt32(time), 900) * 900) AS quarter,
          toFloat64(sum(in_bytes)) AS quarter_in_sum,
          toFloat64(sum(out_bytes)) AS quarter_out_sum,
          toUInt32(count()) AS quarter_n,
          toFloat64(max(greatest(in_bytes, out_bytes))) AS quarter_max_bytes,
          sum(sample_interpolated) AS quarter_interpolated,
          groupUniqArray(toString(sample_source)) AS quarter_sources,
          groupArray(in_bytes) AS quarter_in_list,
          groupArray(out_bytes) AS quarter_out_list
        FROM (
          SELECT link, time,
            argMax(end_in, rank) AS in_bytes,
            argMax(end_out, rank) AS out_bytes,
            argMax(source, rank) AS sample_source,
            argMax(interpolated, rank) AS sample_interpolated
          FROM (
            SELECT
              indexOf({ends:Array(String)}, concat(router, '|', interface)) AS end_index,
              arrayElement({links:Array(String)}, end_index) AS link,
              time,
              if(arrayElement({swaps:Array(UInt8)}, end_index) = 1, out_bytes, in_bytes) AS end_in,
              if(arrayElement({swaps:Array(UInt8)}, end_index) = 1, in_bytes, out_bytes) AS end_out,
              source,
              interpolated,
              tuple(multiIf(source = 'snmp', 3, source = 'flows', 2, 1), arrayElement({preferences:Array(UInt8)}, end_index)) AS rank
            FROM interface_util_5m FINAL
            WHERE time >= toDateTime({start:UInt32}, 'UTC')
              AND time < toDateTime({end:UInt32}, 'UTC')
              AND concat(router, '|', interface) IN {ends:Array(String)}
          )
          GROUP BY link, time
        )
        GROUP BY link, quarter
      )
      GROUP BY link
      ORDER BY link ASC"
    `);
  });

  it("heatmap: days in the user's timezone, bound as a String", () => {
    const q = heatmapQuery(ENDS, RANGE, "Europe/Berlin");
    expect(q.params).toEqual({ ...PARAMS, timezone: "Europe/Berlin" });
    expect(q.sql).toMatchInlineSnapshot(`
      "SELECT link, toString(toDate(time, {timezone:String})) AS day,
        toFloat64(max(greatest(in_bytes, out_bytes))) AS max_bytes
      FROM (
        SELECT link, time,
          argMax(end_in, rank) AS in_bytes,
          argMax(end_out, rank) AS out_bytes,
          argMax(source, rank) AS sample_source,
          argMax(interpolated, rank) AS sample_interpolated
        FROM (
          SELECT
            indexOf({ends:Array(String)}, concat(router, '|', interface)) AS end_index,
            arrayElement({links:Array(String)}, end_index) AS link,
            time,
            if(arrayElement({swaps:Array(UInt8)}, end_index) = 1, out_bytes, in_bytes) AS end_in,
            if(arrayElement({swaps:Array(UInt8)}, end_index) = 1, in_bytes, out_bytes) AS end_out,
            source,
            interpolated,
            tuple(multiIf(source = 'snmp', 3, source = 'flows', 2, 1), arrayElement({preferences:Array(UInt8)}, end_index)) AS rank
          FROM interface_util_5m FINAL
          WHERE time >= toDateTime({start:UInt32}, 'UTC')
            AND time < toDateTime({end:UInt32}, 'UTC')
            AND concat(router, '|', interface) IN {ends:Array(String)}
        )
        GROUP BY link, time
      )
      GROUP BY link, day
      ORDER BY link ASC, day ASC"
    `);
  });

  it("timeseries: each link's mean rate per bucket, summed over the links", () => {
    const q = timeseriesQuery(ENDS, RANGE, 3600);
    expect(q.params).toEqual({ ...PARAMS, bucket: 3600 });
    expect(q.sql).toMatchInlineSnapshot(`
      "SELECT bucket, sum(link_in_bps) AS in_bps, sum(link_out_bps) AS out_bps
      FROM (
        SELECT link, toUInt32(intDiv(toUInt32(time), {bucket:UInt32}) * {bucket:UInt32}) AS bucket,
          toFloat64(sum(in_bytes)) * 8 / (count() * 300) AS link_in_bps,
          toFloat64(sum(out_bytes)) * 8 / (count() * 300) AS link_out_bps
        FROM (
          SELECT link, time,
            argMax(end_in, rank) AS in_bytes,
            argMax(end_out, rank) AS out_bytes,
            argMax(source, rank) AS sample_source,
            argMax(interpolated, rank) AS sample_interpolated
          FROM (
            SELECT
              indexOf({ends:Array(String)}, concat(router, '|', interface)) AS end_index,
              arrayElement({links:Array(String)}, end_index) AS link,
              time,
              if(arrayElement({swaps:Array(UInt8)}, end_index) = 1, out_bytes, in_bytes) AS end_in,
              if(arrayElement({swaps:Array(UInt8)}, end_index) = 1, in_bytes, out_bytes) AS end_out,
              source,
              interpolated,
              tuple(multiIf(source = 'snmp', 3, source = 'flows', 2, 1), arrayElement({preferences:Array(UInt8)}, end_index)) AS rank
            FROM interface_util_5m FINAL
            WHERE time >= toDateTime({start:UInt32}, 'UTC')
              AND time < toDateTime({end:UInt32}, 'UTC')
              AND concat(router, '|', interface) IN {ends:Array(String)}
          )
          GROUP BY link, time
        )
        GROUP BY link, bucket
      )
      GROUP BY bucket
      ORDER BY bucket ASC"
    `);
    expect(() => timeseriesQuery(ENDS, RANGE, 450)).toThrow("multiple of 300");
  });

  it("series, dates with data and sampling confidence", () => {
    expect(seriesQuery(ENDS, RANGE).sql).toMatchInlineSnapshot(`
      "SELECT link, toUInt32(time) AS t,
        toFloat64(in_bytes) AS in_b,
        toFloat64(out_bytes) AS out_b,
        toString(sample_source) AS source,
        toUInt8(sample_interpolated) AS interpolated
      FROM (
        SELECT link, time,
          argMax(end_in, rank) AS in_bytes,
          argMax(end_out, rank) AS out_bytes,
          argMax(source, rank) AS sample_source,
          argMax(interpolated, rank) AS sample_interpolated
        FROM (
          SELECT
            indexOf({ends:Array(String)}, concat(router, '|', interface)) AS end_index,
            arrayElement({links:Array(String)}, end_index) AS link,
            time,
            if(arrayElement({swaps:Array(UInt8)}, end_index) = 1, out_bytes, in_bytes) AS end_in,
            if(arrayElement({swaps:Array(UInt8)}, end_index) = 1, in_bytes, out_bytes) AS end_out,
            source,
            interpolated,
            tuple(multiIf(source = 'snmp', 3, source = 'flows', 2, 1), arrayElement({preferences:Array(UInt8)}, end_index)) AS rank
          FROM interface_util_5m FINAL
          WHERE time >= toDateTime({start:UInt32}, 'UTC')
            AND time < toDateTime({end:UInt32}, 'UTC')
            AND concat(router, '|', interface) IN {ends:Array(String)}
        )
        GROUP BY link, time
      )
      ORDER BY link ASC, t ASC"
    `);
    expect(datesWithDataQuery(ENDS)).toMatchInlineSnapshot(`
      {
        "name": "planners.datesWithData",
        "params": {
          "ends": [
            "r1|et-1",
            "r1|c-1",
            "r2|c-1",
          ],
        },
        "sql": "SELECT toUInt32(min(time)) AS first, toUInt32(max(time)) AS last, toUInt64(count()) AS rows
      FROM interface_util_5m
      WHERE concat(router, '|', interface) IN {ends:Array(String)}",
      }
    `);
    expect(samplingConfidenceQuery(ENDS, RANGE).sql).toMatchInlineSnapshot(`
      "SELECT link,
        if(sum(snmp_bytes) = 0, NULL, toFloat64(sum(flows_bytes)) / toFloat64(sum(snmp_bytes))) AS ratio,
        toUInt32(count()) AS intervals
      FROM (
        SELECT link, end_index, time,
          sumIf(end_in + end_out, source = 'flows') AS flows_bytes,
          sumIf(end_in + end_out, source = 'snmp') AS snmp_bytes
        FROM (
          SELECT
            indexOf({ends:Array(String)}, concat(router, '|', interface)) AS end_index,
            arrayElement({links:Array(String)}, end_index) AS link,
            time,
            if(arrayElement({swaps:Array(UInt8)}, end_index) = 1, out_bytes, in_bytes) AS end_in,
            if(arrayElement({swaps:Array(UInt8)}, end_index) = 1, in_bytes, out_bytes) AS end_out,
            source,
            interpolated,
            tuple(multiIf(source = 'snmp', 3, source = 'flows', 2, 1), arrayElement({preferences:Array(UInt8)}, end_index)) AS rank
          FROM interface_util_5m FINAL
          WHERE time >= toDateTime({start:UInt32}, 'UTC')
            AND time < toDateTime({end:UInt32}, 'UTC')
            AND concat(router, '|', interface) IN {ends:Array(String)}
            AND source IN ('snmp', 'flows')
        )
        GROUP BY link, end_index, time
        HAVING countIf(source = 'flows') > 0 AND countIf(source = 'snmp') > 0
      )
      GROUP BY link
      ORDER BY link ASC"
    `);
  });

  it("refuses an empty or fractional range", () => {
    expect(() => linkFiguresQuery(ENDS, { start: RANGE.end, end: RANGE.start })).toThrow("non-empty");
    expect(() => heatmapQuery(ENDS, { start: 1.5, end: RANGE.end }, "UTC")).toThrow("whole seconds");
  });
});
