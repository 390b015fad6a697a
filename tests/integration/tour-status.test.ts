/**
 * The guided tours' status per user and tour (shell §3: Started, Finished, Failed) through the calls the overlay makes:
 * POST usertracking/tours/{tourId}/ and GET usertracking/tours/, on the test stores. Every transition allowed and
 * refused, read back from the calls and from the table; the audiences (TOUR_DEMOLYTICS, the screens' permissions,
 * staff); the staff's list of failures; an account's deletion taking its statuses along.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tourStatus, userPermissions, users } from "~db/postgres/schema";
import { TOURS } from "~/features/help/tours";
import type { Permission } from "~/lib/permissions";
import * as failuresRoute from "~/routes/usertracking.tours.failures";
import * as listRoute from "~/routes/usertracking.tours";
import * as statusRoute from "~/routes/usertracking.tours.$tourId";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
const uid = { operator: 0, demo: 0, staff: 0 };

async function createUser(email: string, permissions: Permission[], extra: Partial<typeof users.$inferInsert> = {}) {
  const [row] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true, ...extra })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
  return row.id;
}

async function post(userId: number, tourId: string, body: unknown) {
  const res = await callRoute(statusRoute, `/usertracking/tours/${tourId}/`, {
    method: "POST",
    cookie: await sessionCookie(stores, userId),
    body,
    params: { tourId },
  });
  return { status: res.status, data: await res.json() };
}

async function list(userId: number) {
  const res = await callRoute(listRoute, "/usertracking/tours/", { cookie: await sessionCookie(stores, userId) });
  return { status: res.status, data: await res.json() };
}

const rowOf = async (userId: number, tourId: string) =>
  (
    await stores.pg.db
      .select()
      .from(tourStatus)
      .where(and(eq(tourStatus.userId, userId), eq(tourStatus.tourId, tourId)))
  )[0];

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  uid.operator = await createUser("tours-operator@example.org", ["API_FLOWS_4D", "CONTROL_PLANE"]);
  uid.demo = await createUser("tours-demo@example.org", ["API_FLOWS_4D", "FRONTEND_LINK_UTIL_EXTERNAL", "TOUR_DEMOLYTICS"]);
  uid.staff = await createUser("tours-staff@example.org", [], { isStaff: true });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

describe("tour status", () => {
  it("walks Started → Started (next steps) → Finished, and starts again from step 0", async () => {
    const tour = TOURS.find((t) => t.id === "analytics-chapter-1")!;
    expect((await post(uid.operator, tour.id, { status: "Started" })).data).toMatchObject({ tourId: tour.id, status: "Started", step: 0 });
    for (let step = 1; step < tour.steps.length; step++) {
      const r = await post(uid.operator, tour.id, { status: "Started", step });
      expect([r.status, r.data.step]).toEqual([200, step]);
    }
    // A Started without a step keeps the step reached (a resumed tour).
    expect((await post(uid.operator, tour.id, { status: "Started" })).data.step).toBe(tour.steps.length - 1);
    const finished = await post(uid.operator, tour.id, { status: "Finished" });
    expect([finished.status, finished.data.status, finished.data.step]).toEqual([200, "Finished", tour.steps.length - 1]);
    const row = await rowOf(uid.operator, tour.id);
    expect([row.status, row.step, row.failedAnchor]).toEqual(["Finished", tour.steps.length - 1, null]);
    // Finished again, or Failed, from Finished: refused with the status named; the row is unchanged.
    const again = await post(uid.operator, tour.id, { status: "Finished" });
    expect(again).toEqual({ status: 409, data: { detail: `The tour "${tour.id}" is Finished: only a started tour can become Finished.` } });
    expect((await post(uid.operator, tour.id, { status: "Failed", failedAnchor: "explorer-chart" })).status).toBe(409);
    expect((await rowOf(uid.operator, tour.id)).status).toBe("Finished");
    const restarted = await post(uid.operator, tour.id, { status: "Started" });
    expect([restarted.data.status, restarted.data.step]).toEqual(["Started", 0]);
  });

  it("records a Failed tour with its missing anchor, only from Started and only with one of its anchors", async () => {
    const id = "control-plane";
    expect((await post(uid.operator, id, { status: "Failed", failedAnchor: "cp-query" })).data.detail).toBe(
      `The tour "${id}" is not started: only a started tour can become Failed.`,
    );
    expect(await rowOf(uid.operator, id)).toBeUndefined();
    await post(uid.operator, id, { status: "Started", step: 2 });
    expect((await post(uid.operator, id, { status: "Failed" })).status).toBe(400);
    expect((await post(uid.operator, id, { status: "Failed", failedAnchor: "explorer-chart" })).data.detail).toBe(
      `failedAnchor: "explorer-chart" is no anchor of the tour "${id}".`,
    );
    expect((await post(uid.operator, id, { status: "Started", failedAnchor: "cp-query" })).status).toBe(400);
    const failed = await post(uid.operator, id, { status: "Failed", failedAnchor: "cp-rib-view" });
    expect(failed.data).toMatchObject({ status: "Failed", step: 2, failedAnchor: "cp-rib-view" });
    const failures = await callRoute(failuresRoute, "/usertracking/tours/failures/", { cookie: await sessionCookie(stores, uid.staff) });
    const body = await failures.json();
    expect(body.failures).toEqual([
      expect.objectContaining({ tourId: id, step: 2, failedAnchor: "cp-rib-view", email: "tours-operator@example.org" }),
    ]);
    const notStaff = await callRoute(failuresRoute, "/usertracking/tours/failures/", { cookie: await sessionCookie(stores, uid.operator) });
    expect(notStaff.status).toBe(403);
    // Taken again after the failure: Started from step 0, the anchor cleared.
    expect((await post(uid.operator, id, { status: "Started" })).data).toMatchObject({ status: "Started", step: 0, failedAnchor: null });
  });

  it("refuses bad input with a 4xx naming it", async () => {
    expect((await post(uid.operator, "no-such-tour", { status: "Started" })).status).toBe(404);
    expect((await post(uid.operator, "analytics-chapter-1", { status: "Done" })).status).toBe(400);
    expect((await post(uid.operator, "analytics-chapter-1", { status: "Started", step: 6 })).data.detail).toBe(
      'The tour "analytics-chapter-1" has 6 steps: step 6 does not exist (0 to 5).',
    );
    expect((await post(uid.operator, "analytics-chapter-1", { status: "Started", step: -1 })).status).toBe(400);
    expect((await post(uid.operator, "analytics-chapter-1", { status: "Started", extra: 1 })).status).toBe(400);
  });

  it("TOUR_DEMOLYTICS and the screens' permissions decide who may take a tour", async () => {
    expect((await post(uid.operator, "demolytics", { status: "Started" })).status).toBe(403);
    expect((await post(uid.demo, "demolytics", { status: "Started" })).status).toBe(200);
    expect((await post(uid.demo, "control-plane", { status: "Started" })).status).toBe(403);
    expect((await post(uid.operator, "how-to-adopt-an-exporter", { status: "Started" })).status).toBe(403);
    expect((await post(uid.staff, "how-to-adopt-an-exporter", { status: "Started" })).status).toBe(200);
    const operator = (await list(uid.operator)).data;
    const expected = TOURS.filter((t) => (t.audience.permissions ?? []).every((p) => ["API_FLOWS_4D", "CONTROL_PLANE"].includes(p)))
      .filter((t) => !t.audience.siteAdmin && !t.audience.welcome)
      .map((t) => t.id);
    expect(operator.available).toEqual(expected);
    expect(operator.available).not.toContain("demolytics");
    expect(operator.states.map((s: { tourId: string; status: string }) => [s.tourId, s.status])).toEqual([
      ["analytics-chapter-1", "Started"],
      ["control-plane", "Started"],
    ]);
    expect((await list(uid.demo)).data.available).toContain("demolytics");
  });

  it("an account's deletion takes its tour statuses along", async () => {
    const gone = await createUser("tours-leaver@example.org", ["API_FLOWS_4D"]);
    await post(gone, "analytics-chapter-1", { status: "Started" });
    expect(await rowOf(gone, "analytics-chapter-1")).toBeDefined();
    await stores.pg.db.delete(users).where(eq(users.id, gone));
    expect(await stores.pg.db.select().from(tourStatus).where(eq(tourStatus.userId, gone))).toEqual([]);
  });
});
