import { databaseOverrideRoute } from "~/server/auth/database-override.server";

export const { loader, action } = databaseOverrideRoute("overrideClickhouseRawFlowDb");
