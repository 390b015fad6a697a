import { eq } from "drizzle-orm";
import { z } from "zod";
import { users } from "~db/postgres/schema";
import { apiError, endpoint, resourceRoute } from "../api/contract.server";
import { MESSAGES } from "~/lib/messages";
import { chQuery } from "../clickhouse/query.server";

const Override = z.object({
  database: z
    .string()
    .trim()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a ClickHouse database name (letters, digits, underscore)")
    .nullable(),
});

/**
 * The flowlens tables an override's database must hold: the aggregated flows for
 * override_clickhouse_db, the raw flows for the raw-flow override. A database without them would
 * turn every flows screen into an error, so it is refused when it is set.
 */
const REQUIRED_TABLES: Record<"overrideClickhouseDb" | "overrideClickhouseRawFlowDb", string[]> = {
  overrideClickhouseDb: ["flows_5m", "flows_1h"],
  overrideClickhouseRawFlowDb: ["flows_raw"],
};

/**
 * POST auth/clickhouse_override/ and auth/clickhouse_raw_flow_override/ {database | null}: an
 * administrator reads flows (or raw flows) from another ClickHouse database that holds the
 * flowlens schema; null clears it. Every page then shows the "Database override active" warning.
 */
export function databaseOverrideRoute(column: "overrideClickhouseDb" | "overrideClickhouseRawFlowDb") {
  return resourceRoute({
    POST: endpoint({
      method: "POST",
      access: { permission: "CLICKHOUSE_DIRECT_QUERY" },
      body: Override,
      handler: async ({ context, user, body }) => {
        const { services } = context;
        if (body.database) {
          const required = REQUIRED_TABLES[column];
          const present = await chQuery(services.ch, {
            name: "databaseOverride.tables",
            sql: "SELECT name FROM system.tables WHERE database = {name:String} AND name IN {tables:Array(String)}",
            params: { name: body.database, tables: required },
            schema: z.object({ name: z.string() }),
          });
          const missing = required.filter((t) => !present.some((p) => p.name === t));
          if (missing.length)
            return apiError(400, MESSAGES.emptyDatabase, {
              errors: [
                {
                  field: "database",
                  message:
                    missing.length === required.length
                      ? `${body.database} does not exist or holds none of the flowlens tables ${required.join(", ")}`
                      : `${body.database} lacks the flowlens table${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`,
                },
              ],
            });
        }
        await services.pg.db
          .update(users)
          .set({ [column]: body.database })
          .where(eq(users.id, user.id));
        return { database: body.database };
      },
    }),
  });
}
