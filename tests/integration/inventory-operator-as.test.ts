/**
 * The operator's own AS (as_info category 'operator'): set through the inventory service, the
 * inventory screen's "Your network" form and the inventory file's `operator_as`, checked as an AS
 * number, one row marked at a time, and read by the flows screens.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asInfo, userPermissions, users } from "~db/postgres/schema";
import { exportInventory, importInventory } from "~/features/inventory/file.server";
import { getOperatorAs, InventoryInputError, setOperatorAs } from "~/features/inventory/inventory.server";
import { NO_OPERATOR_AS, operatorAsn } from "~/features/flows/service.server";
import * as flowsApi from "~/routes/api.flows";
import { NO_DELEGATION } from "~/features/filter/delegation-policy.server";
import { restrictedTraffic } from "~/features/flows/restriction-preview.server";
import { loadUserContext } from "~/server/auth/user-context.server";
import * as route from "~/routes/_app.site-settings_.inventory";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, formRequest, getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

const PATH = "/site-settings/inventory";
let stores: TestStores;
const cookies = { staff: "", user: "" };

beforeAll(async () => {
  stores = await openTestStores({ env: { INVENTORY_SECRET_KEY: "23".repeat(32) } });
  useServicesForTests(stores);
  const insert = async (email: string, extra: Partial<typeof users.$inferInsert>) =>
    (
      await stores.pg.db
        .insert(users)
        .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true, ...extra })
        .returning({ id: users.id })
    )[0].id;
  cookies.staff = await sessionCookie(stores, await insert("staff@operator-as.test", { isStaff: true }));
  cookies.user = await sessionCookie(stores, await insert("user@operator-as.test", {}));
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const categories = async () =>
  Object.fromEntries(
    (await stores.pg.db.select({ asn: asInfo.asn, category: asInfo.category }).from(asInfo)).map((r) => [Number(r.asn), r.category]),
  );

async function refusal(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(InventoryInputError);
    return (error as InventoryInputError).issues;
  }
  throw new Error("not refused");
}

describe("the flows API before the operator AS is set", () => {
  it("answers 409 naming what is missing, not a server error", async () => {
    const id = (await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "user@operator-as.test")))[0].id;
    await stores.pg.db.insert(userPermissions).values({ userId: id, permission: "API_FLOWS_4D" }).onConflictDoNothing();
    const now = Math.floor(Date.now() / 1000);
    const response = await callRoute(flowsApi, "/api/flows/", {
      method: "POST",
      cookie: cookies.user,
      body: { dimension: "AS_SRC_INGRESS", startTimestamp: now - 3600, endTimestamp: now, window: 900 },
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ detail: NO_OPERATOR_AS, exception_code: "operator_as_not_configured" });
  });

  it("the Delegated Users preview answers with the same reason instead of failing", async () => {
    const id = (await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "user@operator-as.test")))[0].id;
    const account = (await loadUserContext(stores.pg.db, id))!;
    const now = Math.floor(Date.now() / 1000);
    expect(
      await restrictedTraffic(stores, account, NO_DELEGATION, { output: "AS_SRC_INGRESS", start: now - 3600, end: now, top: 5 }),
    ).toEqual({
      errors: [NO_OPERATOR_AS],
    });
  });
});

describe("the service", () => {
  it("is not set on an empty install, and refuses what is no AS number, naming the field", async () => {
    expect(await getOperatorAs(stores)).toBeNull();
    for (const [value, message] of [
      [0, "must be at least 1"],
      [4_294_967_296, "must be at most 4294967295"],
      [64500.5, "must be a whole number"],
      [23456, "23456 (AS_TRANS) is a placeholder for 4-byte AS numbers, not a network's own AS"],
    ] as const)
      expect(await refusal(() => setOperatorAs(stores, value))).toEqual([{ path: "operator_as", message }]);
    expect(await categories()).toEqual({});
  });

  it("creates the row as 'Own network', keeps a known AS's name and country, and demotes the previous one", async () => {
    expect(await setOperatorAs(stores, 4_200_000_000)).toEqual({ asn: 4_200_000_000, name: "Own network", country: "" });
    await stores.pg.db.insert(asInfo).values({ asn: 64500, name: "Example Net", country: "DE", category: "customer" });
    expect(await setOperatorAs(stores, 64500)).toEqual({ asn: 64500, name: "Example Net", country: "DE" });
    expect(await categories()).toEqual({ 4_200_000_000: "other", 64500: "operator" });
    expect(await operatorAsn(stores)).toBe(64500);
    // Two rows marked by hand (SQL): setting one leaves only it.
    await stores.pg.db.update(asInfo).set({ category: "operator" }).where(eq(asInfo.asn, 4_200_000_000));
    await setOperatorAs(stores, 64500, "Example Network");
    expect(await categories()).toEqual({ 4_200_000_000: "other", 64500: "operator" });
    expect((await getOperatorAs(stores))!.name).toBe("Example Network");
  });
});

describe("the inventory screen", () => {
  const post = (fields: Record<string, string>, cookie = cookies.staff) => runRoute(route.action, formRequest(PATH, fields, cookie));

  it("shows the AS, and staff set it with a plain form post (redirect with a notice)", async () => {
    expect((await runRoute(route.loader, getRequest(PATH, cookies.staff))).data.operatorAs.asn).toBe(64500);
    const out = await post({ intent: "set-operator-as", operator_as: "AS64501" });
    expect(out.status).toBe(302);
    expect(out.location).toBe(`${PATH}?saved=operator-as`);
    const page = await runRoute(route.loader, getRequest(`${PATH}?saved=operator-as`, cookies.staff));
    expect(page.data.savedMessage).toBe("Your network's AS number was saved.");
    expect(page.data.operatorAs).toEqual({ asn: 64501, name: "Own network", country: "" });
    expect(await categories()).toMatchObject({ 64500: "other", 64501: "operator" });
  });

  it("refuses plain users, and bad input with a 400 next to the field, nothing changed", async () => {
    expect((await post({ intent: "set-operator-as", operator_as: "64502" }, cookies.user)).status).toBe(403);
    for (const [typed, message] of [
      ["", "Enter the AS number as digits, for example 64500."],
      ["64502; drop", "Enter the AS number as digits, for example 64500."],
      ["23456", "23456 (AS_TRANS) is a placeholder for 4-byte AS numbers, not a network's own AS"],
      ["9999999999", "must be at most 4294967295"],
    ]) {
      const out = await post({ intent: "set-operator-as", operator_as: typed });
      expect(out.status).toBe(400);
      expect(out.data.intent).toBe("set-operator-as");
      expect(out.data.errors.operator_as).toBe(message);
      expect(out.data.values.operator_as).toBe(typed);
    }
    expect((await getOperatorAs(stores))!.asn).toBe(64501);
  });
});

describe("the inventory file", () => {
  it("exports operator_as and imports it in the same transaction; export → import → export is the same", async () => {
    const exported = await exportInventory(stores);
    expect(exported).toContain("\noperator_as: 64501\n");
    const report = await importInventory(stores, exported);
    expect(report.operatorAs).toBeNull();
    expect(await exportInventory(stores)).toBe(exported);

    const changed = exported.replace("operator_as: 64501", "operator_as: 65000");
    expect((await importInventory(stores, changed, { dryRun: true })).operatorAs).toEqual({ before: 64501, after: 65000 });
    expect((await getOperatorAs(stores))!.asn).toBe(64501);
    expect((await importInventory(stores, changed)).operatorAs).toEqual({ before: 64501, after: 65000 });
    expect((await getOperatorAs(stores))!.asn).toBe(65000);
    expect(await exportInventory(stores)).toBe(changed);
  });

  it("refuses a bad operator_as naming it, writing nothing; a file without it leaves the AS alone", async () => {
    const issues = await refusal(() => importInventory(stores, "version: 1\noperator_as: 23456\nvantage_points: []\n"));
    expect(issues).toEqual([
      { path: "operator_as", message: "23456 (AS_TRANS) is a placeholder for 4-byte AS numbers, not a network's own AS" },
    ]);
    expect(await refusal(() => importInventory(stores, 'version: 1\noperator_as: "AS1"\n'))).toEqual([
      { path: "operator_as", message: "must be an AS number" },
    ]);
    expect((await importInventory(stores, "version: 1\n", { replace: true })).operatorAs).toBeNull();
    expect((await getOperatorAs(stores))!.asn).toBe(65000);
  });
});
