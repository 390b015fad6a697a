/**
 * A router's VRFs in the inventory (router_vrfs): saved with the router in the spelling the routing
 * history stores, kept when an interface is edited, refused with the field named, part of the
 * inventory's version, and carried by the inventory file (export → import → export the same).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routerVrfs } from "~db/postgres/schema";
import { exportInventory, importInventory } from "~/features/inventory/file.server";
import {
  createInterface,
  createRouter,
  deleteRouter,
  getRouter,
  InventoryInputError,
  inventoryVersion,
  updateRouter,
  vrfRouteDistinguisher,
} from "~/features/inventory/inventory.server";
import { routerDocument } from "~/features/inventory/document";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;

beforeAll(async () => {
  stores = await openTestStores();
});

afterAll(async () => {
  await stores?.dispose();
});

const ams = {
  name: "ams1-r1",
  city: "Amsterdam",
  country: "Netherlands",
  loopback: "198.51.100.9",
  exporters: ["192.0.2.9"],
  interfaces: [{ name: "xe-0/0/1", ifindex: 11, capacity: "10G", kind: "access", vrf: "CUST_A" }],
  vrfs: [
    { name: "CUST_A", rd: "64500:1" },
    { name: "CUST_B", rd: "64086.59904:7" },
  ],
};

async function refusal(work: Promise<unknown>) {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InventoryInputError);
  return (error as InventoryInputError).issues;
}

describe("router VRFs", () => {
  it("are saved with the router, distinguishers as the routing history writes them", async () => {
    const router = await createRouter(stores, ams);
    expect(router.vrfs).toEqual([
      { name: "CUST_A", rd: "64500:1" },
      { name: "CUST_B", rd: "4200000000:7" },
    ]);
    expect(await vrfRouteDistinguisher(stores, "ams1-r1", "CUST_B")).toBe("4200000000:7");
    expect(await vrfRouteDistinguisher(stores, "ams1-r1", "CUST_C")).toBeNull();
    expect(await vrfRouteDistinguisher(stores, "nowhere", "CUST_A")).toBeNull();
  });

  it("stay when an interface is added, change with the router, and change the inventory's version", async () => {
    const before = await inventoryVersion(stores);
    await createInterface(stores, "ams1-r1", { name: "xe-0/0/2", ifindex: 12, capacity: "10G", kind: "access", vrf: "CUST_B" });
    expect((await getRouter(stores, "ams1-r1"))!.vrfs).toHaveLength(2);
    const afterInterface = await inventoryVersion(stores);
    expect(afterInterface).not.toBe(before);

    const router = (await getRouter(stores, "ams1-r1"))!;
    await updateRouter(stores, "ams1-r1", { ...routerDocument(router), vrfs: [{ name: "CUST_A", rd: "192.0.2.1:5" }] });
    expect((await getRouter(stores, "ams1-r1"))!.vrfs).toEqual([{ name: "CUST_A", rd: "192.0.2.1:5" }]);
    const afterVrf = await inventoryVersion(stores);
    expect(afterVrf).not.toBe(afterInterface);
    // Saving the same again writes nothing: the version stays.
    await updateRouter(stores, "ams1-r1", routerDocument((await getRouter(stores, "ams1-r1"))!));
    expect(await inventoryVersion(stores)).toBe(afterVrf);
  });

  it("are refused with the field named", async () => {
    const router = routerDocument((await getRouter(stores, "ams1-r1"))!);
    expect(await refusal(updateRouter(stores, "ams1-r1", { ...router, vrfs: [{ name: "CUST_A", rd: "192.0.2.1:70000" }] }))).toEqual([
      {
        path: "vrfs[0].rd",
        message: '"192.0.2.1:70000" is not a route distinguisher: with an IPv4 address (type 1) the assigned number must be at most 65535',
      },
    ]);
    expect(
      await refusal(
        updateRouter(stores, "ams1-r1", {
          ...router,
          vrfs: [
            { name: "CUST_A", rd: "64500:1" },
            { name: "CUST_B", rd: "64500L:1" },
            { name: "CUST_C", rd: "64500:1" },
          ],
        }),
      ),
    ).toEqual([
      // The routing history writes a type 2 distinguisher of small numbers as type 0's: they are one table.
      { path: "vrfs[1].rd", message: "64500:1 is also vrfs[0].rd" },
      { path: "vrfs[2].rd", message: "64500:1 is also vrfs[0].rd" },
    ]);
    expect((await getRouter(stores, "ams1-r1"))!.vrfs).toEqual([{ name: "CUST_A", rd: "192.0.2.1:5" }]);
  });

  it("travel in the inventory file: export → import → export gives the same file; an import changes them", async () => {
    const text = await exportInventory(stores);
    expect(text).toContain("vrfs:\n      - name: CUST_A\n        rd: 192.0.2.1:5\n");
    const again = await importInventory(stores, text);
    expect(again.routers).toEqual({ created: [], updated: [], removed: [], unchanged: 1 });
    expect(await exportInventory(stores)).toBe(text);

    const changed = text.replace("rd: 192.0.2.1:5", "rd: 4200000000:9");
    const dry = await importInventory(stores, changed, { dryRun: true });
    expect(dry.routers.updated).toEqual(["ams1-r1"]);
    expect((await getRouter(stores, "ams1-r1"))!.vrfs).toEqual([{ name: "CUST_A", rd: "192.0.2.1:5" }]);
    await importInventory(stores, changed);
    expect((await getRouter(stores, "ams1-r1"))!.vrfs).toEqual([{ name: "CUST_A", rd: "4200000000:9" }]);

    const bad = text.replace("rd: 192.0.2.1:5", "rd: CUST:5");
    const issues = await refusal(importInventory(stores, bad));
    expect(issues).toEqual([
      {
        path: "routers[0].vrfs[0].rd",
        message: expect.stringContaining(
          '"CUST:5" is not a route distinguisher: the administrator must be an AS number or an IPv4 address',
        ),
      },
    ]);
  });

  it("go with their router", async () => {
    expect(await deleteRouter(stores, "ams1-r1")).toBe(true);
    expect(await stores.pg.db.select().from(routerVrfs)).toEqual([]);
  });
});
