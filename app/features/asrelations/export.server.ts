/**
 * GET /as-relations/export?month=&format=csv|xls|xlsx: the AS Relations table of the month as a
 * file, through the tools' one export path (features/shared/export/export-file.server.ts). Every
 * neighbour and every column, in AS order; numbers stay numbers (bit/s). AS_RELATIONS; 400 for an
 * unsupported format, "Table is empty, nothing to export" when there is no neighbour.
 */
import { z } from "zod";
import { exportResponse, sheetFile, type ExportFile } from "~/features/shared/export/export-file.server";
import { exportFilePrefix, TABLE_FORMATS } from "~/lib/export-files";
import { MESSAGES } from "~/lib/messages";
import type { Sheet } from "~/lib/sheet";
import { ApiProblem, endpoint, resourceRoute } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { getUserSettings } from "~/server/settings/user-settings.server";
import { asRelationsScreen, type AsRelationRow } from "./screen.server";

export const AS_RELATIONS_EXPORT_PATH = "/as-relations/export";

const COLUMNS: { header: string; kind: "text" | "number" | "integer"; cell: (r: AsRelationRow) => string | number }[] = [
  { header: "AS number", kind: "integer", cell: (r) => r.asn },
  { header: "Name", kind: "text", cell: (r) => r.name },
  { header: "Relation", kind: "text", cell: (r) => r.relations },
  { header: "Connection", kind: "text", cell: (r) => r.connections },
  { header: "Links", kind: "text", cell: (r) => r.links },
  { header: "Routers", kind: "text", cell: (r) => r.routers },
  { header: "PeeringDB policy", kind: "text", cell: (r) => r.policy },
  { header: "Declared ratio", kind: "text", cell: (r) => r.declared_ratio },
  { header: "Observed 95th in (bit/s)", kind: "number", cell: (r) => Math.round(r.outbound_p95_bps) },
  { header: "Observed 95th out (bit/s)", kind: "number", cell: (r) => Math.round(r.inbound_p95_bps) },
  { header: "Observed ratio", kind: "text", cell: (r) => r.observed_ratio },
  { header: "Ratios disagree", kind: "text", cell: (r) => (r.disagrees ? "Yes" : "No") },
];

export function asRelationsSheet(rows: readonly AsRelationRow[]): Sheet {
  return {
    title: "AS Relations",
    columns: COLUMNS.map(({ header, kind }) => ({ header, kind })),
    rows: rows.map((r) => COLUMNS.map((c) => c.cell(r))),
  };
}

export async function buildAsRelationsExport(
  services: Services,
  user: UserContext,
  url: URL,
  format: "csv" | "xls" | "xlsx",
): Promise<ExportFile> {
  const settings = await getUserSettings(services.pg.db, user.id);
  const screen = await asRelationsScreen(services, url, "UTC");
  if (!screen.rows.length) throw new ApiProblem(400, { detail: MESSAGES.emptyTableExport });
  const filename = `${exportFilePrefix("as-relations")}${screen.month}.${format}`;
  return sheetFile(asRelationsSheet(screen.rows), format, settings.csv_delimiter, filename);
}

export const asRelationsExportRoute = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "AS_RELATIONS" },
    query: z.object({
      format: z
        .string()
        .optional()
        .refine((f) => f === undefined || (TABLE_FORMATS as readonly string[]).includes(f), {
          error: (issue) => `Unsupported export format "${String(issue.input)}"; use one of ${TABLE_FORMATS.join(", ")}.`,
        }),
    }),
    handler: async ({ request, context, user, query }) =>
      exportResponse(
        await buildAsRelationsExport(context.services, user, new URL(request.url), (query.format ?? "csv") as "csv" | "xls" | "xlsx"),
      ),
  }),
});
