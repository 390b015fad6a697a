import { revenuesExportRoute } from "~/features/revenues/export.server";

/** GET /revenues-and-costs/export: the month's bills of Revenues & Costs as a file (see revenuesExportRoute). */
export const loader = revenuesExportRoute.loader;
export const action = revenuesExportRoute.action;
