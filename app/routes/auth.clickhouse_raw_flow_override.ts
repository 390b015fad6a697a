import { databaseOverrideRoute } from "~/server/auth/database-override.server";

const route = databaseOverrideRoute("overrideClickhouseRawFlowDb");

export const loader = route.loader;
export const action = route.action;
