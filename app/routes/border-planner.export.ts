import { plannerExportRoute } from "~/features/planners/export.server";

/** GET /border-planner/export: the Border Planner's link table as a file (see plannerExportRoute). */
const route = plannerExportRoute("border");

export const loader = route.loader;
export const action = route.action;
