/**
 * A user's ClickHouse database override (users.override_clickhouse_db for the aggregated flows,
 * users.override_clickhouse_raw_flow_db for the raw flows; set by auth/clickhouse_override/ and
 * auth/clickhouse_raw_flow_override/), applied by the query door to every read made for that user.
 *
 * How the database is chosen per query: the flows tables of the statement are qualified with the
 * database, bound as an Identifier parameter (`FROM {flowsDatabase:Identifier}.flows_5m`). The
 * HTTP `database` parameter of @clickhouse/client would do it on a server, but chDB's connection
 * ignores it (and refuses `database` as a setting), and `USE` would switch the one chDB session of
 * the process for every query running after it. A qualified name works the same on both engines,
 * and only moves the flows tables: the other tables of a statement (interface_util_5m, the RIB)
 * stay in the application's database.
 */
import { eq, sql } from "drizzle-orm";
import { users } from "~db/postgres/schema";
import type { Permission } from "~/lib/permissions";
import { userIdForToken } from "../auth/api-tokens.server";
import type { Db } from "../postgres.server";
import { requestIdentity, type RequestScope } from "../request-scope.server";

export type DatabaseOverride = {
  /** Database of flows_5m and flows_1h; null: the application's own. */
  flows: string | null;
  /** Database of flows_raw; null: the application's own. */
  rawFlows: string | null;
};

export const NO_OVERRIDE: DatabaseOverride = { flows: null, rawFlows: null };

/** Who may set an override (auth/clickhouse_override/), and whose stored override is applied. */
const OVERRIDE_PERMISSION: Permission = "CLICKHOUSE_DIRECT_QUERY";

/** The names the override endpoints accept; anything else is never put in a statement. */
const DATABASE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const TABLES: Record<string, { side: keyof DatabaseOverride; param: string }> = {
  flows_5m: { side: "flows", param: "flowsDatabase" },
  flows_1h: { side: "flows", param: "flowsDatabase" },
  flows_raw: { side: "rawFlows", param: "rawFlowsDatabase" },
};

/** A flows table read by a statement (`FROM flows_5m`, `JOIN flows_raw`), not already qualified with a database. */
const TABLE_REFERENCE = /\b(FROM|JOIN)(\s+)(flows_5m|flows_1h|flows_raw)\b(?!\.)/gi;

/** The statement with its flows tables read from the override's databases, and the parameters that name them. */
export function qualifyFlowsTables(
  sql: string,
  params: Record<string, unknown>,
  override: DatabaseOverride,
): { sql: string; params: Record<string, unknown> } {
  if (!override.flows && !override.rawFlows) return { sql, params };
  const bound: Record<string, unknown> = {};
  const qualified = sql.replace(TABLE_REFERENCE, (whole, keyword: string, space: string, table: string) => {
    const { side, param } = TABLES[table.toLowerCase()];
    const database = override[side];
    if (!database) return whole;
    if (!DATABASE_NAME.test(database)) throw new Error(`Invalid ClickHouse database override ${JSON.stringify(database)}`);
    bound[param] = database;
    return `${keyword}${space}{${param}:Identifier}.${table}`;
  });
  return { sql: qualified, params: { ...params, ...bound } };
}

/** The user a request acts for: its session's user, else its API token's, else none. */
async function requestUserId(scope: RequestScope, stores: { db: Db; sessionSecret: string }): Promise<number | null> {
  const identity = await requestIdentity(scope, stores);
  if (identity.startsWith("user:")) return Number(identity.slice("user:".length));
  if (!identity.startsWith("token:")) return null;
  const authorization = scope.headers.authorization;
  return userIdForToken(stores.db, typeof authorization === "string" ? authorization : null);
}

async function readOverride(scope: RequestScope, stores: { db: Db; sessionSecret: string }): Promise<DatabaseOverride> {
  const userId = await requestUserId(scope, stores);
  if (userId === null) return NO_OVERRIDE;
  // The override is honoured only while the user still holds the permission that set it: a user who
  // lost CLICKHOUSE_DIRECT_QUERY reads the application's database again, whatever is still stored.
  const [row] = await stores.db
    .select({
      flows: users.overrideClickhouseDb,
      rawFlows: users.overrideClickhouseRawFlowDb,
      // Column names qualified by hand: drizzle leaves them bare inside a template, which is ambiguous in the subqueries.
      allowed: sql<boolean>`(users.is_superuser
        OR EXISTS (SELECT 1 FROM user_permissions up WHERE up.user_id = users.id AND up.permission = ${OVERRIDE_PERMISSION})
        OR EXISTS (SELECT 1 FROM group_permissions gp JOIN user_groups ug ON ug.group_id = gp.group_id
                   WHERE ug.user_id = users.id AND gp.permission = ${OVERRIDE_PERMISSION}))`,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row?.allowed ? { flows: row.flows || null, rawFlows: row.rawFlows || null } : NO_OVERRIDE;
}

/** Read once per request, on its first ClickHouse read: later reads of the request reuse it. */
const perRequest = new WeakMap<RequestScope, Promise<DatabaseOverride>>();

/** The override of the user a request scope acts for. */
export function requestDatabaseOverride(scope: RequestScope, stores: { db: Db; sessionSecret: string }): Promise<DatabaseOverride> {
  let override = perRequest.get(scope);
  if (!override) {
    override = readOverride(scope, stores);
    perRequest.set(scope, override);
  }
  return override;
}
