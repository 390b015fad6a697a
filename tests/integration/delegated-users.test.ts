/**
 * The Delegated Users screen (/manage-delegated-users) and auth/delegated_users/ on a 2-day demo
 * network: every action for every role (superuser, staff, a MANAGE_DELEGATED_USERS holder with
 * their own account and another's, a user without the permission, a delegated user), the checks
 * of the form (e-mail, permissions, restriction values per dimension, inventory lists), the audit
 * entries, the invitation mail, ending access, and the preview, whose figures must equal an
 * independent recomputation from flows_5m rows read with a plain SELECT.
 */
import { and, desc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ASES, OPERATOR_ASN } from "~db/demo/catalog";
import { auditLog, delegationRestrictions, outboxEmails, sessions, siteSettings, userPermissions, users } from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import type { Permission } from "~/lib/permissions";
import * as screenRoute from "~/routes/_app.manage-delegated-users";
import * as listRoute from "~/routes/auth.delegated_users";
import * as oneRoute from "~/routes/auth.delegated_users.$id";
import { checkResetToken } from "~/server/auth/password-reset.server";
import { userMenu } from "~/server/auth/guard.server";
import { loadUserContext } from "~/server/auth/user-context.server";
import { welcomePageFor } from "~/server/auth/welcome-page.server";
import { getServices, useServicesForTests } from "~/server/services.server";
import { readFlowRows } from "../helpers/flow-rows";
import { callRoute, formRequest, getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openDemoStores } from "../helpers/demo-template";
import { type TestStores } from "../helpers/stores";
import { demoTestNow } from "../helpers/clock";

const NOW = demoTestNow();
const CUSTOMERS = DEMO_ASES.filter((a) => a.connection === "customer").sort((a, b) => b.weight - a.weight);
const TOP_CUSTOMER = CUSTOMERS[0].asn;

let stores: TestStores;
const uid = { admin: 0, staff: 0, managerA: 0, managerB: 0, plain: 0, delegated: 0 };
const cookies: Record<keyof typeof uid, string> = { admin: "", staff: "", managerA: "", managerB: "", plain: "", delegated: "" };

async function createUser(email: string, permissions: Permission[], extra: Partial<typeof users.$inferInsert> = {}) {
  const [row] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "M", lastName: "M", passwordHash: "!unusable", hasConsented: true, ...extra })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
  return row.id;
}

beforeAll(async () => {
  stores = await openDemoStores({ now: NOW, days: 2 });
  useServicesForTests(stores);
  uid.admin = (await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@flowlens.example")))[0].id;
  uid.staff = await createUser("staff@du.test", ["MANAGE_DELEGATED_USERS", "API_FLOWS_4D"], { isStaff: true });
  uid.managerA = await createUser("a@du.test", ["MANAGE_DELEGATED_USERS", "API_FLOWS_4D", "PRIVATE_LOOKING_GLASS", "VIEW_USERS"]);
  uid.managerB = await createUser("b@du.test", ["MANAGE_DELEGATED_USERS", "API_FLOWS_4D"]);
  uid.plain = await createUser("plain@du.test", ["API_FLOWS_4D"]);
  uid.delegated = await createUser("customer@du.test", ["API_FLOWS_4D"], { isDelegated: true, delegatedById: uid.managerA });
  await stores.pg.db.insert(delegationRestrictions).values({
    userId: uid.delegated,
    flowsViewsRestrictions: [{ dimension: "AS_DST_INGRESS", constrained_values: [String(TOP_CUSTOMER)], output: "AS_SRC_INGRESS" }],
  });
  for (const key of Object.keys(uid) as (keyof typeof uid)[]) cookies[key] = await sessionCookie(stores, uid[key]);
}, 300_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
async function api(module: object, method: string, path: string, who: keyof typeof uid, body?: unknown, id?: number) {
  const res = await callRoute(module as never, path, { method, cookie: cookies[who], body, params: id ? { id: String(id) } : {} });
  const text = await res.text();
  return { status: res.status, data: (text ? JSON.parse(text) : null) as Json };
}
const account = (email: string, extra: Record<string, unknown> = {}) => ({
  email,
  first_name: "Cu",
  last_name: "Stomer",
  permissions: ["API_FLOWS_4D"],
  flows_views_restrictions: [{ dimension: "AS_DST_INGRESS", constrained_values: [`AS${TOP_CUSTOMER}`], output: "AS_SRC_INGRESS" }],
  external_links_views_restrictions: { ASNumberList: [TOP_CUSTOMER], routerList: ["fra-er1"], interfaceList: [] },
  welcome_text: "Hello customer.",
  ...extra,
});
const auditOf = (id: number) =>
  stores.pg.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, "delegated_user"), eq(auditLog.targetId, String(id))))
    .orderBy(desc(auditLog.id));

describe("auth/delegated_users/", () => {
  it("a manager creates an account: stored normalised, audited, invited with a 72-hour single-use link", async () => {
    const made = await api(listRoute, "POST", "/auth/delegated_users", "managerA", account("new1@cust.test"));
    expect(made.status).toBe(201);
    expect(made.data).toMatchObject({
      email: "new1@cust.test",
      is_active: true,
      has_password: false,
      delegated_by: { id: uid.managerA, email: "a@du.test" },
      permissions: ["API_FLOWS_4D"],
      flows_views_restrictions: [{ dimension: "AS_DST_INGRESS", constrained_values: [String(TOP_CUSTOMER)], output: "AS_SRC_INGRESS" }],
      external_links_views_restrictions: { ASNumberList: [TOP_CUSTOMER], routerList: ["fra-er1"], interfaceList: [] },
      welcome_text: "Hello customer.",
    });
    const [entry] = await auditOf(made.data.id);
    expect(entry).toMatchObject({ action: "delegated_user.create", actorUserId: uid.managerA, targetLabel: "new1@cust.test" });
    expect(entry.after).toMatchObject({ email: "new1@cust.test", permissions: ["API_FLOWS_4D"] });
    const [mail] = await stores.pg.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.to, "new1@cust.test"))
      .orderBy(desc(outboxEmails.id));
    expect(mail.body).toContain("within 72 hours");
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.body)![1];
    expect(await checkResetToken(stores.pg.db, token)).toMatchObject({ userId: made.data.id });
    // /welcome shows the account's own text while the site shows the welcome page.
    await stores.pg.db.update(siteSettings).set({ welcomePageEnabled: true }).where(eq(siteSettings.id, 1));
    expect((await welcomePageFor(stores.pg.db, { id: made.data.id, isDelegated: true }))?.text).toBe("Hello customer.");
    // …and its menu lists Welcome after Delegated Users' place (shell §2 menu order), only while the site shows the page.
    const welcomed = (await loadUserContext(stores.pg.db, made.data.id))!;
    expect((await userMenu(await getServices(), welcomed)).map((m) => m.menuLabel)).toContain("Welcome");
    await stores.pg.db.update(siteSettings).set({ welcomePageEnabled: false }).where(eq(siteSettings.id, 1));
    expect((await userMenu(await getServices(), welcomed)).map((m) => m.menuLabel)).not.toContain("Welcome");
  });

  it("the Sankey can be given to a delegated account; the indirect-traffic figures cannot", async () => {
    const made = await api(
      listRoute,
      "POST",
      "/auth/delegated_users",
      "admin",
      account("sankey@cust.test", { permissions: ["API_FLOWS_4D", "SANKEY_TOPOLOGY"] }),
    );
    expect(made.status).toBe(201);
    expect([...made.data.permissions].sort()).toEqual(["API_FLOWS_4D", "SANKEY_TOPOLOGY"]);
    expect((await loadUserContext(stores.pg.db, made.data.id))!.permissions).toContain("SANKEY_TOPOLOGY");
    const refused = await api(
      listRoute,
      "POST",
      "/auth/delegated_users",
      "admin",
      account("indirect@cust.test", { permissions: ["API_FLOWS_4D", "API_FLOWS_INDIRECT_KPI"] }),
    );
    expect(refused.status).toBe(400);
    expect(refused.data.errors).toContainEqual({
      field: "permissions",
      message: "API_FLOWS_INDIRECT_KPI cannot be given to a delegated account.",
    });
  });

  it("refuses bad input with the field and the spec's messages", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ email: "not-an-address" }, "email", MESSAGES.emailFormat],
      [{ email: "a@du.test" }, "email", MESSAGES.userCreation],
      [{ permissions: ["VIEW_USERS"] }, "permissions", "VIEW_USERS is an administrative permission: a delegated account never gets it."],
      [{ permissions: ["CONTROL_PLANE"] }, "permissions", "CONTROL_PLANE cannot be given to a delegated account."],
      [
        { flows_views_restrictions: [{ dimension: "AS_DST_INGRESS", constrained_values: ["AS-x"], output: "AS_SRC_INGRESS" }] },
        "flows_views_restrictions.0.constrained_values",
        "AS-x is not a valid AS number input",
      ],
      [
        { flows_views_restrictions: [{ dimension: "AS_DST_INGRESS", constrained_values: ["1"], output: "AS_NXT_EGRESS" }] },
        "flows_views_restrictions.0.output",
        "The output must be of the restricted dimension's direction (ingress or egress), or have none.",
      ],
      [
        { flows_views_restrictions: [] },
        "flows_views_restrictions",
        "Add at least one flows restriction: without one the account sees no traffic.",
      ],
      [
        { external_links_views_restrictions: { routerList: ["nowhere-er9"] } },
        "external_links_views_restrictions.routerList",
        "Not in the network inventory: nowhere-er9.",
      ],
    ];
    for (const [extra, field, message] of cases) {
      const res = await api(listRoute, "POST", "/auth/delegated_users", "managerA", account(`bad-${field}@cust.test`, extra));
      expect(res.status, field).toBe(400);
      expect(res.data.errors, field).toContainEqual({ field, message });
    }
    // Nobody grants what they do not hold: manager B lacks PRIVATE_LOOKING_GLASS.
    const notHeld = await api(
      listRoute,
      "POST",
      "/auth/delegated_users",
      "managerB",
      account("lg@cust.test", { permissions: ["PRIVATE_LOOKING_GLASS"] }),
    );
    expect(notHeld.status).toBe(400);
    expect(notHeld.data.errors).toContainEqual({
      field: "permissions",
      message: "You cannot grant PRIVATE_LOOKING_GLASS: you do not hold it yourself.",
    });
    const none = await stores.pg.db.select().from(users).where(eq(users.email, "lg@cust.test"));
    expect(none).toEqual([]);
  });

  it("access per role: own accounts for holders, all for staff and superusers, 403 without the permission, 404 for another's", async () => {
    const made = await api(listRoute, "POST", "/auth/delegated_users", "managerB", account("of-b@cust.test"));
    expect(made.status).toBe(201);
    const id = made.data.id;
    for (const who of ["plain", "delegated"] as const) {
      expect((await api(listRoute, "GET", "/auth/delegated_users", who)).status).toBe(403);
      expect((await api(listRoute, "POST", "/auth/delegated_users", who, {})).status).toBe(403);
      expect((await api(oneRoute, "PATCH", `/auth/delegated_users/${id}`, who, { first_name: "X" }, id)).status).toBe(403);
      expect((await api(oneRoute, "DELETE", `/auth/delegated_users/${id}`, who, undefined, id)).status).toBe(403);
    }
    expect((await api(oneRoute, "GET", `/auth/delegated_users/${id}`, "managerA", undefined, id)).status).toBe(404);
    expect((await api(oneRoute, "PATCH", `/auth/delegated_users/${id}`, "managerA", { first_name: "X" }, id)).status).toBe(404);
    expect((await api(oneRoute, "DELETE", `/auth/delegated_users/${id}`, "managerA", undefined, id)).status).toBe(404);
    const listA = await api(listRoute, "GET", "/auth/delegated_users", "managerA");
    expect(listA.data.results.map((r: Json) => r.email)).not.toContain("of-b@cust.test");
    expect(listA.data.results.every((r: Json) => r.delegated_by.id === uid.managerA)).toBe(true);
    for (const who of ["staff", "admin"] as const) {
      const all = await api(listRoute, "GET", "/auth/delegated_users?q=of-b", who);
      expect(all.data.results.map((r: Json) => r.email)).toEqual(["of-b@cust.test"]);
      const patched = await api(oneRoute, "PATCH", `/auth/delegated_users/${id}`, who, { first_name: `By ${who}` }, id);
      expect(patched.status).toBe(200);
      expect(patched.data.first_name).toBe(`By ${who}`);
    }
    expect((await auditOf(id))[0]).toMatchObject({ action: "delegated_user.update", actorUserId: uid.admin });
  });

  it("PATCH changes what it names; is_active false ends the account's sessions; DELETE removes it (audited)", async () => {
    const made = await api(listRoute, "POST", "/auth/delegated_users", "managerA", account("patch@cust.test"));
    const id = made.data.id;
    await sessionCookie(stores, id);
    const patched = await api(
      oneRoute,
      "PATCH",
      `/auth/delegated_users/${id}`,
      "managerA",
      {
        flows_views_restrictions: [{ dimension: "AS_SRC_INGRESS", constrained_values: [3320], output: "AS_DST_INGRESS" }],
        is_active: false,
      },
      id,
    );
    expect(patched.status).toBe(200);
    expect(patched.data).toMatchObject({
      first_name: "Cu",
      is_active: false,
      flows_views_restrictions: [{ dimension: "AS_SRC_INGRESS", constrained_values: ["3320"] }],
    });
    const open = await stores.pg.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, id), isNull(sessions.revokedAt)));
    expect(open).toEqual([]);
    const [entry] = await auditOf(id);
    expect(entry.action).toBe("delegated_user.deactivate");
    expect(entry.before).toMatchObject({ is_active: true });
    expect(entry.after).toMatchObject({ is_active: false });
    const gone = await api(oneRoute, "DELETE", `/auth/delegated_users/${id}`, "managerA", undefined, id);
    expect(gone.status).toBe(204);
    expect(await stores.pg.db.select().from(users).where(eq(users.id, id))).toEqual([]);
    expect((await auditOf(id))[0]).toMatchObject({ action: "delegated_user.delete", targetLabel: "patch@cust.test" });
  });
});

describe("the screen", () => {
  const post = (who: keyof typeof uid, fields: Record<string, string>) =>
    runRoute(screenRoute.action, formRequest("/manage-delegated-users", fields, cookies[who]));
  const fields = (email: string, extra: Record<string, string> = {}) => ({
    email,
    firstName: "Screen",
    lastName: "Made",
    permissions: "API_FLOWS_4D",
    "r.0.dimension": "AS_DST_INGRESS",
    "r.0.values": `AS${TOP_CUSTOMER}`,
    "r.0.output": "AS_SRC_INGRESS",
    asNumbers: "",
    routers: "",
    interfaces: "",
    welcomeText: "",
    ...extra,
  });

  it("without the permission: the landing route; with it: the list of the manager's accounts", async () => {
    for (const who of ["plain", "delegated"] as const) {
      const out = await runRoute(screenRoute.loader, getRequest("/manage-delegated-users", cookies[who]));
      expect(out.location, who).not.toBeNull();
      expect(out.location).not.toContain("manage-delegated-users");
      expect((await post(who, fields("x@cust.test", { intent: "create" }))).location).not.toContain("manage-delegated-users");
    }
    const own = await runRoute(screenRoute.loader, getRequest("/manage-delegated-users", cookies.managerA));
    expect(own.status).toBe(200);
    expect(own.data.list.rows.map((r: Json) => r.email)).toContain("customer@du.test");
    const other = await runRoute(screenRoute.loader, getRequest("/manage-delegated-users?q=customer", cookies.managerB));
    expect(other.data.list.rows).toEqual([]);
    const foreign = await runRoute(screenRoute.loader, getRequest(`/manage-delegated-users?id=${uid.delegated}`, cookies.managerB));
    expect(foreign.data.edited).toBeNull();
    expect(foreign.data.notices).toEqual(["There is no such delegated account (any more), or it is not one of yours."]);
  });

  it("create (PRG), the editor's rows without JavaScript, refusals next to the fields, and the deletion step", async () => {
    const more = await post("managerA", { ...fields("rows@cust.test"), intent: "add-restriction" });
    expect(more.status).toBe(200);
    expect(more.data.form.restrictions).toHaveLength(2);
    const fewer = await post("managerA", {
      ...fields("rows@cust.test"),
      "r.1.dimension": "AS_SRC_INGRESS",
      "r.1.values": "",
      "r.1.output": "AS_DST_INGRESS",
      intent: "remove-restriction-0",
    });
    expect(fewer.data.form.restrictions).toEqual([{ dimension: "AS_SRC_INGRESS", values: "", output: "AS_DST_INGRESS" }]);
    const bad = await post("managerA", { ...fields("rows@cust.test"), "r.0.values": "AS-x", intent: "create" });
    expect(bad.status).toBe(400);
    expect(bad.data.errors["r.0.values"]).toBe("AS-x is not a valid AS number input");
    expect(bad.data.form.email).toBe("rows@cust.test");

    const made = await post("managerA", { ...fields("screen@cust.test"), intent: "create" });
    expect(made.status).toBe(302);
    const id = Number(/id=(\d+)/.exec(made.location!)![1]);
    expect(made.location).toBe(`/manage-delegated-users?id=${id}&saved=created`);
    const edit = await runRoute(screenRoute.loader, getRequest(made.location!, cookies.managerA));
    expect(edit.data.edited.form.restrictions).toEqual([
      { dimension: "AS_DST_INGRESS", values: String(TOP_CUSTOMER), output: "AS_SRC_INGRESS" },
    ]);
    expect(edit.data.savedMessage).toMatch(/invitation/);

    const saved = await post("managerA", { ...fields("screen@cust.test"), id: String(id), firstName: "Renamed", intent: "update" });
    expect(saved.location).toBe(`/manage-delegated-users?id=${id}&saved=updated`);
    expect((await post("managerA", { id: String(id), intent: "deactivate" })).location).toBe(
      `/manage-delegated-users?id=${id}&saved=deactivated`,
    );
    expect((await post("managerA", { id: String(id), intent: "reactivate" })).location).toBe(
      `/manage-delegated-users?id=${id}&saved=reactivated`,
    );
    expect((await post("managerB", { id: String(id), intent: "deactivate" })).status).toBe(404);
    // Staff and superusers manage every delegated account on the screen too.
    for (const who of ["staff", "admin"] as const) {
      expect((await post(who, { id: String(id), intent: "deactivate" })).location).toBe(
        `/manage-delegated-users?id=${id}&saved=deactivated`,
      );
      expect((await post(who, { id: String(id), intent: "reactivate" })).location).toBe(
        `/manage-delegated-users?id=${id}&saved=reactivated`,
      );
    }

    const ask = await post("managerA", { id: String(id), intent: "delete" });
    expect(ask.location).toBe(`/manage-delegated-users?delete=${id}`);
    const confirm = await runRoute(screenRoute.loader, getRequest(ask.location!, cookies.managerA));
    expect(confirm.data.toDelete).toEqual({ id, email: "screen@cust.test" });
    const gone = await post("managerA", { id: String(id), intent: "delete", confirm: "yes" });
    expect(gone.location).toBe("/manage-delegated-users?saved=deleted");
    expect((await auditOf(id)).map((e) => [e.action, e.actorUserId])).toEqual([
      ["delegated_user.delete", uid.managerA],
      ["delegated_user.reactivate", uid.admin],
      ["delegated_user.deactivate", uid.admin],
      ["delegated_user.reactivate", uid.staff],
      ["delegated_user.deactivate", uid.staff],
      ["delegated_user.reactivate", uid.managerA],
      ["delegated_user.deactivate", uid.managerA],
      ["delegated_user.update", uid.managerA],
      ["delegated_user.create", uid.managerA],
    ]);
  });

  it("the preview of an unsaved restriction equals the recomputation from flows_5m rows", async () => {
    const out = await post("managerA", {
      ...fields("preview@cust.test"),
      asNumbers: String(TOP_CUSTOMER),
      routers: "fra-er1",
      intent: "preview-0",
    });
    expect(out.status).toBe(200);
    const preview = out.data.preview;
    expect(preview.errors).toEqual([]);
    expect(preview.output).toBe("Source AS (ingress)");
    const rows = await readFlowRows(stores, preview.range);
    const mine = rows.filter((r) => r.as_hnd !== OPERATOR_ASN && r.as_dst === TOP_CUSTOMER);
    const seconds = preview.range.end - preview.range.start;
    const bySource = new Map<string, number>();
    for (const r of mine) bySource.set(String(r.as_src), (bySource.get(String(r.as_src)) ?? 0) + (Number(r.bytes) * 8) / seconds);
    const expectedTotal = [...bySource.values()].reduce((a, b) => a + b, 0);
    expect(expectedTotal).toBeGreaterThan(0);
    expect(preview.total / expectedTotal).toBeCloseTo(1, 9);
    const top = [...bySource].sort((a, b) => b[1] - a[1]).slice(0, 10);
    expect(preview.rows.map((r: Json) => r.key)).toEqual(top.map(([k]) => k));
    preview.rows.forEach((r: Json, i: number) => expect(r.bps / top[i][1]).toBeCloseTo(1, 9));
    expect(preview.menu).toContain("Flow Explorer");
    // Nothing was stored.
    expect(await stores.pg.db.select().from(users).where(eq(users.email, "preview@cust.test"))).toEqual([]);
  });
});
