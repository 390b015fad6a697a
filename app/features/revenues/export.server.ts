/**
 * The month's bills of Revenues & Costs as a file through the tools' one export path
 * (features/shared/export/export-file.server.ts): csv (the user's delimiter), xls, xlsx; amounts
 * and rates stay numbers. The screen's permission and its refusal of delegated accounts apply;
 * 400 "Table is empty, nothing to export" for a month without bills.
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
import { CONTRACT_CSV_COLUMNS, INTERFACE_SEPARATOR } from "./contract-csv";
import { canManageContracts, listContracts, type ContractView } from "./contracts.server";
import { loadRevenuesScreen, type BillRow } from "./screen.server";

const FORMATS = TABLE_FORMATS as readonly ("csv" | "xls" | "xlsx")[];

export function billsSheet(bills: readonly BillRow[], monthLabel: string): Sheet {
  return {
    title: `Revenues & Costs ${monthLabel}`,
    columns: [
      { header: "Contract", kind: "text" },
      { header: "Partner AS", kind: "text" },
      { header: "Direction", kind: "text" },
      { header: "Method", kind: "text" },
      { header: "Ports", kind: "text" },
      { header: "Billed 95th (Mbit/s)", kind: "number" },
      { header: "Completeness (%)", kind: "number" },
      { header: "Sources", kind: "text" },
      { header: "Charges (EUR)", kind: "number" },
      { header: "Effective price (EUR per Mbit/s)", kind: "number" },
    ],
    rows: bills.map((b) => [
      b.contract,
      b.partner,
      b.directionLabel,
      b.method,
      b.ports,
      b.billed95thMbps === null ? "" : Math.round(b.billed95thMbps * 1000) / 1000,
      Math.round(b.completeness * 10000) / 100,
      b.sources,
      b.totalEur,
      b.perBilledMbpsEur === null ? "" : Math.round(b.perBilledMbpsEur * 10000) / 10000,
    ]),
  };
}

/** The contracts in the CSV import's own columns (docs/revenues-and-costs.md "Importing contracts"): read back by the import. */
export function contractsSheet(list: readonly ContractView[]): Sheet {
  const columns = Object.entries(CONTRACT_CSV_COLUMNS);
  return {
    title: "Contracts",
    columns: columns.map(([header, field]) => ({
      header,
      kind: field.endsWith("Eur") || field === "commitMbps" ? ("number" as const) : ("text" as const),
    })),
    rows: list.map((c) =>
      columns.map(([, field]) => {
        if (field === "interfaceIds") return c.ports.map((p) => `${p.router} ${p.interface}`).join(INTERFACE_SEPARATOR);
        const value = c[field];
        return value === null ? "" : typeof value === "number" ? value : String(value);
      }),
    ),
  };
}

export async function buildRevenuesExport(
  services: Services,
  user: UserContext,
  url: URL,
  format: "csv" | "xls" | "xlsx",
): Promise<ExportFile> {
  const settings = await getUserSettings(services.pg.db, user.id);
  if (url.searchParams.get("table") === "contracts") {
    // The contracts are listed to those who edit them (the screen's contracts part): never to delegated accounts.
    if (!canManageContracts(user)) throw new ApiProblem(403, { detail: "Only those who may edit contracts can export them." });
    const list = await listContracts(services.pg.db);
    if (!list.length) throw new ApiProblem(400, { detail: MESSAGES.emptyTableExport });
    return sheetFile(
      contractsSheet(list),
      format,
      settings.csv_delimiter,
      `${exportFilePrefix("contracts")}${new Date().toISOString().slice(0, 10)}.${format}`,
    );
  }
  const screen = await loadRevenuesScreen(services, user, url);
  if (!screen.totals) throw new ApiProblem(400, { detail: screen.notices.join(" ") || MESSAGES.emptyTableExport });
  if (!screen.bills.length) throw new ApiProblem(400, { detail: MESSAGES.emptyTableExport });
  const filename = `${exportFilePrefix("revenues-and-costs")}${screen.month}.${format}`;
  return sheetFile(billsSheet(screen.bills, screen.monthLabel), format, settings.csv_delimiter, filename);
}

/** GET /revenues-and-costs/export?month=YYYY-MM&format=csv|xls|xlsx; table=contracts: the contracts in the import's format. */
export const revenuesExportRoute = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "REVENUES_AND_COSTS" },
    query: z.object({
      month: z.string().optional(),
      table: z.enum(["bills", "contracts"], { error: 'Unknown table; use "bills" (the month\'s bills) or "contracts".' }).optional(),
      format: z
        .string()
        .optional()
        .refine((f) => f === undefined || (FORMATS as readonly string[]).includes(f), {
          error: (issue) => `Unsupported export format "${String(issue.input)}"; use one of ${FORMATS.join(", ")}.`,
        }),
    }),
    handler: async ({ request, context, user, query }) => {
      const format = (query.format ?? "csv") as (typeof FORMATS)[number];
      return exportResponse(await buildRevenuesExport(context.services, user, new URL(request.url), format));
    },
  }),
});
