/**
 * The security settings page (/settings/security) gives the date a two-factor device was added in
 * the spec's long format (dd.MM.yyyy HH:mm and the timezone) in the user's timezone, whatever the
 * server's or the browser's locale.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpDevices, users, userSettings } from "~db/postgres/schema";
import * as securityRoute from "~/routes/_app.settings_.security";
import { useServicesForTests } from "~/server/services.server";
import { ORIGIN, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
let cookie = "";
let userId = 0;

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const [u] = await stores.pg.db
    .insert(users)
    .values({ email: "sec-dates@sec.test", firstName: "S", passwordHash: "!unusable", hasConsented: true })
    .returning({ id: users.id });
  userId = u.id;
  // 23:30 UTC on 25 November is already the 26th in Auckland (UTC+13 in summer).
  await stores.pg.db
    .insert(totpDevices)
    .values({ userId, name: "Phone", secret: "JBSWY3DPEHPK3PXP", confirmed: true, createdAt: new Date("2026-11-25T23:30:00Z") });
  cookie = await sessionCookie(stores, userId);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

async function devices() {
  const out = await runRoute(
    securityRoute.loader,
    new Request(`${ORIGIN}/settings/security`, { headers: { Cookie: cookie, Accept: "text/html" } }),
  );
  expect(out.status).toBe(200);
  return out.data.devices as { name: string; added: string }[];
}

describe("security settings dates", () => {
  it("the date a device was added: dd.MM.yyyy HH:mm in the user's timezone, which it names", async () => {
    expect(await devices()).toEqual([expect.objectContaining({ name: "Phone", added: "25.11.2026 23:30 UTC" })]);
    await stores.pg.db
      .insert(userSettings)
      .values({ userId, timezone: "Pacific/Auckland" })
      .onConflictDoUpdate({ target: userSettings.userId, set: { timezone: "Pacific/Auckland" } });
    expect(await devices()).toEqual([expect.objectContaining({ name: "Phone", added: "26.11.2026 12:30 Pacific/Auckland" })]);
  });
});
