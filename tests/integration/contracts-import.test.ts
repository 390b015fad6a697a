/**
 * The contracts' CSV import through the Revenues & Costs screen's action on real stores: a file (multipart)
 * and pasted lines; one bad line and nothing is written (the store's own refusals, such as an interface
 * another line already bills, named by line too); a line naming an existing contract replaces it; every
 * write audited; the export of the contracts read back by the import unchanged; refused without
 * MANAGE_CONTRACTS (403) and to delegated accounts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, userPermissions, users } from "~db/postgres/schema";
import { createRouter } from "~/features/inventory/inventory.server";
import { listContracts } from "~/features/revenues/contracts.server";
import * as screenRoute from "~/routes/_app.revenues-and-costs";
import * as exportRoute from "~/routes/revenues-and-costs.export";
import { useServicesForTests } from "~/server/services.server";
import { CSRF_TOKEN, formRequest, getRequest, ORIGIN, runRoute, sessionCookie, withCsrf } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

let stores: TestStores;
let cookie: string;

async function account(email: string, options: { isDelegated?: boolean; permissions: string[] }) {
  const [{ id }] = await stores.pg.db
    .insert(users)
    .values({
      email,
      firstName: "T",
      passwordHash: "!unusable",
      hasConsented: true,
      isDelegated: options.isDelegated ?? false,
      isStaff: true,
    })
    .returning({ id: users.id });
  for (const permission of options.permissions) await stores.pg.db.insert(userPermissions).values({ userId: id, permission });
  return sessionCookie(stores, id);
}

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  cookie = await sessionCookie(stores, await insertSuperuser(stores, "finance@example.org"));
  await createRouter(stores, {
    name: "fra1",
    city: "Frankfurt",
    country: "Germany",
    loopback: "192.0.2.1",
    interfaces: [
      { name: "et-0/0/1", ifindex: 1, capacity: 10e9, kind: "external", peering: "Transit", neighbour_as: 3356 },
      { name: "et-0/0/2", ifindex: 2, capacity: 10e9, kind: "external", peering: "Transit", neighbour_as: 3356 },
      { name: "et-0/0/3", ifindex: 3, capacity: 10e9, kind: "external", peering: "Customer", neighbour_as: 64510 },
      { name: "ae0", ifindex: 10, capacity: 100e9, kind: "core" },
    ],
  });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

const importText = (csv: string, as = cookie) =>
  runRoute(screenRoute.action, formRequest("/revenues-and-costs", { intent: "import", csv }, as));

function importFile(csv: string) {
  const body = new FormData();
  body.set("csrfmiddlewaretoken", CSRF_TOKEN);
  body.set("intent", "import");
  body.set("file", new File([csv], "contracts.csv", { type: "text/csv" }));
  return runRoute(
    screenRoute.action,
    new Request(`${ORIGIN}/revenues-and-costs`, { method: "POST", body, headers: { Cookie: withCsrf(cookie) } }),
  );
}

const HEADER =
  "name,direction,partner_asn,method,commit_mbps,commit_price_eur,burst_price_eur,flat_price_eur,port_fee_eur,valid_from,interfaces";
const names = async () => (await listContracts(stores.pg.db)).map((c) => c.name).sort();
const audits = async () => (await stores.pg.db.select().from(auditLog)).filter((a) => a.action.startsWith("contract."));

describe("importing contracts from CSV", () => {
  it("writes nothing when any line is bad, naming each bad line, the store's refusals included", async () => {
    const refused = await importText(
      [
        HEADER,
        "Transit,cost,3356,Max 95th,2000,0.35,0.45,,300,2026-01-01,fra1 et-0/0/1|fra1 et-0/0/2",
        "Core,cost,3356,Flatrate,,,,100,,2026-01-01,fra1 ae0",
        "Twice,revenue,64510,Flatrate,,,,900,,2026-01-01,fra1 et-0/0/2",
      ].join("\n"),
    );
    expect(refused.status).toBe(400);
    expect(refused.data.errors.csv).toBe("Nothing was imported: 2 problem(s), listed by line.");
    expect(refused.data.problems).toEqual([
      { line: 3, message: "fra1 ae0 is a core link: contracts bill external and access interfaces." },
      { line: 4, message: "fra1 et-0/0/2 belongs to the contract Transit: an interface is billed by one contract." },
    ]);
    // The pasted text comes back for its correction; the first line, valid on its own, was rolled back.
    expect(refused.data.csv).toContain("Twice,revenue");
    expect(await names()).toEqual([]);
    expect(await audits()).toEqual([]);
  });

  it("imports a file, then replaces a contract named again, each change audited", async () => {
    const first = await importFile(
      [
        HEADER,
        "Transit,cost,AS3356,Max 95th,2000,0.35,0.45,,300,2026-01-01,fra1 et-0/0/1 | fra1 et-0/0/2",
        "Customer,revenue,64510,Flatrate,,,,2500,,2026-01-01,fra1 et-0/0/3",
      ].join("\r\n"),
    );
    expect([first.status, first.data]).toEqual([200, { ok: true, saved: "2 contract line(s) imported: 2 added, 0 replaced." }]);
    const second = await importText([HEADER, "Transit,cost,3356,Max 95th,3000,0.30,0.40,,300,2026-01-01,fra1 et-0/0/1"].join("\n"));
    expect(second.data).toEqual({ ok: true, saved: "1 contract line(s) imported: 0 added, 1 replaced." });
    const transit = (await listContracts(stores.pg.db)).find((c) => c.name === "Transit")!;
    expect([transit.commitMbps, transit.commitPriceEur, transit.burstPriceEur, transit.ports.map((p) => p.interface)]).toEqual([
      3000,
      0.3,
      0.4,
      ["et-0/0/1"],
    ]);
    expect((await audits()).map((a) => a.action).sort()).toEqual(["contract.create", "contract.create", "contract.update"]);
  });

  it("exports the contracts in the import's columns, and importing that file changes nothing", async () => {
    const res = await exportRoute.loader({
      request: getRequest("/revenues-and-costs/export?table=contracts&format=csv", cookie),
      params: {},
      context: {},
    } as never);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.split(/\r?\n/)[0]).toBe(
      "name,direction,partner_asn,method,billed_direction,group_mode,commit_mbps,commit_price_eur,burst_price_eur,flat_price_eur,port_fee_eur,cross_connect_fee_eur,minimum_fee_eur,currency,valid_from,valid_to,timezone,notes,interfaces",
    );
    const before = await listContracts(stores.pg.db);
    const auditsBefore = (await audits()).length;
    const again = await importText(text);
    expect(again.data).toEqual({ ok: true, saved: "2 contract line(s) imported: 0 added, 2 replaced." });
    const after = await listContracts(stores.pg.db);
    const terms = (list: typeof before) => list.map(({ updatedAt: _u, ...c }) => c);
    expect(terms(after)).toEqual(terms(before));
    // An unchanged contract writes no audit entry.
    expect((await audits()).length).toBe(auditsBefore);
  });

  it("is refused without MANAGE_CONTRACTS and to a delegated account, and the export of contracts as well", async () => {
    const viewer = await account("viewer@example.org", { permissions: ["REVENUES_AND_COSTS"] });
    const delegated = await account("customer@example.org", { isDelegated: true, permissions: ["REVENUES_AND_COSTS", "MANAGE_CONTRACTS"] });
    // The staff viewer is refused by the action (403); the delegated account is sent away from the screen before it.
    for (const [as, refusedWith] of [
      [viewer, [403]],
      [delegated, [302, 403]],
    ] as const) {
      const res = await importText([HEADER, "Other,cost,3356,Flatrate,,,,1,,2026-01-01,fra1 et-0/0/2"].join("\n"), as);
      expect(refusedWith).toContain(res.status);
      const exported = await exportRoute
        .loader({ request: getRequest("/revenues-and-costs/export?table=contracts", as), params: {}, context: {} } as never)
        .catch((e: unknown) => e);
      expect((exported as Response).status).toBe(403);
    }
    expect(await names()).toEqual(["Customer", "Transit"]);
  });

  it("asks for a file or lines when both are empty", async () => {
    const res = await importText("   ");
    expect([res.status, res.data.errors.csv]).toEqual([400, "Choose a CSV file or paste its lines."]);
  });
});
