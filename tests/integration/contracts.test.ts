/**
 * The contracts store (Revenues & Costs) on real stores: create, update and delete with their audit
 * entries, each refusal naming its field (bad values, a name taken, an unknown or core interface, an
 * interface billed by another contract), and the editing rule enforced by the store itself: staff or
 * superusers holding MANAGE_CONTRACTS, never a delegated account.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { interfaces } from "~db/postgres/schema";
import { createRouter } from "~/features/inventory/inventory.server";
import {
  canSeeRevenuesAndCosts,
  ContractAccessError,
  ContractInputError,
  ContractMissingError,
  createContract,
  deleteContract,
  getContract,
  listContracts,
  updateContract,
  type ContractChange,
} from "~/features/revenues/contracts.server";
import { listAudit } from "~/server/audit/audit-log.server";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

let stores: TestStores;
const ids: Record<string, number> = {};
const manager: ContractChange["user"] = {
  id: 1,
  email: "finance@example.org",
  permissions: ["REVENUES_AND_COSTS", "MANAGE_CONTRACTS"],
  isDelegated: false,
  isStaff: true,
  isSuperuser: false,
};
const by = (user: ContractChange["user"]): ContractChange => ({ user, clientAddress: "198.51.100.7" });

beforeAll(async () => {
  stores = await openTestStores();
  manager.id = await insertSuperuser(stores, "finance@example.org");
  await createRouter(stores, {
    name: "fra1",
    city: "Frankfurt",
    country: "Germany",
    loopback: "192.0.2.1",
    interfaces: [
      { name: "et-1", ifindex: 1, capacity: 10e9, kind: "external", peering: "Transit", neighbour_as: 3356 },
      { name: "et-2", ifindex: 2, capacity: 10e9, kind: "external", peering: "Transit", neighbour_as: 3356 },
      { name: "et-3", ifindex: 3, capacity: 1e9, kind: "external", peering: "Customer", neighbour_as: 64510 },
      { name: "c-1", ifindex: 10, capacity: 100e9, kind: "core" },
    ],
  });
  for (const row of await stores.pg.db.select().from(interfaces)) ids[row.name] = row.id;
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

const transit = () => ({
  name: "Transit Lumen FRA",
  direction: "cost",
  partnerAsn: 3356,
  method: "Max 95th",
  commitMbps: 2000,
  commitPriceEur: 0.35,
  burstPriceEur: 0.45,
  portFeeEur: 300,
  validFrom: "2026-01-01",
  interfaceIds: [ids["et-1"], ids["et-2"]],
});

async function refusal(p: Promise<unknown>): Promise<Record<string, string>> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ContractInputError);
  return (error as ContractInputError).errors;
}

describe("contracts", () => {
  let id = 0;

  it("creates a contract with its defaults, its billing group and an audit entry", async () => {
    const c = await createContract(stores.pg.db, transit(), by(manager));
    id = c.id;
    expect(c).toMatchObject({
      name: "Transit Lumen FRA",
      direction: "cost",
      method: "Max 95th",
      billedDirection: "max",
      groupMode: "aggregate",
      commitMbps: 2000,
      commitPriceEur: 0.35,
      burstPriceEur: 0.45,
      portFeeEur: 300,
      minimumFeeEur: 0,
      currency: "EUR",
      validTo: null,
      timezone: "UTC",
    });
    expect(c.ports.map((p) => `${p.router} ${p.interface}`)).toEqual(["fra1 et-1", "fra1 et-2"]);
    const audit = await listAudit(stores.pg.db, { targetType: "contract", targetId: id });
    expect(audit.entries.map((e) => [e.action, e.actor_email, e.client_address])).toEqual([
      ["contract.create", "finance@example.org", "198.51.100.7"],
    ]);
    expect(audit.entries[0].after).toMatchObject({ commitMbps: 2000, interfaceIds: [ids["et-1"], ids["et-2"]].sort((a, b) => a - b) });
  });

  it("refuses bad input by field, and nothing is stored", async () => {
    expect(await refusal(createContract(stores.pg.db, { ...transit(), name: "x", method: "Monthly" }, by(manager)))).toEqual({
      method: "Method is Flatrate, free or Max 95th.",
    });
    expect(await refusal(createContract(stores.pg.db, { ...transit(), name: "x", commitMbps: -1 }, by(manager)))).toEqual({
      commitMbps: "The commit cannot be negative.",
    });
    expect(await refusal(createContract(stores.pg.db, { ...transit(), name: "x", validFrom: "2026-02-30" }, by(manager)))).toHaveProperty(
      "validFrom",
    );
    expect(
      await refusal(createContract(stores.pg.db, { ...transit(), name: "x", validFrom: "2026-03-01", validTo: "2026-02-01" }, by(manager))),
    ).toEqual({ validTo: "The last day of validity cannot be before the first." });
    expect(await refusal(createContract(stores.pg.db, { ...transit(), name: "x", timezone: "Mars/Olympus" }, by(manager)))).toHaveProperty(
      "timezone",
    );
    expect(await refusal(createContract(stores.pg.db, { ...transit(), name: "x", currency: "USD" }, by(manager)))).toEqual({
      currency: "The currency is EUR.",
    });
    expect(await refusal(createContract(stores.pg.db, { ...transit(), name: "x", price: 1 }, by(manager)))).toEqual({
      "": "Unknown field: price.",
    });
    expect(await refusal(createContract(stores.pg.db, { ...transit(), interfaceIds: [ids["et-3"]] }, by(manager)))).toEqual({
      name: "A contract named Transit Lumen FRA exists already.",
    });
    expect(await refusal(createContract(stores.pg.db, { ...transit(), name: "x", interfaceIds: [ids["c-1"]] }, by(manager)))).toEqual({
      interfaceIds: "fra1 c-1 is a core link: contracts bill external and access interfaces.",
    });
    expect(await refusal(createContract(stores.pg.db, { ...transit(), name: "x", interfaceIds: [999_999] }, by(manager)))).toEqual({
      interfaceIds: "No interface of the inventory has the id 999999.",
    });
    expect(
      await refusal(createContract(stores.pg.db, { ...transit(), name: "x", interfaceIds: [ids["et-2"], ids["et-3"]] }, by(manager))),
    ).toEqual({
      interfaceIds: "fra1 et-2 belongs to the contract Transit Lumen FRA: an interface is billed by one contract.",
    });
    expect(await refusal(createContract(stores.pg.db, { ...transit(), name: "x", interfaceIds: [] }, by(manager)))).toEqual({
      interfaceIds: "Choose at least one interface for the billing group.",
    });
    expect((await listContracts(stores.pg.db)).map((c) => c.name)).toEqual(["Transit Lumen FRA"]);
  });

  it("only staff and superusers holding MANAGE_CONTRACTS change contracts; delegated accounts never see them", async () => {
    const refused = async (user: ContractChange["user"]) => {
      await expect(createContract(stores.pg.db, { ...transit(), name: "y", interfaceIds: [ids["et-3"]] }, by(user))).rejects.toBeInstanceOf(
        ContractAccessError,
      );
      await expect(updateContract(stores.pg.db, id, transit(), by(user))).rejects.toBeInstanceOf(ContractAccessError);
      await expect(deleteContract(stores.pg.db, id, by(user))).rejects.toBeInstanceOf(ContractAccessError);
    };
    await refused({ ...manager, isStaff: false });
    await refused({ ...manager, permissions: ["REVENUES_AND_COSTS"] });
    await refused({ ...manager, isDelegated: true });
    await refused({ ...manager, isStaff: false, isSuperuser: true, isDelegated: true });
    expect(canSeeRevenuesAndCosts({ permissions: ["REVENUES_AND_COSTS"], isDelegated: true })).toBe(false);
    expect(canSeeRevenuesAndCosts({ permissions: ["REVENUES_AND_COSTS"], isDelegated: false })).toBe(true);
    expect(canSeeRevenuesAndCosts({ permissions: [], isDelegated: false })).toBe(false);
    expect(await getContract(stores.pg.db, id)).toMatchObject({ name: "Transit Lumen FRA" });
  });

  it("updates with the record before and after in the audit, and an unchanged save writes no entry", async () => {
    const superuser = { ...manager, email: "root@example.org", isStaff: false, isSuperuser: true };
    const c = await updateContract(stores.pg.db, id, { ...transit(), commitMbps: 3000, interfaceIds: [ids["et-1"]] }, by(superuser));
    expect(c.commitMbps).toBe(3000);
    expect(c.ports.map((p) => p.interface)).toEqual(["et-1"]);
    await updateContract(stores.pg.db, id, { ...transit(), commitMbps: 3000, interfaceIds: [ids["et-1"]] }, by(superuser));
    const audit = await listAudit(stores.pg.db, { targetType: "contract", targetId: id });
    expect(audit.entries.map((e) => e.action)).toEqual(["contract.update", "contract.create"]);
    expect(audit.entries[0].before).toMatchObject({ commitMbps: 2000, interfaceIds: [ids["et-1"], ids["et-2"]].sort((a, b) => a - b) });
    expect(audit.entries[0].after).toMatchObject({ commitMbps: 3000, interfaceIds: [ids["et-1"]] });
    // et-2 is free again.
    const other = await createContract(stores.pg.db, { ...transit(), name: "Second transit", interfaceIds: [ids["et-2"]] }, by(manager));
    expect(other.ports.map((p) => p.interface)).toEqual(["et-2"]);
  });

  it("deletes with an audit entry; a missing contract is named as such", async () => {
    await deleteContract(stores.pg.db, id, by(manager));
    expect(await getContract(stores.pg.db, id)).toBeNull();
    await expect(deleteContract(stores.pg.db, id, by(manager))).rejects.toBeInstanceOf(ContractMissingError);
    await expect(updateContract(stores.pg.db, id, transit(), by(manager))).rejects.toBeInstanceOf(ContractMissingError);
    const audit = await listAudit(stores.pg.db, { targetType: "contract", targetId: id });
    expect(audit.entries[0]).toMatchObject({ action: "contract.delete", target_label: "Transit Lumen FRA" });
    expect(audit.entries[0].before).toMatchObject({ commitMbps: 3000 });
  });

  it("an interface removed from the inventory leaves its contracts' billing groups", async () => {
    const { eq } = await import("drizzle-orm");
    const c = (await listContracts(stores.pg.db)).find((x) => x.name === "Second transit")!;
    await stores.pg.db.delete(interfaces).where(eq(interfaces.id, ids["et-2"]));
    expect((await getContract(stores.pg.db, c.id))!.ports).toEqual([]);
  });
});
