/**
 * The RNA's timeseries (POST api/rna/timeseries/): bit/s per bucket of the current page's rows,
 * one series per value of the grouped column among them. The page comes back from the client, so
 * it is read only as a set of keys (RnaRow.key): of each, the value of the grouped column, checked
 * against that column's type. Everything else — the range, filters, expression, the copies switch
 * and the delegated restriction — is resolved again for this request (query.server.ts
 * resolveRnaScope), so a forged key selects only rows the query may read anyway.
 */
import { z } from "zod";
import { protocolLabel } from "~/features/filter/value-labels";
import { effectiveNames } from "~/features/tags/effective-names.server";
import { defaultWindow } from "~/lib/aggregation-window";
import { SPECIAL_AS_VALUES } from "~/lib/special-as";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import { chQuery } from "~/server/clickhouse/query.server";
import type { Services } from "~/server/services.server";
import { rnaColumn, type RnaColumnId } from "./columns";
import { fitsType } from "./cursor";
import { isAggregated, validateAggregation, type RnaQuery } from "./query";
import { addressText, checkColumns, decodeRowKey, resolveRnaScope, rnaReadSettings } from "./query.server";
import { rnaTimeseries, timeseriesValueType } from "./sql";

type Stores = Pick<Services, "pg" | "ch" | "config">;

export type RnaTimeseriesRequest = {
  query: Pick<RnaQuery, "start" | "end" | "filters" | "expression" | "aggregation" | "includeCopies">;
  groupedColumn: RnaColumnId;
  /** RnaRow.key of each row of the page. */
  keys: readonly string[];
};

export type RnaSeries = { key: string; label: string; values: number[] };

export type RnaTimeseries = {
  /** Bucket width in seconds (shell §9's default windows for the range). */
  window: number;
  /** Bucket starts, unix seconds. */
  buckets: number[];
  /** bit/s per bucket, in the order the values first appear on the page. */
  series: RnaSeries[];
  range: { start: number; end: number };
  notices: string[];
};

const invalid = (field: string, message: string) => new ApiProblem(400, { detail: "Invalid request body.", errors: [{ field, message }] });

const NOT_GROUPABLE = new Set<RnaColumnId>(["time_received", "tags"]);

/** The value of the grouped column in each key, in page order, without repeats; a 400 naming the first key that has none. */
function valuesOfKeys(keys: readonly string[], column: RnaColumnId): string[] {
  const type = timeseriesValueType(column);
  const values: string[] = [];
  keys.forEach((text, i) => {
    const key = decodeRowKey(text);
    if (key && key._others !== undefined) return; // the Others row stands for no value
    const raw = key?.[column];
    const value = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw : Array.isArray(raw) ? `[${raw.join(",")}]` : null;
    if (value === null || value.length > 1000 || !fitsType(value, type))
      throw invalid(`currentPageData.${i}`, `The row key holds no value of ${rnaColumn(column).label}.`);
    if (!values.includes(value)) values.push(value);
  });
  return values;
}

/** The values as their parameter binds them: integers as numbers (a text in an integer array does not parse). */
function bound(values: readonly string[], column: RnaColumnId): (string | number)[] {
  const type = timeseriesValueType(column);
  return /^U?Int\d+$/.test(type) ? values.map(Number) : [...values];
}

/** The timeseries of a page for the user. */
export async function runRnaTimeseries(stores: Stores, user: UserContext, request: RnaTimeseriesRequest): Promise<RnaTimeseries> {
  const column = request.groupedColumn;
  checkColumns(user, [column], "groupedColumn");
  if (rnaColumn(column).kind !== "dimension" || NOT_GROUPABLE.has(column))
    throw invalid(
      "groupedColumn",
      `The timeseries cannot be grouped by ${rnaColumn(column).label}; choose a column that describes the records.`,
    );
  const aggregation = validateAggregation(request.query.aggregation);
  if (!aggregation.ok) throw invalid(`aggregationPrefixes.${aggregation.errors[0].field}`, aggregation.errors[0].message);
  const values = valuesOfKeys(request.keys, column);
  const scope = await resolveRnaScope(stores, user, request.query, { fields: { expression: "filterExpression", start: "epochStart" } });
  const window = defaultWindow(scope.range);
  const first = Math.floor(scope.range.start / window) * window;
  const buckets: number[] = [];
  for (let b = first; b < scope.range.end; b += window) buckets.push(b);
  if (!values.length || !scope.hasData) return { window, buckets, series: [], range: scope.range, notices: scope.notices };
  const rows = await chQuery(stores.ch, {
    ...rnaTimeseries({ range: scope.range, aggregation: aggregation.aggregation }, scope.where, {
      column,
      values: bound(values, column),
      window,
    }),
    schema: z.object({ bucket: z.number(), value: z.string(), bps: z.number() }),
    settings: rnaReadSettings(stores),
  });
  const index = new Map(buckets.map((b, i) => [b, i]));
  const byValue = new Map(values.map((v) => [v, new Array<number>(buckets.length).fill(0)]));
  for (const row of rows) {
    const series = byValue.get(row.value);
    const i = index.get(row.bucket);
    if (series && i !== undefined) series[i] = row.bps;
  }
  const label = await seriesLabeller(stores, user, column, values, aggregation.aggregation);
  return {
    window,
    buckets,
    series: values.map((v) => ({ key: v, label: label(v), values: byValue.get(v) ?? [] })),
    range: scope.range,
    notices: scope.notices,
  };
}

const SPECIAL_AS_NAMES = new Map<number, string>(SPECIAL_AS_VALUES.map((s) => [s.asn, s.name]));

/** How a series' value reads: as in the table (an AS with its name, a protocol by name, IPv4 as a.b.c.d, a prefix with its length). */
async function seriesLabeller(
  stores: Stores,
  user: UserContext,
  column: RnaColumnId,
  values: readonly string[],
  aggregation: { v4: number | null; v6: number | null },
): Promise<(value: string) => string> {
  if (column === "as_src" || column === "as_hnd" || column === "as_nxt" || column === "as_dst") {
    const names = await (await effectiveNames(stores, user)).ases(values);
    return (v) => SPECIAL_AS_NAMES.get(Number(v)) ?? (names.get(v)?.name ? `AS${v} ${names.get(v)?.name}` : `AS${v}`);
  }
  if (column === "protocol") return protocolLabel;
  if (timeseriesValueType(column) === "IPv6") {
    const folded = isAggregated(aggregation) && (column === "src_addr" || column === "dst_addr");
    return (v) => {
      const text = addressText(v);
      const length = text === v ? aggregation.v6 : aggregation.v4;
      return folded && length !== null ? `${text}/${length}` : text;
    };
  }
  return (v) => v;
}
