/**
 * The Alerts screen (/alerts) through its route module: no VIEW_ALERTS → the landing route as
 * every screen; VIEW_ALERTS alone reads and changes nothing (403 on a post); rules created, edited
 * and deleted by plain form posts (PRG, deleting through a confirm step), refused values shown next
 * to their field with the values as typed (never a 500); a delegated account sees and makes only
 * its own rules, inside its restriction; the table's figures — state, its time in the user's
 * timezone, the value that crossed and the limit as the Flow Explorer writes rates — against the
 * stored state and event; acknowledge and silence.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertEvents, alertRules, alertState, delegationRestrictions, userPermissions, users, userSettings } from "~db/postgres/schema";
import { formatUnix } from "~/lib/date-format";
import { formatBitsPerSecond } from "~/lib/units";
import * as route from "~/routes/_app.alerts";
import * as explorer from "~/routes/_app.flow-explorer";
import { useServicesForTests } from "~/server/services.server";
import { formRequest, getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const PATH = "/alerts";
let stores: TestStores;
const uid = { admin: 0, viewer: 0, nobody: 0, customer: 0 };
const cookies = { admin: "", viewer: "", nobody: "", customer: "" };

const RULE = {
  name: "Transit AS 65010 above 10 Mbit/s",
  dimension: "AS_SRC_INGRESS",
  value: "65010",
  filter: "",
  ipVersion: "all",
  metric: "bps",
  condition: "above",
  threshold: "10M",
  bandFactor: "1",
  minDuration: "10",
  hysteresis: "10",
  severity: "critical",
  users: "noc@alerts-screen.test",
  emails: "oncall@example.net",
  webhook: "",
  enabled: "on",
};

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const db = stores.pg.db;
  const insert = async (email: string, permissions: string[], isDelegated = false) => {
    const [row] = await db
      .insert(users)
      .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true, isDelegated })
      .returning({ id: users.id });
    if (permissions.length) await db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
    return row.id;
  };
  uid.admin = await insertSuperuser(stores, "noc@alerts-screen.test");
  await db
    .insert(userSettings)
    .values({ userId: uid.admin, timezone: "Europe/Berlin" })
    .onConflictDoUpdate({ target: userSettings.userId, set: { timezone: "Europe/Berlin" } });
  uid.viewer = await insert("viewer@alerts-screen.test", ["API_FLOWS_4D", "VIEW_ALERTS"]);
  uid.nobody = await insert("nobody@alerts-screen.test", ["API_FLOWS_4D"]);
  uid.customer = await insert("customer@alerts-screen.test", ["API_FLOWS_4D", "VIEW_ALERTS", "MANAGE_ALERTS"], true);
  await db.insert(delegationRestrictions).values({
    userId: uid.customer,
    flowsViewsRestrictions: [{ dimension: "AS_SRC_INGRESS", constrained_values: ["65010"], output: "AS_DST_INGRESS" }],
  });
  for (const k of Object.keys(uid) as (keyof typeof uid)[]) cookies[k] = await sessionCookie(stores, uid[k]);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const get = (query = "", cookie = cookies.admin) => runRoute(route.loader, getRequest(`${PATH}${query}`, cookie));
const post = (fields: Record<string, string>, cookie = cookies.admin) => runRoute(route.action, formRequest(PATH, fields, cookie));
const stored = async (name: string) => (await stores.pg.db.select().from(alertRules).where(eq(alertRules.name, name)))[0];

describe("the Alerts screen", () => {
  it("sends an account without VIEW_ALERTS to its landing route, as every screen", async () => {
    const out = await get("", cookies.nobody);
    expect(out.status).toBe(302);
    expect(out.location).not.toContain("/alerts");
  });

  it("creates a rule from the form (PRG) with every field of the body", async () => {
    const out = await post({ intent: "create", ...RULE });
    expect(out.status, JSON.stringify(out.data)).toBe(302);
    const rule = await stored(RULE.name);
    expect(out.location).toBe(`/alerts?rule=${rule.id}&saved=created`);
    expect(rule).toMatchObject({
      ownerId: uid.admin,
      view: { dimension: "AS_SRC_INGRESS", filter: [], ipVersion: "all", value: "65010" },
      metric: "bps",
      conditionKind: "above",
      threshold: 10_000_000,
      bandFactor: null,
      minDurationSeconds: 600,
      hysteresis: 0.1,
      severity: "critical",
      recipients: { userIds: [uid.admin], groupIds: [], emails: ["oncall@example.net"], webhook: null },
      enabled: true,
    });
    const page = await get(`?rule=${rule.id}&saved=created`);
    expect(page.status).toBe(200);
    expect(page.data.savedMessage).toMatch(/created/);
    const row = page.data.rows.find((r: { id: number }) => r.id === rule.id);
    expect(row).toMatchObject({
      name: RULE.name,
      status: "OK",
      since: null,
      evaluated: false,
      severity: "Critical",
      condition: "above 10.0 Mbit/s",
      minDuration: "10 min",
      value: "–",
      limit: "–",
      viewHref: "/flow-explorer?dimension=AS_SRC_INGRESS&filter=AS_SRC_INGRESS%3A65010",
      rootCause: null,
    });
    expect(page.data.history).toEqual({ id: rule.id, name: RULE.name, events: [] });
    // The edit form shows the stored rule as it was typed.
    const edit = await get(`?edit=${rule.id}`);
    expect(edit.data.edited.form).toMatchObject({ threshold: "10M", minDuration: "10", hysteresis: "10", users: "noc@alerts-screen.test" });
  });

  it("refuses bad values next to their field, keeps what was typed, stores nothing", async () => {
    const out = await post({ intent: "create", ...RULE, name: "Bad one", threshold: "lots", hysteresis: "100", minDuration: "-3" });
    expect(out.status).toBe(400);
    expect(out.data.errors).toMatchObject({
      threshold: expect.stringMatching(/number/),
      hysteresis: "The hysteresis is a percentage from 0 up to (not including) 100.",
      minDuration: "The minimum duration is a number of minutes from 0 to 1440.",
    });
    expect(out.data.form).toMatchObject({ name: "Bad one", threshold: "lots" });
    const noThreshold = await post({ intent: "create", ...RULE, name: "Bad two", threshold: "" });
    expect(noThreshold.data.errors.threshold).toBe("An above or below rule needs its threshold.");
    const badDimension = await post({ intent: "create", ...RULE, name: "Bad three", dimension: "NOPE" });
    expect(badDimension.status).toBe(400);
    expect(badDimension.data.errors.view).toBe("Unknown dimension NOPE.");
    const unknownUser = await post({ intent: "create", ...RULE, name: "Bad four", users: "ghost@nowhere.test" });
    expect(unknownUser.data.errors.users).toBe("No active account with the e-mail address ghost@nowhere.test.");
    const badWebhook = await post({ intent: "create", ...RULE, name: "Bad five", webhook: "https://evil.example" });
    expect(badWebhook.data.errors.webhook).toBe("Choose one of the offered values.");
    for (const n of ["Bad one", "Bad two", "Bad three", "Bad four", "Bad five"]) expect(await stored(n)).toBeUndefined();
  });

  it("shows a viewer the rules without forms, and refuses its posts", async () => {
    const page = await get("", cookies.viewer);
    expect(page.status).toBe(200);
    expect(page.data.manage).toBe(false);
    expect(page.data.newForm).toBeNull();
    expect(page.data.rows.map((r: { name: string }) => r.name)).toContain(RULE.name);
    const out = await post({ intent: "create", ...RULE, name: "Viewer's", users: "" }, cookies.viewer);
    expect(out.status).toBe(403);
    expect(await stored("Viewer's")).toBeUndefined();
  });

  it("lets a delegated account make rules inside its restriction only, and see only its own", async () => {
    const outside = await post({ intent: "create", ...RULE, name: "Outside", value: "65020", users: "" }, cookies.customer);
    expect(outside.status).toBe(400);
    expect(outside.data.errors.view).toBeTruthy();
    const someoneElse = await post({ intent: "create", ...RULE, name: "Mine", users: "noc@alerts-screen.test" }, cookies.customer);
    expect(someoneElse.data.errors.users).toBe("A delegated account can name only itself: noc@alerts-screen.test.");
    const mine = await post({ intent: "create", ...RULE, name: "Mine", users: "customer@alerts-screen.test" }, cookies.customer);
    expect(mine.status).toBe(302);
    const page = await get("", cookies.customer);
    expect(page.data.rows.map((r: { name: string }) => r.name)).toEqual(["Mine"]);
    expect(page.data.showOwner).toBe(false);
    expect(page.data.groups).toEqual([]);
    const admins = await stored(RULE.name);
    const theirs = await get(`?edit=${admins.id}`, cookies.customer);
    expect(theirs.data.edited).toBeNull();
    expect(theirs.data.notices).toEqual(["No alert rule with this id."]);
    const del = await post({ intent: "delete", id: String(admins.id), confirm: "yes" }, cookies.customer);
    expect(del.status).toBe(404);
    expect(await stored(RULE.name)).toBeDefined();
    expect((await get("", cookies.admin)).data.rows.map((r: { name: string }) => r.name)).toEqual([RULE.name, "Mine"]);
  });

  it("shows the state, its time in the user's timezone, the value that crossed and the limit, and the root-cause link", async () => {
    const rule = await stored(RULE.name);
    const at = 1_795_000_200; // a bucket's end
    await stores.pg.db
      .insert(alertState)
      .values({ ruleId: rule.id, status: "Triggered", since: at, lastBucket: at - 300, triggeredAt: at, crossingValue: 12_345_678 });
    await stores.pg.db.insert(alertEvents).values([
      {
        ruleId: rule.id,
        fromStatus: "No data",
        toStatus: "OK",
        bucketStart: at - 1200,
        at: at - 900,
        value: 1_000_000,
        limit: 10_000_000,
        notified: true,
      },
      {
        ruleId: rule.id,
        fromStatus: "OK",
        toStatus: "Triggered",
        bucketStart: at - 300,
        at,
        value: 12_345_678,
        limit: 10_000_000,
        notified: true,
      },
    ]);
    const page = await get(`?rule=${rule.id}`);
    const row = page.data.rows.find((r: { id: number }) => r.id === rule.id);
    expect(page.data.timezone).toBe("Europe/Berlin");
    expect(row).toMatchObject({
      status: "Triggered",
      since: formatUnix(at, "Europe/Berlin"),
      value: formatBitsPerSecond(12_345_678),
      limit: formatBitsPerSecond(10_000_000),
    });
    expect(row.value).toBe("12.3 Mbit/s");
    const start = new Date((at - 86_400) * 1000).toISOString().replace(".000Z", "Z");
    expect(row.rootCause).toBe(
      `/flow-explorer/rootcause?dimension=AS_SRC_INGRESS&value=65010&start=${encodeURIComponent(start)}&duration=1d`,
    );
    // The history: newest first.
    expect(page.data.history.events.map((e: { to: string; at: string }) => [e.to, e.at])).toEqual([
      ["Triggered", formatUnix(at, "Europe/Berlin")],
      ["OK", formatUnix(at - 900, "Europe/Berlin")],
    ]);
    // A viewer without the interfaces permission gets no root-cause link.
    const viewers = (await get("", cookies.viewer)).data.rows.find((r: { id: number }) => r.id === rule.id);
    expect(viewers.rootCause).toBeNull();
  });

  it("acknowledges a triggered rule once, silences and ends the silence", async () => {
    const rule = await stored(RULE.name);
    const ack = await post({ intent: "acknowledge", id: String(rule.id) });
    expect(ack.location).toBe(`/alerts?rule=${rule.id}&saved=acknowledged`);
    const row = (await get()).data.rows.find((r: { id: number }) => r.id === rule.id);
    expect(row.acknowledged.by).toBe("noc@alerts-screen.test");
    const again = await post({ intent: "acknowledge", id: String(rule.id) });
    expect(again.status).toBe(409);
    expect(again.data.errors[""]).toBe("This alert is already acknowledged.");
    const mine = await stored("Mine");
    const notTriggered = await post({ intent: "acknowledge", id: String(mine.id) });
    expect(notTriggered.data.errors[""]).toBe("Only a triggered alert can be acknowledged.");
    expect((await post({ intent: "silence", id: String(rule.id), seconds: "3600" })).location).toBe(
      `/alerts?rule=${rule.id}&saved=silenced`,
    );
    const [state] = await stores.pg.db.select().from(alertState).where(eq(alertState.ruleId, rule.id));
    expect(state.silencedUntil! - Math.floor(Date.now() / 1000)).toBeGreaterThan(3500);
    expect((await get()).data.rows.find((r: { id: number }) => r.id === rule.id).silencedUntil).toBe(
      formatUnix(state.silencedUntil!, "Europe/Berlin"),
    );
    expect((await post({ intent: "silence", id: String(rule.id), seconds: "12345" })).status).toBe(400);
    expect((await post({ intent: "silence", id: String(rule.id), seconds: "0" })).location).toBe(
      `/alerts?rule=${rule.id}&saved=unsilenced`,
    );
  });

  it("edits a rule (its state starts again from OK) and deletes it through the confirm step", async () => {
    const rule = await stored(RULE.name);
    const out = await post({
      intent: "update",
      id: String(rule.id),
      ...RULE,
      condition: "below",
      threshold: "1.5k",
      metric: "pps",
      enabled: "",
    });
    expect(out.location).toBe(`/alerts?rule=${rule.id}&saved=updated`);
    const saved = await stored(RULE.name);
    expect(saved).toMatchObject({ conditionKind: "below", threshold: 1500, metric: "pps", enabled: false });
    const row = (await get()).data.rows.find((r: { id: number }) => r.id === rule.id);
    expect(row).toMatchObject({ status: "OK", condition: "below 1.50 kpackets/s", enabled: false });
    const step = await post({ intent: "delete", id: String(rule.id) });
    expect(step.location).toBe(`/alerts?delete=${rule.id}`);
    expect((await get(`?delete=${rule.id}`)).data.toDelete).toEqual({ id: rule.id, name: RULE.name });
    expect(await stored(RULE.name)).toBeDefined();
    const gone = await post({ intent: "delete", id: String(rule.id), confirm: "yes" });
    expect(gone.location).toBe("/alerts?saved=deleted");
    expect(await stored(RULE.name)).toBeUndefined();
    expect((await post({ intent: "nonsense" })).status).toBe(400);
  });

  it("prefills the new-rule form from the Flow Explorer's parameters", async () => {
    const page = await get("?new=1&dimension=AS_HND_INGRESS&filter=AS_SRC_INGRESS%3A65010&filter=ROUTER_IN%3A!r2&ipVersion=6");
    expect(page.data.newForm).toMatchObject({
      dimension: "AS_HND_INGRESS",
      filter: "AS_SRC_INGRESS:65010\nROUTER_IN:!r2",
      ipVersion: "6",
      value: "",
    });
  });

  it("offers 'Alert on this view' on the Flow Explorer to MANAGE_ALERTS holders only, the view's state in the link", async () => {
    const view = "/flow-explorer?dimension=AS_HND_INGRESS&filter=AS_SRC_INGRESS%3A65010&ipVersion=6";
    const theirs = await runRoute(explorer.loader, getRequest(view, cookies.admin));
    expect(theirs.status).toBe(200);
    expect(theirs.data.showAlertOnView).toBe(true);
    expect(theirs.data.params).toMatchObject({ dimension: "AS_HND_INGRESS", filter: ["AS_SRC_INGRESS:65010"], ipVersion: "6" });
    expect((await runRoute(explorer.loader, getRequest(view, cookies.viewer))).data.showAlertOnView).toBe(false);
    expect((await runRoute(explorer.loader, getRequest(view, cookies.nobody))).data.showAlertOnView).toBe(false);
    expect((await runRoute(explorer.loader, getRequest("/flow-explorer", cookies.customer))).data.showAlertOnView).toBe(true);
  });
});
