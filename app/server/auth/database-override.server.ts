import { eq } from "drizzle-orm";
import { z } from "zod";
import { users } from "~db/postgres/schema";
import { apiError, endpoint, resourceRoute } from "../api/contract.server";
import { chQuery } from "../clickhouse/query.server";

const Override = z.object({
  database: z
    .string()
    .trim()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a ClickHouse database name (letters, digits, underscore)")
    .nullable(),
});

/**
 * POST auth/clickhouse_override/ and auth/clickhouse_raw_flow_override/ {database | null}: an
 * administrator reads flows (or raw flows) from another ClickHouse database; null clears it.
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
          const [{ n }] = await chQuery(services.ch, {
            name: "databaseOverride.exists",
            sql: "SELECT toUInt32(count()) AS n FROM system.databases WHERE name = {name:String}",
            params: { name: body.database },
            schema: z.object({ n: z.coerce.number() }),
          });
          if (Number(n) === 0)
            return apiError(400, "Invalid request body.", {
              errors: [{ field: "database", message: `no ClickHouse database named ${body.database}` }],
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
