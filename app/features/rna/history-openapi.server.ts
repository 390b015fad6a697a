/** The OpenAPI description of the RNA query history (usertracking/rna_history/), handed to the catalogue by app/wiring.server.ts. */
import { bool, int, nullable, obj, arr, str, toJsonSchema, type Operation } from "~/server/api/openapi.server";
import { RNA_HISTORY_KEPT, RNA_HISTORY_PAGE_SIZE, rnaHistoryQueryParams, rnaHistoryQuerySchema } from "./history-schema";
import { RAW_RETENTION_DAYS } from "./history.server";

const entry = obj({
  id: int,
  time: { type: "string", format: "date-time", description: "when the query ran (UTC)" },
  query: nullable(toJsonSchema(rnaHistoryQuerySchema)),
  rowCount: int,
  rowCountExact: { ...bool, description: "false: rowCount is a lower bound (more than rowCount rows)" },
  durationMs: int,
  rerunUrl: nullable({ ...str, description: "the /rna address that runs the query again" }),
  rangeLeftRetention: nullable({ enum: ["partly", "entirely"] }),
  notice: nullable(str),
});

export const RNA_HISTORY_OPERATIONS: Operation[] = [
  {
    file: "usertracking.rna_history.ts",
    method: "GET",
    path: "/usertracking/rna_history/",
    summary: `The caller's own last ${RNA_HISTORY_KEPT} Raw Network Analyzer queries, newest first, ${RNA_HISTORY_PAGE_SIZE} a page.`,
    description: `Each entry: when it ran, the query (range in unix seconds, columns, filters, filter expression, prefix aggregation, copies, sort), the rows it matched, its duration, the /rna link that runs it again, and — when its range is older than the ${RAW_RETENTION_DAYS} days raw flows are kept — rangeLeftRetention with a notice. page: 1 (the newest) when absent; a page outside 1 to ${Math.ceil(RNA_HISTORY_KEPT / RNA_HISTORY_PAGE_SIZE)} is a 400 naming it.`,
    access: { permission: "RAW_NETWORK_ANALYZER" },
    query: rnaHistoryQueryParams,
    response: obj({ page: int, pageSize: int, count: int, pages: int, kept: int, retentionDays: int, entries: arr(entry) }),
  },
];
