/**
 * One document request of a logged-in screen, through Remix's request handler as server.mjs runs
 * it: the root, layout and screen loaders share one read of the session, the style and the menu.
 * A request whose action changes the session or the style shows the change in its loaders.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { userPermissions, users } from "~db/postgres/schema";
import * as root from "~/root";
import * as appLayout from "~/routes/_app";
import * as controlPlane from "~/routes/_app.controlplane";
import * as faq from "~/routes/_app.faq";
import * as flowExplorer from "~/routes/_app.flow-explorer";
import { requireUser } from "~/server/auth/guard.server";
import { destroySession } from "~/server/auth/session.server";
import { useServicesForTests } from "~/server/services.server";
import { setPersonalStyle } from "~/server/settings/site-settings.server";
import { requestStyle } from "~/server/site-style.server";
import { CSRF_TOKEN, ORIGIN, sessionCookie } from "../helpers/http";
import { documentHandler, type DocumentOutcome } from "../helpers/request-handler";
import { metricsSnapshot } from "~/server/metrics.server";
import { countingDb } from "../helpers/counting-db";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
let userId: number;
/** PostgreSQL tables read (one entry per select … from) and ClickHouse statements, since the last reset. */
let tablesRead: string[] = [];
let menuQueriesBefore = 0;

const personalStyle = (primary: string) => ({
  company_name: "Reader Net",
  color_primary: primary,
  color_secondary: "#000000",
  color_tertiary: "#ffffff",
});

/**
 * A screen whose action reads the style, changes it and answers with data: its loaders run in the
 * same request, after it.
 */
const restyle = {
  async action({ request }: ActionFunctionArgs) {
    const { services, user } = await requireUser(request);
    const before = await requestStyle(request, services.pg.db, user.id);
    const form = await request.formData();
    const saved = await setPersonalStyle(services.pg.db, user.id, personalStyle(String(form.get("color"))));
    return { before: before.colorPrimary, restyled: saved.ok };
  },
  default: () => null,
};

/** A screen whose action ends the session and answers with data, as a form without a redirect would. */
const endSession = {
  async action({ request }: ActionFunctionArgs) {
    const { services, session } = await requireUser(request);
    await destroySession(services.pg.db, services.config.sessionSecret, request, session.idHash);
    return { ended: true };
  },
  default: () => null,
};

const handle = documentHandler([
  { id: "root", path: "", module: root },
  { id: "routes/_app", parentId: "root", module: appLayout },
  { id: "routes/_app.faq", parentId: "routes/_app", path: "faq", module: faq },
  { id: "routes/_app.flow-explorer", parentId: "routes/_app", path: "flow-explorer", module: flowExplorer },
  { id: "routes/_app.controlplane", parentId: "routes/_app", path: "controlplane", module: controlPlane },
  { id: "routes/_app.restyle", parentId: "routes/_app", path: "restyle", module: restyle },
  { id: "routes/_app.end-session", parentId: "routes/_app", path: "end-session", module: endSession },
]);

const reads = (table: string) => tablesRead.filter((t) => t === table).length;
/** The menu's ClickHouse read, counted by the query door under its name. */
const menuQueries = () => (metricsSnapshot().durations["ch.menu.tablesWithRows"]?.count ?? 0) - menuQueriesBefore;

let cookie: string;
const get = (path: string) => new Request(`${ORIGIN}${path}`, { headers: { Cookie: cookie } });
const post = (path: string, fields: Record<string, string>) =>
  new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });

type RootData = { style: { colorPrimary: string }; user: { email: string } | null };
type FrameData = { style: { colorPrimary: string }; menu: { path: string }[] };
const rootData = (outcome: DocumentOutcome) => outcome.loaderData.root as RootData;
const frameData = (outcome: DocumentOutcome) => outcome.loaderData["routes/_app"] as FrameData;

beforeAll(async () => {
  stores = await openTestStores();
  // Pushed through a wrapper: the tests below replace the array.
  useServicesForTests({
    ...stores,
    pg: { ...stores.pg, db: countingDb(stores.pg.db, { push: (t) => tablesRead.push(t) }) },
    ch: stores.ch,
  });
  const [user] = await stores.pg.db
    .insert(users)
    // Staff: the menu shows the tools whose tables are still empty.
    .values({ email: "reader@example.org", passwordHash: "unused", isStaff: true, hasConsented: true, consentedAt: new Date() })
    .returning({ id: users.id });
  userId = user.id;
  await stores.pg.db.insert(userPermissions).values({ userId, permission: "API_FLOWS_4D" });
  // A personal style: the style is then one read of the styles table by id, for the root and the frame.
  expect((await setPersonalStyle(stores.pg.db, userId, personalStyle("#112233"))).ok).toBe(true);
  cookie = `${await sessionCookie(stores, userId)}; csrftoken=${CSRF_TOKEN}`;
}, 180_000);
afterAll(() => stores?.dispose());

beforeEach(() => {
  tablesRead = [];
  menuQueriesBefore = metricsSnapshot().durations["ch.menu.tablesWithRows"]?.count ?? 0;
});

describe("one document request of a logged-in screen", () => {
  it("reads the session, the style and the menu once for the root, layout and screen loaders", async () => {
    const outcome = await handle(get("/faq"));
    expect(outcome.status).toBe(200);
    expect(Object.keys(outcome.loaderData).sort()).toEqual(["root", "routes/_app", "routes/_app.faq"]);
    expect(rootData(outcome).user?.email).toBe("reader@example.org");
    expect(rootData(outcome).style.colorPrimary).toBe("#112233");
    expect(frameData(outcome).style).toEqual(rootData(outcome).style);
    expect(reads("sessions")).toBe(1);
    expect(reads("styles")).toBe(1);
    expect(reads("vantage_points")).toBe(1);
    expect(menuQueries()).toBe(1);
  });

  it("shares them with a screen that checks its route's permission", async () => {
    const outcome = await handle(get("/flow-explorer"));
    expect(outcome.status).toBe(200);
    expect(frameData(outcome).menu.map((item) => item.path)).toContain("/flow-explorer");
    expect(reads("sessions")).toBe(1);
    expect(reads("styles")).toBe(1);
    expect(reads("vantage_points")).toBe(1);
    expect(menuQueries()).toBe(1);
  });

  it("sends a user without the route's permission to their landing route, from the same menu", async () => {
    const outcome = await handle(get("/controlplane"));
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/flow-explorer");
    expect(reads("sessions")).toBe(1);
    expect(menuQueries()).toBe(1);
  });

  it("reads them again in a separate request", async () => {
    await handle(get("/faq"));
    await handle(get("/faq"));
    expect(reads("sessions")).toBe(2);
    expect(menuQueries()).toBe(2);
  });
});

describe("a request whose action changes what the loaders show", () => {
  it("draws the page with the style the action saved", async () => {
    const outcome = await handle(post("/restyle", { color: "#445566" }));
    expect(outcome.status).toBe(200);
    expect(outcome.actionData).toEqual({ "routes/_app.restyle": { before: "#112233", restyled: true } });
    expect(rootData(outcome).style.colorPrimary).toBe("#445566");
    expect(frameData(outcome).style.colorPrimary).toBe("#445566");
  });

  it("no longer shows the screen once the action ended the session", async () => {
    const outcome = await handle(post("/end-session", {}));
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/login?next=%2Fend-session&expired=1");
    const after = await handle(get("/faq"));
    expect(after.location).toBe("/login?next=%2Ffaq&expired=1");
  });
});
