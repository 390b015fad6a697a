/**
 * The inventory screen (/site-settings/inventory) through its route module: staff and superusers
 * only, routers / interfaces / vantage points created, edited and deleted by plain form posts
 * (redirect with a notice), refusals as 400 with the service's message next to the field and
 * nothing stored, secrets kept when their input is left empty, the CSRF field required.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routers, users } from "~db/postgres/schema";
import { getRouter, getVantagePoint, routerSecrets } from "~/features/inventory/inventory.server";
import * as route from "~/routes/_app.site-settings_.inventory";
import { useServicesForTests } from "~/server/services.server";
import { formRequest, getRequest, ORIGIN, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const KEY = "17".repeat(32);
const PATH = "/site-settings/inventory";
let stores: TestStores;
const cookies = { staff: "", superuser: "", user: "", delegated: "" };

beforeAll(async () => {
  stores = await openTestStores({ env: { INVENTORY_SECRET_KEY: KEY } });
  useServicesForTests(stores);
  const insert = async (email: string, extra: Partial<typeof users.$inferInsert>) =>
    (
      await stores.pg.db
        .insert(users)
        .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true, ...extra })
        .returning({ id: users.id })
    )[0].id;
  const staff = await insert("staff@inventory.test", { isStaff: true });
  const user = await insert("user@inventory.test", {});
  const delegated = await insert("delegated@inventory.test", { isDelegated: true, delegatedById: user });
  cookies.staff = await sessionCookie(stores, staff);
  cookies.superuser = await sessionCookie(stores, await insertSuperuser(stores, "root@inventory.test"));
  cookies.user = await sessionCookie(stores, user);
  cookies.delegated = await sessionCookie(stores, delegated);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const get = (query = "", cookie = cookies.staff) => runRoute(route.loader, getRequest(`${PATH}${query}`, cookie));
const post = (fields: Record<string, string>, cookie = cookies.staff) => runRoute(route.action, formRequest(PATH, fields, cookie));

const FRA = {
  intent: "create-router",
  name: "fra1-r1",
  city: "Frankfurt",
  country: "Germany",
  role: "edge",
  vendor: "juniper",
  loopback: "198.51.100.1",
  exporters: "192.0.2.1\n2001:db8::1",
  snmp_version: "2c",
  snmp_port: "161",
  snmp_community: "s3cret-community",
};

describe("access", () => {
  it("is for staff and superusers; others get a 403, signed-out visitors the login page", async () => {
    expect((await get("", cookies.staff)).status).toBe(200);
    expect((await get("", cookies.superuser)).status).toBe(200);
    expect((await get("", cookies.user)).status).toBe(403);
    expect((await get("", cookies.delegated)).status).toBe(403);
    expect((await post(FRA, cookies.user)).status).toBe(403);
    expect((await post(FRA, cookies.delegated)).status).toBe(403);
    const anonymous = await runRoute(route.loader, new Request(`${ORIGIN}${PATH}`));
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe(`/login?next=${encodeURIComponent(PATH)}`);
    expect(await getRouter(stores, "fra1-r1")).toBeNull();
  });

  it("refuses a post without the CSRF field", async () => {
    const request = new Request(`${ORIGIN}${PATH}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookies.staff },
      body: new URLSearchParams(FRA).toString(),
    });
    expect((await runRoute(route.action, request)).status).toBe(403);
    expect(await getRouter(stores, "fra1-r1")).toBeNull();
  });
});

describe("routers", () => {
  it("are added with their exporters and listed; the secret is stored, shown only as set", async () => {
    const out = await post(FRA, cookies.superuser);
    expect(out.status).toBe(302);
    expect(out.location).toBe(`${PATH}?router=fra1-r1&saved=router-created`);
    const page = await get("?saved=router-created");
    expect(page.data.savedMessage).toBe("The router was added.");
    expect(page.data.routers).toEqual([
      {
        name: "fra1-r1",
        city: "Frankfurt",
        country: "Germany",
        role: "edge",
        vendor: "juniper",
        loopback: "198.51.100.1",
        exporters: ["192.0.2.1", "2001:db8::1"],
        interfaceCount: 0,
      },
    ]);
    const opened = await get("?router=fra1-r1");
    expect(opened.data.router.snmp.community).toBe("set");
    expect(JSON.stringify(opened.data)).not.toContain("s3cret-community");
    expect((await routerSecrets(stores, "fra1-r1"))!.snmpCommunity).toBe("s3cret-community");
  });

  it("bad input: 400 with the service's message next to the field, the values kept, nothing stored", async () => {
    const out = await post({ ...FRA, name: "ber1-r1", loopback: "not-an-address", exporters: "192.0.2.1" });
    expect(out.status).toBe(400);
    expect(out.data.intent).toBe("create-router");
    expect(out.data.errors.loopback).toBe('must be an IPv4 or IPv6 address, not "not-an-address"');
    expect(out.data.values.loopback).toBe("not-an-address");
    const taken = await post({ ...FRA, name: "ber1-r1", loopback: "198.51.100.2", exporters: "192.0.2.1" });
    expect(taken.status).toBe(400);
    expect(taken.data.errors.exporters).toBe("192.0.2.1 is an exporter of router fra1-r1");
    const port = await post({ ...FRA, name: "ber1-r1", snmp_port: "lots" });
    expect(port.data.errors.snmp_port).toBe("must be a whole number");
    expect(await getRouter(stores, "ber1-r1")).toBeNull();
  });

  it("are edited: a secret left empty is kept, 'clear' removes it, a new one replaces it", async () => {
    const edit = { ...FRA, intent: "update-router", current: "fra1-r1", snmp_community: "", city: "Frankfurt am Main" };
    const out = await post(edit);
    expect(out.location).toBe(`${PATH}?router=fra1-r1&saved=router-updated`);
    expect((await getRouter(stores, "fra1-r1"))!.city).toBe("Frankfurt am Main");
    expect((await routerSecrets(stores, "fra1-r1"))!.snmpCommunity).toBe("s3cret-community");
    await post({ ...edit, snmp_community: "other-community" });
    expect((await routerSecrets(stores, "fra1-r1"))!.snmpCommunity).toBe("other-community");
    // Cleared while SNMP 2c still needs one: the schema says so next to the field.
    const cleared = await post({ ...edit, snmp_community_clear: "on" });
    expect(cleared.status).toBe(400);
    expect(cleared.data.errors.snmp_community).toBe("is required for SNMP 2c");
    await post({ ...edit, snmp_version: "", snmp_community_clear: "on" });
    expect((await getRouter(stores, "fra1-r1"))!.snmp).toBeNull();
    const [row] = await stores.pg.db.select().from(routers);
    expect(row.snmpCommunityEnc).toBeNull();
  });

  it("take their VRFs as 'NAME RD' lines, shown again in the edit form; bad lines and distinguishers refused next to the field", async () => {
    const edit = { ...FRA, intent: "update-router", current: "fra1-r1", snmp_version: "", snmp_community: "", city: "Frankfurt am Main" };
    const out = await post({ ...edit, vrfs: "CUST_A 64500:1\r\nCUST_B  192.0.2.1:7\n" });
    expect(out.location).toBe(`${PATH}?router=fra1-r1&saved=router-updated`);
    expect((await getRouter(stores, "fra1-r1"))!.vrfs).toEqual([
      { name: "CUST_A", rd: "64500:1" },
      { name: "CUST_B", rd: "192.0.2.1:7" },
    ]);
    expect((await get("?router=fra1-r1")).data.router.vrfs).toEqual([
      { name: "CUST_A", rd: "64500:1" },
      { name: "CUST_B", rd: "192.0.2.1:7" },
    ]);
    const oneWord = await post({ ...edit, vrfs: "CUST_A 64500:1\nCUST_C" });
    expect(oneWord.status).toBe(400);
    expect(oneWord.data.errors.vrfs).toBe("line 2: write the VRF's name and its route distinguisher, e.g. CUST_A 64500:1");
    expect(oneWord.data.values.vrfs).toBe("CUST_A 64500:1\nCUST_C");
    const badRd = await post({ ...edit, vrfs: "CUST_A 64500:1\nCUST_C 192.0.2.1:99999" });
    expect(badRd.status).toBe(400);
    expect(badRd.data.errors.vrfs).toBe(
      'VRF 2: "192.0.2.1:99999" is not a route distinguisher: with an IPv4 address (type 1) the assigned number must be at most 65535',
    );
    expect((await getRouter(stores, "fra1-r1"))!.vrfs).toHaveLength(2);
    // Emptied: the router has no VRFs.
    await post({ ...edit, vrfs: "" });
    expect((await getRouter(stores, "fra1-r1"))!.vrfs).toEqual([]);
  });

  it("a router without an exporter address is warned about, on its page and above the list, until it has one", async () => {
    expect((await get()).data.noExporterWarning).toBeNull();
    const HAM = { ...FRA, name: "ham1-r1", city: "Hamburg", loopback: "198.51.100.9", exporters: "", snmp_version: "", snmp_community: "" };
    const made = await post(HAM);
    expect(made.location).toBe(`${PATH}?router=ham1-r1&saved=router-created`);
    const warning =
      "ham1-r1 has no exporter address: the collector knows a router by the address its flows come from, so flows from it are not " +
      "attributed to it (the Data sources screen lists them as unknown exporters). Add the address the router sends flows from.";
    // Where the creation leads: the router's page.
    const page = await get("?router=ham1-r1&saved=router-created");
    expect(page.data.routerNoExporterWarning).toBe(warning);
    expect(page.data.noExporterWarning).toBe(warning);
    expect((await get("?router=fra1-r1")).data.routerNoExporterWarning).toBeNull();
    // Given an address, it is attributed: no warning.
    await post({ ...HAM, intent: "update-router", current: "ham1-r1", exporters: "192.0.2.77" });
    const after = await get("?router=ham1-r1");
    expect([after.data.routerNoExporterWarning, after.data.noExporterWarning]).toEqual([null, null]);
    expect((await post({ intent: "delete-router", current: "ham1-r1" })).status).toBe(302);
  });

  it("without INVENTORY_SECRET_KEY a secret is refused with the service's message", async () => {
    const config = stores.config as { INVENTORY_SECRET_KEY?: Buffer };
    const key = config.INVENTORY_SECRET_KEY;
    config.INVENTORY_SECRET_KEY = undefined;
    try {
      const out = await post({ ...FRA, intent: "update-router", current: "fra1-r1", snmp_community: "new" });
      expect(out.status).toBe(400);
      expect(out.data.errors.snmp_community).toBe("INVENTORY_SECRET_KEY is not set, so secrets cannot be saved (docs/inventory.md)");
    } finally {
      config.INVENTORY_SECRET_KEY = key;
    }
  });
});

describe("interfaces", () => {
  const IFACE = {
    intent: "create-interface",
    router_name: "fra1-r1",
    name: "et-0/0/1",
    ifindex: "502",
    description: "to AS3356",
    capacity_gbps: "2.5",
    kind: "external",
    peering: "Transit",
    connection: "PNI",
    neighbour_as: "3356",
  };

  it("are added, edited and deleted on their router's page", async () => {
    const out = await post(IFACE);
    expect(out.location).toBe(`${PATH}?router=fra1-r1&saved=interface-created`);
    const page = await get("?router=fra1-r1");
    expect(page.data.router.interfaces).toMatchObject([
      { name: "et-0/0/1", ifindex: 502, capacity: 2_500_000_000, kind: "external", peering: "Transit", neighbour_as: 3356 },
    ]);
    expect(page.data.routers[0].interfaceCount).toBe(1);
    await post({ ...IFACE, intent: "update-interface", current: "et-0/0/1", capacity_gbps: "100" });
    expect((await get("?router=fra1-r1&interface=et-0/0/1")).data.editedInterface.capacity).toBe(100e9);
    const gone = await post({ intent: "delete-interface", router_name: "fra1-r1", current: "et-0/0/1" });
    expect(gone.location).toBe(`${PATH}?router=fra1-r1&saved=interface-deleted`);
    expect((await getRouter(stores, "fra1-r1"))!.interfaces).toEqual([]);
  });

  it("bad input: 400 naming the field, nothing stored", async () => {
    const noPeering = await post({ ...IFACE, peering: "" });
    expect(noPeering.status).toBe(400);
    expect(noPeering.data.errors.peering).toBe("is required for external interfaces (Transit, Peering, Customer)");
    const capacity = await post({ ...IFACE, capacity_gbps: "fast" });
    expect(capacity.data.errors.capacity_gbps).toBe("must be a number of Gbit/s, e.g. 100 or 2.5");
    const remote = await post({ ...IFACE, kind: "core", peering: "", neighbour_as: "", remote_router: "ber1-r1", remote_interface: "x" });
    expect(remote.data.errors.remote_router).toBe("no interface x on router ber1-r1");
    expect((await getRouter(stores, "fra1-r1"))!.interfaces).toEqual([]);
  });
});

describe("vantage points", () => {
  const VP = { intent: "create-vantage-point", key: "fra1", router: "fra1-r1", city: "Frankfurt", country: "Germany", ip: "198.51.100.1" };

  it("are added, edited and deleted; a router with vantage points is not deleted, and the page says why", async () => {
    expect((await post({ ...VP, public: "on" })).location).toBe(`${PATH}?saved=vantage-point-created`);
    expect(await getVantagePoint(stores, "fra1")).toMatchObject({ router: "fra1-r1", public: true });
    await post({ ...VP, intent: "update-vantage-point", current: "fra1", description: "Frankfurt edge" });
    expect(await getVantagePoint(stores, "fra1")).toMatchObject({ public: false, description: "Frankfurt edge" });

    expect((await get("?router=fra1-r1")).data.dependents).toEqual({ vantagePoints: ["fra1"], remoteEnds: [] });
    const refused = await post({ intent: "delete-router", current: "fra1-r1" });
    expect(refused.status).toBe(400);
    expect(refused.data.errors[""]).toBe(
      "router fra1-r1 is the router of the vantage point fra1: delete it or move it to another router first",
    );
    expect(await getRouter(stores, "fra1-r1")).not.toBeNull();

    const bad = await post({ ...VP, key: "fra 2", ip: "x" });
    expect(bad.status).toBe(400);
    expect(bad.data.errors.key).toBe("must be letters, digits, '.', '_' or '-' (at most 64), starting with a letter or digit");
    expect(bad.data.errors.ip).toBe('must be an IPv4 or IPv6 address, not "x"');

    expect((await post({ intent: "delete-vantage-point", current: "fra1" })).location).toBe(`${PATH}?saved=vantage-point-deleted`);
    expect(await getVantagePoint(stores, "fra1")).toBeNull();
    expect((await post({ intent: "delete-router", current: "fra1-r1" })).location).toBe(`${PATH}?saved=router-deleted`);
    expect(await getRouter(stores, "fra1-r1")).toBeNull();
  });

  it("a delete of a router, interface or vantage point that is not there (any more) answers 404 saying so, not 'deleted'", async () => {
    const cases = [
      [{ intent: "delete-router", current: "gone-r1" }, "There is no router named gone-r1."],
      [{ intent: "delete-vantage-point", current: "gone1" }, "There is no vantage point with the key gone1."],
      [
        { intent: "delete-interface", router_name: "gone-r1", current: "et-0/0/9" },
        "There is no interface named et-0/0/9 on a router named gone-r1.",
      ],
    ] as const;
    for (const [fields, message] of cases) {
      const answer = await post(fields);
      expect(answer.status, fields.intent).toBe(404);
      expect(answer.location).toBeNull();
      expect(answer.data.errors[""]).toBe(message);
    }
  });
});
