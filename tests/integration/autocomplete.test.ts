/**
 * api/autocomplete/ and api/filter/metadata/ on a 1-day demo network: AS search by number
 * (numeric distance) and name, negation and # carry-over, the site's minimum lengths, routers,
 * interfaces, applications, infrastructures, protocols, access, and names for a mixed batch.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asInfo, siteSettings, userPermissions, users } from "~db/postgres/schema";
import type { Permission } from "~/lib/permissions";
import * as autocompleteRoute from "~/routes/api.autocomplete";
import * as metadataRoute from "~/routes/api.filter.metadata";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, sessionCookie } from "../helpers/http";
import { openDemoStores } from "../helpers/demo-template";
import { type TestStores } from "../helpers/stores";
import { demoTestNow } from "../helpers/clock";

const NOW = demoTestNow();

type Item = { id: string; name: string; value: string; type: string };
let stores: TestStores;
const uid = { admin: 0, flowsOnly: 0, noFlows: 0 };

async function createUser(email: string, permissions: Permission[]) {
  const [row] = await stores.pg.db
    .insert(users)
    .values({
      email,
      firstName: "T",
      passwordHash: "!unusable",
      hasConsented: true,
    })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
  return row.id;
}

beforeAll(async () => {
  stores = await openDemoStores({ now: NOW, days: 1 });
  useServicesForTests(stores);
  uid.admin = (await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@flowlens.example")))[0].id;
  uid.flowsOnly = await createUser("flows-only@ac.test", ["API_FLOWS_4D"]);
  uid.noFlows = await createUser("no-flows@ac.test", ["CONTROL_PLANE"]);
}, 300_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

async function post(module: typeof autocompleteRoute | typeof metadataRoute, path: string, userId: number, body: unknown) {
  const res = await callRoute(module, path, {
    method: "POST",
    cookie: await sessionCookie(stores, userId),
    body,
  });
  return { status: res.status, data: await res.json() };
}
const search = async (dimension: string, searchTerm: string, userId = uid.admin): Promise<Item[]> => {
  const res = await post(autocompleteRoute, "/api/autocomplete", userId, {
    dimension,
    searchTerm,
  });
  expect(res.status).toBe(200);
  return res.data.results as Item[];
};

describe("api/autocomplete/ — AS dimensions", () => {
  it('"2906" finds Netflix first, then by numeric distance', async () => {
    const results = await search("AS_SRC_INGRESS", "2906");
    expect(results[0]).toEqual({
      id: "2906",
      name: "Netflix",
      value: "2906",
      type: "PRIMITIVE",
    });
    const distances = results.map((r) => Math.abs(Number(r.value) - 2906));
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(results.length).toBeLessThanOrEqual(20);
  });

  it("a short number: numeric distance order, at most 20", async () => {
    const results = await search("AS_DST_INGRESS", "3");
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(20);
    const distances = results.map((r) => Math.abs(Number(r.value) - 3));
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const r of results) expect(r.value.startsWith("3") || r.name.includes("3")).toBe(true);
  });

  it('"netfl" finds Netflix by name (case-insensitive), the best match first', async () => {
    const results = await search("AS_SRC_INGRESS", "netfl");
    expect(results[0].value).toBe("2906");
    expect(results.map((r) => r.value)).toContain("40027");
    for (const r of results) expect(r.name.toLowerCase()).toContain("netfl");
    expect((await search("AS_SRC_INGRESS", "NETFLIX"))[0].name).toBe("Netflix");
  });

  it('"AS2906" reads as the number', async () => {
    expect((await search("AS_SRC_INGRESS", "AS2906"))[0].value).toBe("2906");
  });

  it('"!3320" returns negated values', async () => {
    const results = await search("AS_HND_INGRESS", "!3320");
    expect(results[0]).toEqual({
      id: "3320",
      // The effective name: the demo's site layer names AS3320 (as_info: "Deutsche Telekom").
      name: "Deutsche Telekom (DTAG)",
      value: "!3320",
      type: "PRIMITIVE",
    });
    for (const r of results) expect(r.value.startsWith("!")).toBe(true);
  });

  it("finds an AS by the name a mapping layer gives it, and names it so", async () => {
    const results = await search("AS_SRC_INGRESS", "dtag");
    expect(results[0]).toEqual({ id: "3320", name: "Deutsche Telekom (DTAG)", value: "3320", type: "PRIMITIVE" });
  });

  it("a # suffix (tag input) is carried over to the results", async () => {
    const results = await search("AS_SRC_INGRESS", "netflix#");
    expect(results[0]).toMatchObject({ name: "Netflix", value: "2906#" });
    for (const r of results) expect(r.value.endsWith("#")).toBe(true);
    expect((await search("AS_SRC_INGRESS", "!2906#"))[0].value).toBe("!2906#");
  });

  it("no search for an empty term or one containing * or _", async () => {
    for (const t of ["", "  ", "!", "29*", "net_flix", "!*"]) expect(await search("AS_SRC_INGRESS", t)).toEqual([]);
    // a literal %, escaped in the LIKE pattern: no AS name contains it
    expect(await search("AS_SRC_INGRESS", "%")).toEqual([]);
  });

  it("the site's minimum length applies (primary_as for AS dimensions, application, infrastructure)", async () => {
    const [before] = await stores.pg.db.select({ v: siteSettings.autocompleteMinLengths }).from(siteSettings).where(eq(siteSettings.id, 1));
    try {
      await stores.pg.db
        .update(siteSettings)
        .set({
          autocompleteMinLengths: {
            primary_as: 3,
            secondary_as: 3,
            application: 5,
            infrastructure: 4,
          },
        })
        .where(eq(siteSettings.id, 1));
      expect(await search("AS_SRC_INGRESS", "29")).toEqual([]);
      expect(await search("AS_SRC_INGRESS", "!29")).toEqual([]);
      expect((await search("AS_SRC_INGRESS", "290")).length).toBeGreaterThan(0);
      expect(await search("AS_APPLICATION", "Netf")).toEqual([]);
      expect((await search("AS_APPLICATION", "Netfl")).map((r) => r.value)).toContain("Netflix");
      expect(await search("AS_INFRASTRUCTURE", "Aka")).toEqual([]);
      expect((await search("AS_INFRASTRUCTURE", "Akam")).map((r) => r.value)).toContain("Akamai");
    } finally {
      await stores.pg.db.update(siteSettings).set({ autocompleteMinLengths: before.v }).where(eq(siteSettings.id, 1));
    }
  });

  it("special AS values are found by name", async () => {
    expect((await search("AS_SRC_INGRESS", "untrack")).map((r) => r.value)).toContain("-999");
  });

  it("terms are bound, not spliced into SQL", async () => {
    const results = await search("AS_SRC_INGRESS", "x' OR '1'='1");
    expect(results).toEqual([]);
    expect((await stores.pg.db.select({ asn: asInfo.asn }).from(asInfo).where(eq(asInfo.asn, 2906))).length).toBe(1);
  });
});

describe("api/autocomplete/ — other dimensions", () => {
  it("routers by name and city", async () => {
    const byName = await search("ROUTER_IN", "fra-er");
    expect(byName.map((r) => r.value).sort()).toEqual(["fra-er1", "fra-er2"]);
    expect(byName[0].name).toContain("Frankfurt");
    const byCity = await search("ROUTER_OUT", "berlin");
    expect(byCity.map((r) => r.value)).toContain("ber-er1");
  });

  it("interfaces by router, name and description; value router|interface", async () => {
    const byDescription = await search("INTERFACE_IN", "netflix");
    expect(byDescription.length).toBeGreaterThan(0);
    for (const r of byDescription) {
      expect(r.value).toMatch(/^[a-z]{3}-[a-z]+\d+\|.+/);
      expect(r.name.toLowerCase()).toContain("netflix");
    }
    const byRouter = await search("INTERFACE_OUT", "ber-er1");
    expect(byRouter.length).toBeGreaterThan(0);
    // its own interfaces first in name quality; core links of other routers name it in their description
    expect(byRouter[0].value.startsWith("ber-er1|")).toBe(true);
    for (const r of byRouter) expect(r.value.startsWith("ber-er1|") || r.name.includes("ber-er1")).toBe(true);
    const links = await search("INTERNAL_LINK_START", "core");
    expect(links.length).toBeGreaterThan(0);
  });

  it("applications and infrastructures from the service mappings", async () => {
    expect((await search("AS_APPLICATION", "netf")).map((r) => r.value)).toEqual(["Netflix"]);
    expect((await search("AS_INFRASTRUCTURE", "cloud")).map((r) => r.value)).toContain("Cloudflare");
    expect(await search("AS_APPLICATION", "cloudflare")).toEqual([]);
  });

  it("IANA protocols by number and name", async () => {
    expect((await search("IANA_PROTOCOL", "6"))[0]).toEqual({
      id: "6",
      name: "TCP",
      value: "6",
      type: "PRIMITIVE",
    });
    expect((await search("IANA_PROTOCOL", "udp")).map((r) => r.value)).toEqual(["17", "136"]); // UDP, then UDPLite
    expect((await search("IANA_PROTOCOL", "icmp")).map((r) => r.value)).toEqual(["1", "58"]);
    expect((await search("IANA_PROTOCOL", "!tcp"))[0].value).toBe("!6");
  });

  it("VRF names from the flows (ClickHouse, bound term)", async () => {
    expect((await search("VRF_NAME", "inter")).map((r) => r.value)).toEqual(["INTERNET"]);
    expect((await search("VRF_NAME", "!DEF")).map((r) => r.value)).toEqual(["!default"]);
    expect(await search("VRF_NAME", "x' OR 1=1 --")).toEqual([]);
  });
});

describe("api/autocomplete/ — access and validation", () => {
  it("without API_FLOWS_4D: 403", async () => {
    const res = await post(autocompleteRoute, "/api/autocomplete", uid.noFlows, { dimension: "AS_SRC_INGRESS", searchTerm: "2906" });
    expect(res.status).toBe(403);
    expect(res.data.exception_code).toBe("permission_denied");
  });

  it("a dimension the user may not use: 400 naming the field", async () => {
    const res = await post(autocompleteRoute, "/api/autocomplete", uid.flowsOnly, { dimension: "ROUTER_IN", searchTerm: "fra" });
    expect(res.status).toBe(400);
    expect(res.data.errors[0].field).toBe("dimension");
    expect((await search("AS_SRC_INGRESS", "2906", uid.flowsOnly))[0].value).toBe("2906");
  });

  it("unknown dimension or missing body fields: 400", async () => {
    expect(
      (
        await post(autocompleteRoute, "/api/autocomplete", uid.admin, {
          dimension: "NOPE",
          searchTerm: "x",
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await post(autocompleteRoute, "/api/autocomplete", uid.admin, {
          dimension: "AS_SRC_INGRESS",
        })
      ).status,
    ).toBe(400);
  });

  it("anonymous: 403 not_authenticated", async () => {
    const res = await callRoute(autocompleteRoute, "/api/autocomplete", {
      method: "POST",
      body: { dimension: "AS_SRC_INGRESS", searchTerm: "1" },
    });
    expect(res.status).toBe(403);
  });
});

describe("api/filter/metadata/", () => {
  it("names for a mixed batch, in request order", async () => {
    const iface = (await search("INTERFACE_IN", "PNI: Netflix"))[0];
    const res = await post(metadataRoute, "/api/filter/metadata", uid.admin, {
      filters: [
        { dimension: "AS_SRC_INGRESS", value: "2906" },
        { dimension: "AS_DST_INGRESS", value: "!AS3320" },
        { dimension: "ROUTER_IN", value: "fra-er1" },
        { dimension: "INTERFACE_IN", value: iface.value },
        { dimension: "IANA_PROTOCOL", value: 17 },
        { dimension: "AS_APPLICATION", value: "Netflix" },
        { dimension: "AS_SRC_INGRESS", value: "-999" },
        { dimension: "AS_SRC_INGRESS", value: "4294967000" },
        { value: "15169" },
      ],
      fallbackDimensionType: "AS_NUMBER",
    });
    expect(res.status).toBe(200);
    expect(res.data.results.map((r: { name: string | null }) => r.name)).toEqual([
      "Netflix",
      "Deutsche Telekom (DTAG)",
      "fra-er1 (Frankfurt)",
      // Router and interface as people read them, the inventory's description in brackets.
      `${iface.value.replace("|", " ")} (${iface.name.slice(iface.value.length + 1)})`,
      "UDP",
      "Netflix",
      "Untracked",
      null,
      "Google",
    ]);
    expect(res.data.results[1]).toEqual({
      dimension: "AS_DST_INGRESS",
      value: "!AS3320",
      name: "Deutsche Telekom (DTAG)",
      type: "PRIMITIVE",
    });
  });

  it("fallbackDimensionType as a router kind or a dimension id; none: null names", async () => {
    const routers = await post(metadataRoute, "/api/filter/metadata", uid.admin, {
      filters: [{ value: "ber-er1" }],
      fallbackDimensionType: "ROUTER",
    });
    expect(routers.data.results[0].name).toBe("ber-er1 (Berlin)");
    const byDim = await post(metadataRoute, "/api/filter/metadata", uid.admin, {
      filters: [{ value: "2906" }],
      fallbackDimensionType: "AS_NXT_INGRESS",
    });
    expect(byDim.data.results[0].name).toBe("Netflix");
    const none = await post(metadataRoute, "/api/filter/metadata", uid.admin, {
      filters: [{ value: "2906" }],
    });
    expect(none.data.results[0]).toEqual({
      dimension: null,
      value: "2906",
      name: null,
      type: "PRIMITIVE",
    });
  });

  it("access: 403 without API_FLOWS_4D; 400 for a dimension the user may not use or an unknown type", async () => {
    expect(
      (
        await post(metadataRoute, "/api/filter/metadata", uid.noFlows, {
          filters: [],
        })
      ).status,
    ).toBe(403);
    const denied = await post(metadataRoute, "/api/filter/metadata", uid.flowsOnly, {
      filters: [{ dimension: "ROUTER_IN", value: "fra-er1" }],
    });
    expect(denied.status).toBe(400);
    expect(denied.data.errors[0].field).toBe("filters.0.dimension");
    const kindNotHeld = await post(metadataRoute, "/api/filter/metadata", uid.flowsOnly, {
      filters: [{ value: "fra-er1" }],
      fallbackDimensionType: "ROUTER",
    });
    expect(kindNotHeld.data.results[0].name).toBeNull();
    expect(
      (
        await post(metadataRoute, "/api/filter/metadata", uid.admin, {
          filters: [],
          fallbackDimensionType: "BOGUS",
        })
      ).status,
    ).toBe(400);
  });
});
