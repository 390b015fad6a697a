/**
 * The engine of the Raw Network Analyzer: an RnaQuery (query.ts) run over flows_raw for a user, as
 * one page of rows with the query's totals. docs/rna.md describes the rules; in short:
 *
 * - **Who sees what**: columns by permission and feature flag (columns.ts); filters resolved once
 *   (features/filter/raw-record-filters.server.ts), so a delegated user's locked filters are ANDed
 *   with everything the request asks for; the nfdump expression narrows further.
 * - **Counted once**: only `counted = 1` records unless the query includes the copies other
 *   routers exported again; sums leave out what the router dropped, as the aggregates do, so the
 *   RNA's total of a range and filter is the Flow Explorer's.
 * - **Range**: clamped to the records flows_raw holds (its TTL), with the spec's notices.
 * - **Cost**: every read limited to RNA_MAX_ROWS_TO_READ rows (the query door answers 503
 *   `query_too_broad` past it); keyset pages (sql.ts), so page 100 reads what page 1 reads; the
 *   groups of an aggregated query counted up to the top-N, beyond which an Others row sums the rest.
 */
import { z } from "zod";
import { compileNfdumpFilter } from "~/features/filter/nfdump";
import { operatorAsn } from "~/features/filter/operator-as.server";
import { rawRecordConditions, resolveRawRecordFilters, type RawRecordFilters } from "~/features/filter/raw-record-filters.server";
import { forwardingStatusLabel, icmpLabel, protocolLabel } from "~/features/filter/value-labels";
import { effectiveNames } from "~/features/tags/effective-names.server";
import { listAllTags, type TagObject } from "~/features/tags/tags.server";
import { formatInZone } from "~/lib/date-format";
import { formatBitsPerSecond, formatPercent } from "~/lib/units";
import { clampToData } from "~/lib/time-range";
import { SPECIAL_AS_VALUES } from "~/lib/special-as";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import { DEFAULT_LAYOUT } from "~/server/clickhouse-migrations.server";
import { inTurn, queryDoorSettings } from "~/server/clickhouse/limits.server";
import { chQuery } from "~/server/clickhouse/query.server";
import { getUserSettings } from "~/server/settings/user-settings.server";
import type { Services } from "~/server/services.server";
import { mayUseColumn, rnaColumn, type RnaColumnId } from "./columns";
import { decodeCursor, encodeCursor, querySignature } from "./cursor";
import { isAggregated, validateAggregation, type RnaPage, type RnaQuery, type RnaRow, type RnaSums, type RnaValue } from "./query";
import { keyTypes, rnaDataRange, rnaGroupCount, rnaPage, rnaRecordTies, rnaSums, rnaTopGroupSums, type Where } from "./sql";

export type { RnaPage, RnaRow } from "./query";

type Stores = Pick<Services, "pg" | "ch" | "config">;

/** Records read beyond a page (runRnaQuery): how far a run of records tied in the order may reach past it without a second query. */
const RECORD_TIE_MARGIN = 32;

/** Beyond this many groups an aggregated query pages through the first ones and sums the rest in an Others row. */
export const RNA_TOP_GROUPS = 10_000;

/** Raw records are kept this long (flows_raw's TTL, db/clickhouse/0001). */
export const RAW_TTL_SECONDS = DEFAULT_LAYOUT.rawTtlDays * 86_400;

export type RnaRunOptions = { signal?: AbortSignal; now?: number; topGroups?: number };

const invalid = (detail: string, errors: { field: string; message: string }[]) => new ApiProblem(400, { detail, errors });

/** The read settings of every RNA query: the row limit of one query. */
export const rnaReadSettings = (stores: Pick<Services, "config">) => ({ max_rows_to_read: String(stores.config.RNA_MAX_ROWS_TO_READ) });

// ---------------------------------------------------------------------------------------------------------------
// Resolving a query: the parts both the page and the timeseries need

/** What a query selects, resolved for a user: the WHERE conditions beyond the range, and the range after clamping. */
export type ResolvedRnaScope = {
  where: Where;
  range: { start: number; end: number };
  notices: string[];
  /** false: flows_raw holds no record at all. */
  hasData: boolean;
  timezone: string;
};

/** The columns checked against the user's permissions and flags: a 400 naming `enabledColumns.i`. */
export function checkColumns(
  user: Pick<UserContext, "permissions" | "featureFlags">,
  columns: readonly RnaColumnId[],
  field: string,
): void {
  const errors = columns.flatMap((c, i) =>
    mayUseColumn(user, c)
      ? []
      : [{ field: `${field}.${i}`, message: `The column ${rnaColumn(c).label} is not available to you (permission or feature flag).` }],
  );
  if (!columns.length) errors.push({ field, message: "Select at least one column." });
  if (errors.length) throw invalid("Invalid columns.", errors);
}

/** What a query selects beyond its range, resolved for a user: the WHERE conditions, and the user's zone. */
export type ResolvedRnaFilters = { where: Where; timezone: string };

/** The filters and expression of a query, resolved once; a 400/403 for what cannot be applied. */
async function resolveRnaFilters(
  stores: Stores,
  user: UserContext,
  query: Pick<RnaQuery, "filters" | "expression" | "includeCopies">,
  fields: { expression: string },
): Promise<ResolvedRnaFilters> {
  const filters: RawRecordFilters = await resolveRawRecordFilters(stores, user, query.filters, { version: 17 });
  if (filters.refused.length)
    throw new ApiProblem(403, { detail: filters.refused[0].message, exception_code: "permission_denied", errors: filters.refused });
  if (filters.errors.length) throw invalid("Invalid filters.", filters.errors);
  const compiled = compileNfdumpFilter(query.expression, { paramPrefix: "nf" });
  if (!compiled.ok) throw invalid("Invalid filter expression.", [{ field: fields.expression, message: compiled.error.message }]);
  const built = rawRecordConditions(filters);
  const conds = [...(query.includeCopies ? [] : ["counted = 1"]), ...built.conds];
  if (query.expression.trim()) conds.push(compiled.sql);
  const params: Record<string, unknown> = { ...built.params, ...compiled.params };
  const [operator, settings] = await Promise.all([
    built.usesOperator ? operatorAsn(stores) : Promise.resolve(null),
    getUserSettings(stores.pg.db, user.id),
  ]);
  if (operator !== null) params.operatorAsn = operator;
  return { where: { conds, params }, timezone: settings.timezone || "UTC" };
}

/** The filters, expression, scope and range of a query, resolved once; a 400/403 for what cannot be applied. */
export async function resolveRnaScope(
  stores: Stores,
  user: UserContext,
  query: Pick<RnaQuery, "start" | "end" | "filters" | "expression" | "includeCopies">,
  options: { now?: number; fields?: { expression: string; start: string } } = {},
): Promise<ResolvedRnaScope> {
  const fields = options.fields ?? { expression: "filterExpression", start: "startTimestamp" };
  const [filters, data] = await Promise.all([resolveRnaFilters(stores, user, query, fields), rawDataRange(stores)]);
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const { range, notices } = clampRange({ start: query.start, end: query.end }, data, now, filters.timezone);
  return { where: filters.where, range, notices, hasData: data.maxTimestamp !== null, timezone: filters.timezone };
}

const timestamp = z
  .union([z.number(), z.string()])
  .nullable()
  .transform((v) => (v === null ? null : Number(v)));

export type RawDataRange = { minTimestamp: number | null; maxTimestamp: number | null };

/** The first and last record time of flows_raw (the user's raw-flow database override applies). */
export async function rawDataRange(stores: Pick<Services, "ch">): Promise<RawDataRange> {
  const [row] = await chQuery(stores.ch, { ...rnaDataRange(), schema: z.object({ minTimestamp: timestamp, maxTimestamp: timestamp }) });
  return { minTimestamp: row?.minTimestamp ?? null, maxTimestamp: row?.maxTimestamp ?? null };
}

/**
 * The dates the RNA can show (GET api/rna/dateswithdata/): the first record still inside the TTL
 * (expired parts are removed when ClickHouse merges, so older ones may linger) and the newest.
 */
export async function rnaDatesWithData(stores: Pick<Services, "ch">, now = Math.floor(Date.now() / 1000)): Promise<RawDataRange> {
  const data = await rawDataRange(stores);
  if (data.minTimestamp === null || data.maxTimestamp === null) return data;
  return { minTimestamp: Math.min(data.maxTimestamp, Math.max(data.minTimestamp, now - RAW_TTL_SECONDS)), maxTimestamp: data.maxTimestamp };
}

/**
 * The range limited to what flows_raw keeps: from the oldest record still inside the TTL to just
 * after the newest; shell §8's rules: a start before it moves to the first data, a range without
 * data becomes the last 30 minutes of data. Each change is said in a notice.
 */
export function clampRange(
  requested: { start: number; end: number },
  data: RawDataRange,
  now: number,
  timezone: string,
): { range: { start: number; end: number }; notices: string[] } {
  if (data.minTimestamp === null || data.maxTimestamp === null) return { range: requested, notices: [NO_RAW_RECORDS] };
  const min = Math.max(data.minTimestamp, now - RAW_TTL_SECONDS);
  const max = Math.max(min + 1, data.maxTimestamp + 1);
  const clamped = clampToData(requested, min, max);
  const at = (ts: number) => formatInZone(ts * 1000, timezone, "DD.MM.YYYY HH:mm:ss");
  const days = DEFAULT_LAYOUT.rawTtlDays;
  const notices: string[] = [];
  if (clamped.adjusted === "last-30-minutes")
    notices.push(
      `No data for the chosen start or end: the time range is set to the last 30 minutes of raw flow records (${at(clamped.start)} – ${at(clamped.end)}).`,
    );
  if (clamped.adjusted === "start-moved" || clamped.adjusted === "start-moved-end-clamped")
    notices.push(
      `Start date unavailable: raw flow records are kept for ${days} days, so the range starts at the first record, ${at(clamped.start)} (requested ${at(requested.start)}).`,
    );
  return { range: { start: clamped.start, end: clamped.end }, notices };
}

/**
 * Whether two ranges hold the same records, given the data's range: records lie between its first
 * and last time, so the parts of a range outside it hold none.
 */
export function sameRecords(a: { start: number; end: number }, b: { start: number; end: number }, data: RawDataRange): boolean {
  if (data.minTimestamp === null || data.maxTimestamp === null) return true;
  const span = (r: { start: number; end: number }) => {
    const lo = Math.max(r.start, data.minTimestamp as number);
    const hi = Math.min(r.end, (data.maxTimestamp as number) + 1);
    return hi > lo ? `${lo}-${hi}` : "empty";
  };
  return span(a) === span(b);
}

export const NO_RAW_RECORDS = "There are no raw flow records yet: the collector has not written any (or they are older than their TTL).";

// ---------------------------------------------------------------------------------------------------------------
// The page

const num = z.union([z.number(), z.string()]).transform(Number);
const SumsRow = z.object({
  total_bytes: num,
  total_packets: num,
  total_flows: num,
  dropped_bytes: num,
  dropped_packets: num,
  dropped_flows: num,
});
const SumsAndRangeRow = SumsRow.extend({ minTimestamp: timestamp, maxTimestamp: timestamp });
const TopRow = z.object({ total_bytes: num.nullable(), total_packets: num.nullable(), total_flows: num.nullable() });
const PageRow = z.record(z.string(), z.unknown());

/** One page of the query for the user. */
export async function runRnaQuery(stores: Stores, user: UserContext, query: RnaQuery, options: RnaRunOptions = {}): Promise<RnaPage> {
  const started = performance.now();
  checkColumns(user, query.columns, "enabledColumns");
  const aggregation = validateAggregation(query.aggregation);
  if (!aggregation.ok)
    throw invalid(
      "Invalid aggregation prefixes.",
      aggregation.errors.map((e) => ({ field: `aggregationPrefixes.${e.field}`, message: e.message })),
    );
  if (query.sort && !query.columns.includes(query.sort.column))
    throw invalid("Invalid sort.", [{ field: "sort.column", message: "Sort by one of the enabled columns." }]);
  const sqlQuery = { columns: query.columns, aggregation: aggregation.aggregation, sort: query.sort };
  const signature = querySignature(sqlQuery);
  const cursor = query.after === null ? null : decodeCursor(query.after, signature, keyTypes(sqlQuery));
  if (cursor === "invalid")
    throw invalid("Invalid cursor.", [{ field: "after", message: "The cursor does not belong to this query; start from the first page." }]);

  const now = options.now ?? Math.floor(Date.now() / 1000);
  const filters = await resolveRnaFilters(stores, user, query, { expression: "filterExpression" });
  const settings = rnaReadSettings(stores);
  // The range is clamped to the data's, known only from the store: the sums are read over the
  // requested range (after the TTL) in the same statement as the data range, and read again only
  // when clamping changes which records the range holds (a range without data moved to the last 30
  // minutes). One query fewer per page than reading the data range first.
  const requested = { start: Math.max(query.start, now - RAW_TTL_SECONDS), end: query.end };
  let sums: z.output<typeof SumsRow> | undefined;
  let data: RawDataRange;
  if (requested.end > requested.start) {
    const [row] = await chQuery(stores.ch, {
      ...rnaSums({ range: requested }, filters.where, { withDataRange: true }),
      schema: SumsAndRangeRow,
      settings,
    });
    sums = row;
    data = { minTimestamp: row?.minTimestamp ?? null, maxTimestamp: row?.maxTimestamp ?? null };
  } else data = await rawDataRange(stores);
  const { range, notices: rangeNotices } = clampRange({ start: query.start, end: query.end }, data, now, filters.timezone);
  const where = filters.where;
  const empty = (notices: string[]): RnaPage => ({
    rows: [],
    columns: query.columns,
    total: { count: 0, exact: true },
    sums: { bytes: 0, packets: 0, flows: 0 },
    dropped: { bytes: 0, packets: 0, flows: 0 },
    next: null,
    notices,
    range,
    durationMs: Math.round(performance.now() - started),
  });
  if (data.maxTimestamp === null) return empty(rangeNotices);
  if (!sums || !sameRecords(requested, range, data))
    [sums] = await chQuery(stores.ch, { ...rnaSums({ range }, where), schema: SumsRow, settings });

  const q = { ...sqlQuery, range };
  const grouped = isAggregated(aggregation.aggregation);
  const topGroups = options.topGroups ?? RNA_TOP_GROUPS;
  const position = cursor?.position ?? 0;
  const remaining = grouped ? Math.max(0, topGroups - position) : Infinity;
  const want = Math.min(query.pageSize, remaining);
  const skip = cursor?.skip ?? 0;
  const limit = skip + want + 1;
  // Records: a few rows beyond the page, so that a page rarely ends inside records tied in the order
  // without the row hash (see below), which would cost one more query.
  const fetch = grouped ? limit : limit + RECORD_TIE_MARGIN;
  const keyset = cursor ? { values: cursor.values, skip } : null;
  const width = queryDoorSettings(stores.config).perUser;
  // A page of groups counts the groups after it in the same read; past the top N, where no page is
  // read, they are counted apart.
  const [rows, groups] = await inTurn(
    width,
    () =>
      want > 0
        ? chQuery(stores.ch, { ...rnaPage(q, where, { keyset, limit: fetch, countGroups: true }), schema: PageRow, settings })
        : Promise.resolve([]),
    () =>
      grouped && want === 0
        ? chQuery(stores.ch, { ...rnaGroupCount(q, where, topGroups + 1), schema: z.object({ groups: num }), settings })
        : Promise.resolve(null),
  );
  options.signal?.throwIfAborted();

  // A full read of records may have cut the records tied with its last one in the order without the
  // row hash (sql.ts recordsPage), which the hash orders among themselves: harmless when they all
  // lie beyond the rows the page needs, else they are read whole and replace those of the read.
  let page: Record<string, unknown>[] = rows;
  if (!grouped && rows.length >= fetch) {
    const prefix = keysOf(rows[rows.length - 1]).slice(0, -1);
    const firstTied = rows.findIndex((r) => sameKeys(keysOf(r).slice(0, -1), prefix));
    if (firstTied >= limit) page = rows.slice(0, limit);
    else {
      const ties = await chQuery(stores.ch, { ...rnaRecordTies(q, where, { keyset, prefix, limit }), schema: PageRow, settings });
      page = [...rows.filter((r) => !sameKeys(keysOf(r).slice(0, -1), prefix)), ...ties].slice(0, limit);
    }
  }

  // The rows equal to the cursor's keys come first: the pages before gave `skip` of them.
  let dropped = 0;
  const after = page.filter((row) => {
    if (cursor && dropped < skip && sameKeys(keysOf(row), cursor.values)) {
      dropped++;
      return false;
    }
    return true;
  });
  const pageRows = after.slice(0, want);
  const more = after.length > want;
  const totals: RnaSums = { bytes: sums?.total_bytes ?? 0, packets: sums?.total_packets ?? 0, flows: sums?.total_flows ?? 0 };
  const droppedSums: RnaSums = { bytes: sums?.dropped_bytes ?? 0, packets: sums?.dropped_packets ?? 0, flows: sums?.dropped_flows ?? 0 };
  const allBytes = totals.bytes + droppedSums.bytes;
  // The groups the page's read counted include the cursor's own (the keyset starts at it, inclusive).
  const groupCount = !grouped ? 0 : groups ? (groups[0]?.groups ?? 0) : position + Number(rows[0]?.groups_after ?? 0) - dropped;
  const overTop = grouped && groupCount > topGroups;
  const reachedTop = grouped && position + pageRows.length >= topGroups;

  let next: string | null = null;
  const last = pageRows.at(-1);
  if (last && more && !reachedTop) {
    const values = keysOf(last);
    const repeats = pageRows.filter((r) => sameKeys(keysOf(r), values)).length;
    const carried = cursor && sameKeys(values, cursor.values) ? skip : 0;
    next = encodeCursor({ signature, values, skip: carried + repeats, position: position + pageRows.length });
  }

  const seconds = range.end - range.start;
  const labels = await rowLabeller(stores, user, query.columns, pageRows, filters.timezone);
  const out: RnaRow[] = pageRows.map((row) =>
    toRnaRow(row, query.columns, { seconds, allBytes, aggregation: aggregation.aggregation }, labels),
  );
  if (overTop && reachedTop && !next) {
    const [top] = await chQuery(stores.ch, { ...rnaTopGroupSums(q, where, topGroups), schema: TopRow, settings });
    out.push(
      othersRow(
        query.columns,
        {
          bytes: allBytes - (top?.total_bytes ?? 0),
          packets: totals.packets + droppedSums.packets - (top?.total_packets ?? 0),
          flows: totals.flows + droppedSums.flows - (top?.total_flows ?? 0),
        },
        seconds,
        allBytes,
      ),
    );
  }
  const notices = [...rangeNotices];
  if (overTop)
    notices.push(
      `The aggregation gives more than ${topGroups.toLocaleString("en-US")} groups: the table pages through the first ${topGroups.toLocaleString("en-US")} in its order, and an Others row sums the rest.`,
    );
  return {
    rows: out,
    columns: query.columns,
    total: grouped ? { count: Math.min(groupCount, topGroups), exact: !overTop } : { count: totals.flows + droppedSums.flows, exact: true },
    sums: totals,
    dropped: droppedSums,
    next,
    notices,
    range,
    durationMs: Math.round(performance.now() - started),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Rows as the API gives them

/** The order values of a row (key_0 … key_n), as text. */
const keysOf = (row: Record<string, unknown>) =>
  Object.keys(row)
    .filter((k) => k.startsWith("key_"))
    .sort((a, b) => Number(a.slice(4)) - Number(b.slice(4)))
    .map((k) => String(row[k]));
const sameKeys = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

type RowContext = { seconds: number; allBytes: number; aggregation: { v4: number | null; v6: number | null } };

const MAPPED = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

/** An address from its IPv6 column form: IPv4 as a.b.c.d. */
export function addressText(column: string): string {
  const m = MAPPED.exec(column);
  return m ? m[1] : column;
}

/** The folded address as a prefix ("10.1.2.0/24"), or the address itself where its family is not aggregated. */
function prefixText(column: string, aggregation: RowContext["aggregation"]): string {
  const v4 = MAPPED.test(column);
  const length = v4 ? aggregation.v4 : aggregation.v6;
  return length === null ? addressText(column) : `${addressText(column)}/${length}`;
}

const TCP_FLAG_LETTERS = [
  [0x80, "C"],
  [0x40, "E"],
  [0x20, "U"],
  [0x10, "A"],
  [0x08, "P"],
  [0x04, "R"],
  [0x02, "S"],
  [0x01, "F"],
] as const;

/** TCP flags as the letters of the flags set, in the order of the bits (CWR first): 0x12 → "AS", 0x02 → "S". */
export function tcpFlagsText(flags: number): string {
  return TCP_FLAG_LETTERS.filter(([bit]) => flags & bit)
    .map(([, letter]) => letter)
    .join("");
}

const SPECIAL_AS_NAMES = new Map<number, string>(SPECIAL_AS_VALUES.map((s) => [s.asn, s.name]));

type Labeller = {
  asName: (asn: number) => string;
  tags: (row: Record<string, unknown>) => string;
  time: (ts: number) => string;
};

/** The names a page's labels need, read once: AS names, and the tags only when the column is shown. */
async function rowLabeller(
  stores: Stores,
  user: UserContext,
  columns: readonly RnaColumnId[],
  rows: readonly Record<string, unknown>[],
  timezone: string,
): Promise<Labeller> {
  const asColumns = ["as_src", "as_hnd", "as_nxt", "as_dst"].filter((c) => columns.includes(c as RnaColumnId));
  const asns = new Set<number>();
  for (const row of rows) for (const c of asColumns) asns.add(Number(row[`c_${c}`]));
  const names = asns.size ? await (await effectiveNames(stores, user)).ases([...asns]) : new Map();
  let tagList: TagObject[] = [];
  if (columns.includes("tags")) tagList = await listAllTags(stores.pg.db, user);
  return {
    asName: (asn) => {
      const special = SPECIAL_AS_NAMES.get(asn);
      if (special) return special;
      const name = names.get(String(asn))?.name;
      return name ? `AS${asn} ${name}` : `AS${asn}`;
    },
    tags: (row) => {
      const values: Record<string, Set<string>> = {
        AS_NUMBER: new Set(["as_src", "as_hnd", "as_nxt", "as_dst"].map((c) => String(row[`c_tags_${c}`]))),
        ROUTER: new Set([String(row.c_tags_ingress_router), String(row.c_tags_egress_router)].filter(Boolean)),
        INTERFACE: new Set(
          [
            [row.c_tags_ingress_router, row.c_tags_in_if],
            [row.c_tags_egress_router, row.c_tags_out_if],
          ]
            .filter(([r, i]) => r && i)
            .map(([r, i]) => `${String(r)}|${String(i)}`),
        ),
      };
      return tagList
        .filter((t) => values[t.kind] && t.values.some((v) => values[t.kind].has(v)))
        .map((t) => t.name)
        .join(", ");
    },
    time: (ts) => formatInZone(ts * 1000, timezone, "DD.MM.YYYY HH:mm:ss"),
  };
}

/** The value and the label of one column of a row. */
function cell(id: RnaColumnId, row: Record<string, unknown>, ctx: RowContext, labels: Labeller): { value: RnaValue; label: string } {
  const n = (alias: string) => Number(row[alias]);
  const s = (alias: string) => String(row[alias] ?? "");
  const scaledBytes = n("m_bytes_scaled");
  switch (id) {
    case "time_received":
      return { value: n("c_time_received"), label: labels.time(n("c_time_received")) };
    case "exporter_address":
    case "next_hop":
    case "post_nat_src_addr":
    case "post_nat_dst_addr": {
      const text = addressText(s(`c_${id}`));
      return { value: text, label: text === "::" ? "" : text };
    }
    case "src_addr":
    case "dst_addr": {
      const text = isAggregated(ctx.aggregation) ? prefixText(s(`c_${id}`), ctx.aggregation) : addressText(s(`c_${id}`));
      return { value: text, label: text };
    }
    case "in_if":
    case "out_if": {
      const name = s(`c_${id}`);
      const index = n(`c_${id}_index`);
      return { value: name || index, label: name || (index ? `ifIndex ${index}` : "") };
    }
    case "protocol":
      return { value: n("c_protocol"), label: protocolLabel(s("c_protocol")) };
    case "tcp_flags": {
      const flags = n("c_tcp_flags");
      return { value: flags, label: n("c_tcp_flags_protocol") === 6 ? tcpFlagsText(flags) : "" };
    }
    case "icmp_type": {
      const type = n("c_icmp_type");
      const code = n("c_icmp_code");
      const value = type < 0 ? null : type;
      return { value, label: icmpLabel(n("c_icmp_protocol"), value, code < 0 ? null : code) ?? "" };
    }
    case "forwarding_status":
      return { value: n("c_forwarding_status"), label: forwardingStatusLabel(n("c_forwarding_status")) ?? "" };
    case "as_src":
    case "as_hnd":
    case "as_nxt":
    case "as_dst":
      return { value: n(`c_${id}`), label: labels.asName(n(`c_${id}`)) };
    case "application":
    case "infrastructure":
      return { value: s(`c_${id}`), label: s(`c_${id}`) || "Not mapped" };
    case "mpls_labels": {
      const list = (row.c_mpls_labels as unknown[] | undefined)?.map(Number) ?? [];
      return { value: list, label: list.join(" ") };
    }
    case "counted":
      return { value: n("c_counted"), label: n("c_counted") ? "counted" : "re-exported copy" };
    case "tags": {
      const text = labels.tags(row);
      return { value: text, label: text };
    }
    case "sampling_rate":
      return { value: n("c_sampling_rate"), label: `1:${n("c_sampling_rate")}` };
    case "bytes":
    case "packets":
    case "bytes_scaled":
    case "packets_scaled":
    case "flows":
      return { value: n(`m_${id}`), label: n(`m_${id}`).toLocaleString("en-US") };
    case "bps": {
      const bps = (scaledBytes * 8) / ctx.seconds;
      return { value: bps, label: formatBitsPerSecond(bps) };
    }
    case "share": {
      const share = ctx.allBytes > 0 ? scaledBytes / ctx.allBytes : 0;
      return { value: share, label: formatPercent(share) };
    }
    default: {
      const raw = row[`c_${id}`];
      const value = typeof raw === "number" ? raw : String(raw ?? "");
      return { value, label: String(value) };
    }
  }
}

/** A row of the page: the enabled columns' values and labels, the key of its dimension values. */
function toRnaRow(row: Record<string, unknown>, columns: readonly RnaColumnId[], ctx: RowContext, labels: Labeller): RnaRow {
  const values: RnaRow["values"] = {};
  const texts: RnaRow["labels"] = {};
  const key: Record<string, RnaValue> = {};
  for (const id of columns) {
    const c = cell(id, row, ctx, labels);
    values[id] = c.value;
    texts[id] = c.label;
    if (rnaColumn(id).kind === "dimension" && id !== "tags") key[id] = keyValue(id, row, c.value);
  }
  if (!isAggregated(ctx.aggregation)) key[RECORD_KEY] = keysOf(row).join("|");
  // Records: the record's own status; groups: every record of the group was dropped.
  const dropped = "dropped" in row ? Number(row.dropped) === 1 : Number(row.m_dropped_flows) === Number(row.m_flows);
  return { key: encodeRowKey(key), values, labels: texts, isOthers: false, dropped };
}

/** A record's own identity in its key (records are not grouped, so two may share every shown value). */
const RECORD_KEY = "_record";

/** The value a key holds for a column: the column's stored form for addresses (what the timeseries compares). */
function keyValue(id: RnaColumnId, row: Record<string, unknown>, value: RnaValue): RnaValue {
  if (["src_addr", "dst_addr", "exporter_address", "next_hop", "post_nat_src_addr", "post_nat_dst_addr"].includes(id))
    return String(row[`c_${id}`]);
  if (id === "in_if" || id === "out_if") return String(row[`c_${id}`]);
  if (id === "icmp_type") return Number(row.c_icmp_type);
  return value;
}

/** base64url of the key's JSON: opaque to the client, read back by the timeseries (timeseries.server.ts). */
export function encodeRowKey(key: Record<string, RnaValue>): string {
  return Buffer.from(JSON.stringify(key), "utf8").toString("base64url");
}

export function decodeRowKey(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The row that sums the groups beyond the top N: measures only, "Others" in the first dimension. */
function othersRow(columns: readonly RnaColumnId[], sums: RnaSums, seconds: number, allBytes: number): RnaRow {
  const values: RnaRow["values"] = {};
  const labels: RnaRow["labels"] = {};
  const first = columns.find((c) => rnaColumn(c).kind === "dimension");
  for (const id of columns) {
    if (rnaColumn(id).kind === "dimension") {
      values[id] = null;
      labels[id] = id === first ? "Others" : "";
    }
  }
  const put = (id: RnaColumnId, value: number | null, label: string) => {
    if (!columns.includes(id)) return;
    values[id] = value;
    labels[id] = label;
  };
  put("bytes_scaled", sums.bytes, sums.bytes.toLocaleString("en-US"));
  put("packets_scaled", sums.packets, sums.packets.toLocaleString("en-US"));
  put("flows", sums.flows, sums.flows.toLocaleString("en-US"));
  put("bps", (sums.bytes * 8) / seconds, formatBitsPerSecond((sums.bytes * 8) / seconds));
  put("share", allBytes > 0 ? sums.bytes / allBytes : 0, formatPercent(allBytes > 0 ? sums.bytes / allBytes : 0));
  // The sampled counters of the rest are not summed apart: an Others row says what it stands for in scaled figures.
  put("bytes", null, "");
  put("packets", null, "");
  return { key: encodeRowKey({ _others: 1 }), values, labels, isOthers: true, dropped: false };
}
