import { databaseOverrideRoute } from "~/server/auth/database-override.server";

const route = databaseOverrideRoute("overrideClickhouseDb");

export const loader = route.loader;
export const action = route.action;
