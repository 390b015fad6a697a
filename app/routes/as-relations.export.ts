import { asRelationsExportRoute } from "~/features/asrelations/export.server";

/** GET /as-relations/export: the AS Relations table as a file (see asRelationsExportRoute). */
export const loader = asRelationsExportRoute.loader;
export const action = asRelationsExportRoute.action;
