import { rnaExportRoute } from "~/features/rna/export.server";

/** GET /rna/export: the Raw Network Analyzer's table as a file (see rnaExportRoute). */
export const loader = rnaExportRoute.loader;
export const action = rnaExportRoute.action;
