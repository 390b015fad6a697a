import { plannerExportRoute } from "~/features/planners/export.server";

/** GET /core-planner/export: the Core Planner's link table as a file (see plannerExportRoute). */
const route = plannerExportRoute("core");

export const loader = route.loader;
export const action = route.action;
