import { expect } from "vitest";
import { userPermissions, users } from "~db/postgres/schema";
import * as screenRoute from "~/routes/_app.controlplane";
import { ORIGIN, runRoute, sessionCookie } from "./http";
import type { TestStores } from "./stores";

/** The Control Plane screen's loader data for a search string, as the logged-in user of `cookie` (expects 200). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function controlPlaneScreen(cookie: string, search: string): Promise<any> {
  const out = await runRoute(
    screenRoute.loader,
    new Request(`${ORIGIN}/controlplane?${search}`, { headers: { Cookie: cookie, Accept: "text/html" } }),
  );
  expect(out.status).toBe(200);
  return out.data;
}

/** A user with the CONTROL_PLANE permission and a logged-in session; returns its cookie. */
export async function controlPlaneUser(stores: TestStores, email: string): Promise<string> {
  const [u] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "C", passwordHash: "!unusable", hasConsented: true })
    .returning({ id: users.id });
  await stores.pg.db.insert(userPermissions).values({ userId: u.id, permission: "CONTROL_PLANE" });
  return sessionCookie(stores, u.id);
}
