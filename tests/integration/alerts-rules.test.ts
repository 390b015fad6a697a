/**
 * The alert rules as the API serves them: a delegated account creates rules only inside its
 * restriction, sees only its own and tells only itself and e-mail addresses; acknowledging needs a triggered rule; a silence is kept.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertState, delegationRestrictions, userPermissions, users } from "~db/postgres/schema";
import { alertRuleBodySchema } from "~/features/alerts/request-schema";
import { actOnAlertRule, createAlertRule, getAlertRule, listAlertRules } from "~/features/alerts/rules.server";
import { ApiProblem } from "~/server/api/contract.server";
import { loadUserContext, type UserContext } from "~/server/auth/user-context.server";
import { insertSuperuser } from "../helpers/users";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
let admin: UserContext;
let customer: UserContext;

const body = (value: string | null, extra: Record<string, unknown> = {}) =>
  alertRuleBodySchema.parse({
    name: `Rule ${value}`,
    view: { dimension: "AS_SRC_INGRESS", filter: [], ipVersion: "all", value },
    metric: "bps",
    condition: "above",
    threshold: 1e6,
    ...extra,
  });

async function problemOf(promise: Promise<unknown>): Promise<ApiProblem> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiProblem);
  return error as ApiProblem;
}

beforeAll(async () => {
  stores = await openTestStores();
  admin = (await loadUserContext(stores.pg.db, await insertSuperuser(stores, "noc@rules.test")))!;
  const [d] = await stores.pg.db
    .insert(users)
    .values({ email: "customer@rules.test", firstName: "C", passwordHash: "!unusable", hasConsented: true, isDelegated: true })
    .returning({ id: users.id });
  await stores.pg.db
    .insert(userPermissions)
    .values(["API_FLOWS_4D", "VIEW_ALERTS", "MANAGE_ALERTS"].map((permission) => ({ userId: d.id, permission })));
  await stores.pg.db.insert(delegationRestrictions).values({
    userId: d.id,
    flowsViewsRestrictions: [{ dimension: "AS_SRC_INGRESS", constrained_values: ["65010"], output: "AS_DST_INGRESS" }],
  });
  customer = (await loadUserContext(stores.pg.db, d.id))!;
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

describe("alert rules", () => {
  it("the alert permissions are delegable: a delegated account keeps them", () => {
    expect(customer.permissions).toEqual(expect.arrayContaining(["VIEW_ALERTS", "MANAGE_ALERTS"]));
  });

  it("a delegated account creates rules inside its restriction only, and sees only its own", async () => {
    const mine = await createAlertRule(stores, customer, body(null));
    expect(mine.ownerId).toBe(customer.id);
    const outside = await problemOf(createAlertRule(stores, customer, body("65020")));
    expect(outside.status).toBe(400);
    expect(outside.body.errors?.[0].field).toBe("view");
    const theirs = await createAlertRule(stores, admin, body("65020"));
    expect((await listAlertRules(stores.pg.db, customer)).map((r) => r.id)).toEqual([mine.id]);
    expect((await listAlertRules(stores.pg.db, admin)).map((r) => r.id)).toEqual([mine.id, theirs.id]);
    expect((await problemOf(getAlertRule(stores.pg.db, customer, theirs.id))).status).toBe(404);
  });

  it("a delegated account's rule tells the account itself only, whatever the call names", async () => {
    const own = await createAlertRule(
      stores,
      customer,
      body(null, { recipients: { userIds: [customer.id], emails: ["Customer@rules.test"] } }),
    );
    expect(own.recipients).toMatchObject({ userIds: [customer.id], emails: ["Customer@rules.test"] });
    const refusals = [
      [{ userIds: [admin.id] }, "A delegated account's rule tells the account itself only."],
      [{ groupIds: [1] }, "A delegated account's rule cannot tell groups."],
      [{ webhook: "main" }, "A delegated account's rule cannot post to the team-chat webhooks."],
    ] as const;
    for (const [recipients, message] of refusals) {
      const refused = await problemOf(createAlertRule(stores, customer, body(null, { recipients })));
      expect([refused.status, refused.body.errors?.[0]]).toEqual([400, { field: "recipients", message }]);
    }
    // The operator's own accounts name any of them.
    const staff = await createAlertRule(stores, admin, body(null, { recipients: { userIds: [admin.id, customer.id], webhook: "main" } }));
    expect(staff.recipients.webhook).toBe("main");
  });

  it("a band rule needs its factor, an above rule its threshold", () => {
    const band = alertRuleBodySchema.safeParse({ ...body(null), condition: "outside_band", bandFactor: null });
    expect(band.success ? [] : band.error.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["bandFactor", "A band rule needs its band factor."],
    ]);
    const above = alertRuleBodySchema.safeParse({ ...body(null), threshold: null });
    expect(above.success ? [] : above.error.issues.map((i) => i.message)).toEqual(["An above or below rule needs its threshold."]);
  });

  it("acknowledging needs a triggered rule (409); a silence is kept on the state", async () => {
    const rule = await createAlertRule(stores, admin, body("65010"));
    const refused = await problemOf(actOnAlertRule(stores.pg.db, admin, rule.id, { action: "acknowledge" }));
    expect([refused.status, refused.body.detail]).toEqual([409, "Only a triggered alert can be acknowledged."]);
    await stores.pg.db
      .insert(alertState)
      .values({ ruleId: rule.id, status: "Triggered", lastBucket: 1_700_000_000 })
      .onConflictDoUpdate({
        target: alertState.ruleId,
        set: { status: "Triggered" },
      });
    const acked = await actOnAlertRule(stores.pg.db, admin, rule.id, { action: "acknowledge" }, 1_700_000_400);
    expect([acked.state.acknowledgedBy, acked.state.acknowledgedAt]).toEqual(["noc@rules.test", 1_700_000_400]);
    const silenced = await actOnAlertRule(stores.pg.db, admin, rule.id, { action: "silence", seconds: 3600 }, 1_700_000_500);
    expect(silenced.state.silencedUntil).toBe(1_700_004_100);
  });
});
