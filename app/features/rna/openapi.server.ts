/** The OpenAPI description of the Raw Network Analyzer's calls, handed to the catalogue by app/wiring.server.ts. */
import { anyObject, arr, bool, int, nullable, num, obj, str, unix, type Operation } from "~/server/api/openapi.server";
import { RNA_COLUMN_IDS } from "./columns";
import { rnaBodySchema, rnaTimeseriesBodySchema } from "./request-schema";

const FILTERS =
  'filters: {dimension, values} objects or the URL form "KIND:value,!value". dimension is a flow dimension (as api/flows/) or a raw-record kind: ' +
  "SRC_PREFIX, DST_PREFIX, PREFIX (either side), AS_SRC, AS_DST, AS (either side), AS_HND, AS_NXT, NEXT_HOP (an address or prefix), EXPORTER " +
  '(a name or address). A value may be negated with ! and scoped to a VRF with @name ("DST_PREFIX:10.1.2.0/24@CUST_A"). ' +
  "filterExpression: nfdump's filter language (docs/rna.md); an error names its column. ";

const sums = obj({ bytes: num, packets: num, flows: int });

export const RNA_OPERATIONS: Operation[] = [
  {
    file: "api.rna.ts",
    method: "POST",
    path: "/api/rna/",
    summary: "One page of raw flow records, or of prefix-aggregated groups, with the query's totals.",
    description:
      `enabledColumns: at least one of ${RNA_COLUMN_IDS.join(", ")} (application and infrastructure need RNA_APPLICATIONS_AND_INFRASTRUCTURE, tags the flag rnaTagColumn). ` +
      'aggregationPrefixes: {"v4": 1–32 or null, "v6": 1–128 or null}; with either set, addresses are folded to the prefix and rows grouped by every enabled column, ' +
      "bytes and packets summed after scaling each record by its own sampling rate. " +
      FILTERS +
      "includeCopies: also the records other routers exported again (counted = 0). sort: {column, direction}; paging: pageSize (1–1000, default 100) and after (the previous page's next). " +
      "The range is clamped to what flows_raw keeps (notices say so). sums: carried traffic of counted records (equal to the Flow Explorer's total for the same range and filters); dropped: what the router dropped. " +
      "total.exact false: more than total.count groups (an Others row sums the rest). A query that would read more than RNA_MAX_ROWS_TO_READ rows answers 503 query_too_broad.",
    access: { permission: "RAW_NETWORK_ANALYZER" },
    body: rnaBodySchema,
    response: obj({
      rows: arr(obj({ key: str, values: anyObject, labels: anyObject, isOthers: bool, dropped: bool })),
      columns: arr(str),
      total: obj({ count: int, exact: bool }),
      sums,
      dropped: sums,
      next: nullable(str),
      notices: arr(str),
      range: obj({ start: unix, end: unix }),
      durationMs: int,
    }),
  },
  {
    file: "api.rna.timeseries.ts",
    method: "POST",
    path: "/api/rna/timeseries/",
    summary: "bit/s per bucket of the current page's rows, one series per value of the grouped column.",
    description:
      "currentPageData: the page's row keys (rows[].key, or the rows themselves: only key is read). The range, filters, expression and the caller's " +
      "restriction are applied again, so a key selects nothing the query could not read. " +
      FILTERS,
    access: { permission: "RAW_NETWORK_ANALYZER" },
    body: rnaTimeseriesBodySchema,
    response: obj({
      window: int,
      buckets: arr(unix),
      series: arr(obj({ key: str, label: str, values: arr(num) })),
      range: obj({ start: unix, end: unix }),
      notices: arr(str),
    }),
  },
  {
    file: "api.rna.dateswithdata.ts",
    method: "GET",
    path: "/api/rna/dateswithdata/",
    summary: "First and last record time of the raw flow records (inside their TTL).",
    access: { permission: "RAW_NETWORK_ANALYZER" },
    response: arr(obj({ minTimestamp: nullable(unix), maxTimestamp: nullable(unix) })),
  },
];
