/**
 * A user's ClickHouse database override on chDB: once set (auth/clickhouse_override/), the flows
 * reads of that user's requests come from the other database; other users, background work and
 * the other tables stay on the application's database.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userPermissions, users } from "~db/postgres/schema";
import * as override from "~/routes/auth.clickhouse_override";
import * as maxTimestamp from "~/routes/api.max_timestamp";
import * as timestamps from "~/routes/api.flows.timestamps";
import { dataRangeQuery } from "~/features/flows/lookup-sql";
import { chCommand, chQuery } from "~/server/clickhouse/query.server";
import { runInRequestScope } from "~/server/request-scope.server";
import { useServicesForTests } from "~/server/services.server";
import { getRequest, jsonRequest, runRoute, sessionCookie, type Outcome } from "../helpers/http";
import { anyRow, openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const ARCHIVED = 1_790_000_100 - (1_790_000_100 % 300);

let stores: TestStores;
let adminCookie: string;
let otherCookie: string;

function served(fn: unknown, request: Request): Promise<Outcome> {
  return runInRequestScope(Object.fromEntries(request.headers), () => runRoute(fn, request));
}

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  adminCookie = await sessionCookie(stores, await insertSuperuser(stores, "admin@example.org"));
  otherCookie = await sessionCookie(stores, await insertSuperuser(stores, "other@example.org"));
  await chCommand(stores.ch, { name: "test.archive", sql: "CREATE DATABASE IF NOT EXISTS flows_archive" });
  for (const table of ["flows_5m", "flows_1h", "flows_raw"])
    await chCommand(stores.ch, { name: "test.archive", sql: `CREATE TABLE flows_archive.${table} AS ${table}` });
  await chCommand(stores.ch, {
    name: "test.archive",
    sql: "INSERT INTO flows_archive.flows_5m (time, bytes) VALUES (toDateTime({t:UInt32}, 'UTC'), 1000)",
    params: { t: ARCHIVED },
  });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

describe("the ClickHouse database override", () => {
  it("moves the flows reads of the user's requests to the other database", async () => {
    const set = await served(
      override.action,
      jsonRequest("/auth/clickhouse_override/", { database: "flows_archive" }, { cookie: adminCookie }),
    );
    expect(set.status).toBe(200);

    const mine = await served(maxTimestamp.loader, getRequest("/api/max_timestamp/", adminCookie));
    expect(mine.data).toEqual({ maxTimestamp: ARCHIVED });
    const range = await served(timestamps.loader, getRequest("/api/flows/timestamps/", adminCookie));
    expect(range.data).toMatchObject({ minTimestamp: ARCHIVED, maxTimestamp: ARCHIVED });
  });

  it("leaves other users and background work on the application's database", async () => {
    const theirs = await served(maxTimestamp.loader, getRequest("/api/max_timestamp/", otherCookie));
    expect(theirs.data).toEqual({ maxTimestamp: null });
    const [background] = await chQuery(stores.ch, { ...dataRangeQuery(), schema: anyRow });
    expect(background).toEqual({ minTimestamp: null, maxTimestamp: null });
  });

  it("applies a stored override only while the user holds CLICKHOUSE_DIRECT_QUERY", async () => {
    const [row] = await stores.pg.db
      .insert(users)
      .values({ email: "analyst@example.org", firstName: "Analyst", passwordHash: "unused", hasConsented: true, consentedAt: new Date() })
      .returning({ id: users.id });
    // Set while the permission was held, then the permission was taken away.
    await stores.pg.db.update(users).set({ overrideClickhouseDb: "flows_archive" }).where(eq(users.id, row.id));
    const cookie = await sessionCookie(stores, row.id);
    const notAllowed = await served(maxTimestamp.loader, getRequest("/api/max_timestamp/", cookie));
    expect(notAllowed.data).toEqual({ maxTimestamp: null });
    await stores.pg.db.insert(userPermissions).values([{ userId: row.id, permission: "CLICKHOUSE_DIRECT_QUERY" }]);
    const allowed = await served(maxTimestamp.loader, getRequest("/api/max_timestamp/", cookie));
    expect(allowed.data).toEqual({ maxTimestamp: ARCHIVED });
  });
});
