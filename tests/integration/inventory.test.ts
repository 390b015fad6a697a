/**
 * The inventory service against test stores: validation naming the fields, secrets stored as
 * ciphertext and never read back in a view, the exporter lookup, interfaces and vantage points.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { interfaces, routers } from "~db/postgres/schema";
import {
  createInterface,
  createRouter,
  createVantagePoint,
  createVantagePointOfRouter,
  deleteInterface,
  deleteRouter,
  deleteVantagePoint,
  getRouter,
  InventoryInputError,
  listInterfaces,
  routerForExporter,
  routerSecrets,
  updateInterface,
  updateRouter,
  updateVantagePoint,
} from "~/features/inventory/inventory.server";
import { InventorySecretError } from "~/features/inventory/secrets.server";
import { parseConfig } from "~/server/env.server";
import { openTestStores, type TestStores } from "../helpers/stores";

const KEY = "42".repeat(32);
let stores: TestStores;

beforeAll(async () => {
  stores = await openTestStores({ env: { INVENTORY_SECRET_KEY: KEY } });
});

afterAll(async () => {
  await stores?.dispose();
});

const PRIVATE_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAAB3NzaC1yc2EAAAADAQABAAABAQ\n-----END OPENSSH PRIVATE KEY-----\n";
const fra = {
  name: "fra1-r1",
  city: "Frankfurt",
  country: "Germany",
  vendor: "juniper",
  loopback: "198.51.100.1",
  exporters: ["192.0.2.1", "2001:DB8::0:1"],
  snmp: {
    version: "3",
    user: "poller",
    auth_protocol: "SHA-256",
    auth_password: "auth-pass-9",
    priv_protocol: "AES-128",
    priv_password: "priv-pass-9",
  },
  ssh: { host: "198.51.100.1", user: "lg", private_key: PRIVATE_KEY, host_key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExample" },
  interfaces: [
    { name: "et-0/0/1", ifindex: 502, capacity: "100G", kind: "external", peering: "Transit", connection: "Transit", neighbour_as: 3356 },
  ],
};

async function refusal(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InventoryInputError);
  return (error as InventoryInputError).issues.map((i) => `${i.path}: ${i.message}`);
}

describe("routers", () => {
  it("are created with their exporters and interfaces; secrets read back only as set / not set", async () => {
    const router = await createRouter(stores, fra);
    expect(router).toMatchObject({
      name: "fra1-r1",
      role: "edge",
      exporters: ["192.0.2.1", "2001:db8::1"],
      snmp: { version: "3", port: 161, community: "not set", user: "poller", auth_password: "set", priv_password: "set" },
      ssh: { host: "198.51.100.1", port: 22, user: "lg", private_key: "set", password: "not set" },
      interfaces: [{ name: "et-0/0/1", ifindex: 502, capacity: 100_000_000_000, kind: "external", peering: "Transit", neighbour_as: 3356 }],
    });
    expect(JSON.stringify(router)).not.toMatch(/auth-pass-9|priv-pass-9|PRIVATE KEY/);
  });

  it("keep secrets as AES-GCM ciphertext in the database, which only the key opens", async () => {
    const [row] = await stores.pg.db.select().from(routers).where(eq(routers.name, "fra1-r1"));
    const stored = JSON.stringify(row);
    expect(stored).not.toMatch(/auth-pass-9|priv-pass-9|PRIVATE KEY/);
    expect(row.snmpV3AuthPasswordEnc).toMatch(/^v1:[A-Za-z0-9+/]+=*$/);
    expect(row.sshPrivateKeyEnc).toMatch(/^v1:/);
    expect(await routerSecrets(stores, "fra1-r1")).toEqual({
      snmpCommunity: null,
      snmpAuthPassword: "auth-pass-9",
      snmpPrivPassword: "priv-pass-9",
      sshPrivateKey: PRIVATE_KEY,
      sshPassword: null,
    });
    const otherKey = {
      ...stores,
      config: parseConfig({ DATA_DIR: stores.dataDir, INVENTORY_SECRET_KEY: Buffer.alloc(32, 7).toString("base64") }),
    };
    await expect(routerSecrets(otherKey, "fra1-r1")).rejects.toThrow(InventorySecretError);
    await expect(routerSecrets(otherKey, "fra1-r1")).rejects.toThrow(
      "routers.snmp_v3_auth_password_enc cannot be decrypted: INVENTORY_SECRET_KEY is not the key it was saved with",
    );
    const noKey = { ...stores, config: parseConfig({ DATA_DIR: stores.dataDir }) };
    await expect(routerSecrets(noKey, "fra1-r1")).rejects.toThrow("INVENTORY_SECRET_KEY is not set");
  });

  it("keep a secret given as the marker, remove one left out, and need the key to save a new one", async () => {
    const [before] = await stores.pg.db.select().from(routers).where(eq(routers.name, "fra1-r1"));
    const kept = await updateRouter(stores, "fra1-r1", {
      ...fra,
      snmp: { ...fra.snmp, auth_password: { secret: "set" }, priv_password: { secret: "set" } },
      ssh: { ...fra.ssh, private_key: undefined, password: "ssh-pass" },
    });
    expect(kept.ssh).toMatchObject({ private_key: "not set", password: "set" });
    const [after] = await stores.pg.db.select().from(routers).where(eq(routers.name, "fra1-r1"));
    expect(after.snmpV3AuthPasswordEnc).toBe(before.snmpV3AuthPasswordEnc);
    expect(after.sshPrivateKeyEnc).toBeNull();

    const noKey = { ...stores, config: parseConfig({ DATA_DIR: stores.dataDir }) };
    expect(
      await refusal(createRouter(noKey, { ...fra, name: "x1", exporters: [], snmp: { version: "2c", community: "c" }, ssh: null })),
    ).toEqual(["snmp.community: INVENTORY_SECRET_KEY is not set, so secrets cannot be saved (docs/inventory.md)"]);
    expect(await getRouter(stores, "x1")).toBeNull();
    expect(
      await refusal(
        createRouter(stores, { ...fra, name: "x2", exporters: [], snmp: { version: "2c", community: { secret: "set" } }, ssh: null }),
      ),
    ).toEqual(["snmp.community: no secret is stored to keep: give the secret itself"]);
  });

  it("refuse bad input, naming every field", async () => {
    const issues = await refusal(
      createRouter(stores, {
        name: "bad r1",
        city: "",
        country: "Germany",
        role: "spine",
        loopback: "198.51.100.0/24",
        exporters: ["192.0.2.9", "192.0.2.9"],
        snmp: { version: "2", community: "x" },
        ssh: { host: "a;b", user: "lg", host_key: "x" },
        interfaces: [
          { name: "a", ifindex: 0, capacity: "10 parsecs", kind: "edge" },
          { name: "b", ifindex: 7, capacity: 1e9, kind: "external", neighbour_as: 4_294_967_296 },
          { name: "c", ifindex: 7, capacity: 1e9, kind: "access", peering: "Transit", remote: { router: "r", interface: "i" } },
        ],
      }),
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        "name: must not contain spaces",
        "city: must not be empty",
        expect.stringMatching(/^role: /),
        'loopback: must be an IPv4 or IPv6 address, not "198.51.100.0/24"',
        'snmp.version: must be "2c" or "3"',
        "ssh.host: must be a host name or IP address",
        'ssh.host_key: must be a public key line, e.g. "ssh-ed25519 AAAA…"',
        "interfaces[0].ifindex: must be at least 1",
        'interfaces[0].capacity: must be bits per second, e.g. 100G, 2.5G, 400M or 10000000000 (at most 10T), not "10 parsecs"',
        expect.stringMatching(/^interfaces\[0\]\.kind: /),
        expect.stringMatching(/^interfaces\[1\]\.neighbour_as: /),
        "interfaces[1].peering: is required for external interfaces (Transit, Peering, Customer)",
        "interfaces[2].peering: is for external interfaces only",
        "interfaces[2].remote: is for core interfaces only",
      ]),
    );
    const duplicates = await refusal(
      createRouter(stores, {
        ...fra,
        name: "dup1",
        ssh: null,
        snmp: null,
        exporters: ["192.0.2.9", "192.0.2.9"],
        interfaces: [
          { name: "a", ifindex: 1, capacity: 1, kind: "access" },
          { name: "a", ifindex: 1, capacity: 1, kind: "access" },
        ],
      }),
    );
    expect(duplicates).toEqual([
      "exporters[1]: 192.0.2.9 is listed twice",
      "interfaces[1].name: a is also interfaces[0].name",
      "interfaces[1].ifindex: 1 is also interfaces[0].ifindex",
    ]);
  });

  it("give an exporter address to one router only, and find the router by any spelling of it", async () => {
    expect(await routerForExporter(stores, "2001:db8:0:0:0:0:0:1")).toMatchObject({ name: "fra1-r1" });
    expect(await routerForExporter(stores, "192.0.2.1")).toMatchObject({ name: "fra1-r1" });
    expect(await routerForExporter(stores, "192.0.2.2")).toBeNull();
    expect(await routerForExporter(stores, "not an address")).toBeNull();
    const taken = await refusal(
      createRouter(stores, {
        name: "ber1-r1",
        city: "Berlin",
        country: "Germany",
        loopback: "198.51.100.2",
        exporters: ["192.0.2.5", "192.0.2.1"],
      }),
    );
    expect(taken).toEqual(["exporters[1]: 192.0.2.1 is an exporter of router fra1-r1"]);
    expect(await getRouter(stores, "ber1-r1")).toBeNull();
  });
});

describe("interfaces", () => {
  it("are added, changed and removed one at a time, with core links between routers", async () => {
    await createRouter(stores, { name: "ber1-r1", city: "Berlin", country: "Germany", loopback: "198.51.100.2" });
    await createInterface(stores, "ber1-r1", { name: "Hu0/0/0/0", ifindex: 10, capacity: "100G", kind: "core" });
    const core = await createInterface(stores, "fra1-r1", {
      name: "et-0/0/0",
      ifindex: 501,
      capacity: "100G",
      kind: "core",
      remote: { router: "ber1-r1", interface: "Hu0/0/0/0" },
    });
    expect(core.remote).toEqual({ router: "ber1-r1", interface: "Hu0/0/0/0" });
    await updateInterface(stores, "ber1-r1", "Hu0/0/0/0", {
      name: "Hu0/0/0/0",
      ifindex: 10,
      capacity: "100G",
      kind: "core",
      remote: { router: "fra1-r1", interface: "et-0/0/0" },
    });

    expect(
      await refusal(updateInterface(stores, "fra1-r1", "et-0/0/0", { name: "et-0/0/0", ifindex: 502, capacity: 1, kind: "core" })),
    ).toEqual(["ifindex: router fra1-r1 has an interface with ifindex 502 already"]);
    expect(
      await refusal(
        createInterface(stores, "ber1-r1", {
          name: "Hu0/0/0/1",
          ifindex: 11,
          capacity: 1,
          kind: "core",
          remote: { router: "fra1-r1", interface: "nope" },
        }),
      ),
    ).toEqual(["remote: no interface nope on router fra1-r1"]);
    expect((await listInterfaces(stores, "ber1-r1"))!.map((i) => i.name)).toEqual(["Hu0/0/0/0"]);
  });

  it("swap ifIndexes when the router is saved as a whole (a line card moved)", async () => {
    const router = (await getRouter(stores, "fra1-r1"))!;
    const swapped = await updateRouter(stores, "fra1-r1", {
      ...fra,
      snmp: { ...fra.snmp, auth_password: { secret: "set" }, priv_password: { secret: "set" } },
      ssh: null,
      interfaces: [
        { ...fra.interfaces[0], ifindex: 501 },
        { name: "et-0/0/0", ifindex: 502, capacity: "100G", kind: "core", remote: { router: "ber1-r1", interface: "Hu0/0/0/0" } },
      ],
    });
    expect(swapped.interfaces.map((i) => [i.name, i.ifindex, i.id])).toEqual([
      ["et-0/0/1", 501, router.interfaces.find((i) => i.name === "et-0/0/1")!.id],
      ["et-0/0/0", 502, router.interfaces.find((i) => i.name === "et-0/0/0")!.id],
    ]);
  });

  it("lose their remote end when the other end goes", async () => {
    expect(await deleteInterface(stores, "fra1-r1", "et-0/0/0")).toBe(true);
    expect(await deleteInterface(stores, "fra1-r1", "et-0/0/0")).toBe(false);
    expect((await listInterfaces(stores, "ber1-r1"))![0].remote).toBeNull();
    await createInterface(stores, "fra1-r1", {
      name: "et-0/0/0",
      ifindex: 600,
      capacity: "100G",
      kind: "core",
      remote: { router: "ber1-r1", interface: "Hu0/0/0/0" },
    });
    expect(await deleteRouter(stores, "ber1-r1")).toBe(true);
    expect((await listInterfaces(stores, "fra1-r1"))!.find((i) => i.name === "et-0/0/0")!.remote).toBeNull();
    const rows = await stores.pg.db.select().from(interfaces);
    expect(rows.map((r) => r.name).sort()).toEqual(["et-0/0/0", "et-0/0/1"]);
  });
});

describe("vantage points", () => {
  it("are created, renamed and removed; a new one takes city, country and address from its router", async () => {
    const made = await createVantagePointOfRouter(stores, { key: "fra1", router: "fra1-r1", public: true });
    expect(made).toMatchObject({ key: "fra1", router: "fra1-r1", city: "Frankfurt", country: "Germany", ip: "198.51.100.1", public: true });
    expect(await refusal(createVantagePointOfRouter(stores, { key: "rrc00", router: "rrc00" }))).toEqual([
      "city: is required: router rrc00 is not in the inventory to take it from",
      "country: is required: router rrc00 is not in the inventory to take it from",
      "ip: is required: router rrc00 is not in the inventory to take it from",
    ]);
    const collector = await createVantagePoint(stores, {
      key: "rrc00",
      router: "rrc00",
      city: "Amsterdam",
      country: "Netherlands",
      ip: "193.0.0.56",
    });
    expect(collector).toMatchObject({ public: false, description: "", legacy_description: "" });
    expect(await refusal(createVantagePoint(stores, { key: "rrc00", router: "x", city: "A", country: "B", ip: "192.0.2.1" }))).toEqual([
      "key: a vantage point with key rrc00 exists already",
    ]);
    expect(await refusal(createVantagePoint(stores, { key: "bad key", router: "x", city: "A", country: "B", ip: "192.0.2" }))).toEqual([
      expect.stringMatching(/^key: must be letters/),
      'ip: must be an IPv4 or IPv6 address, not "192.0.2"',
    ]);
    const { id: _id, ...fields } = collector;
    const renamed = await updateVantagePoint(stores, "rrc00", { ...fields, key: "ris-rrc00" });
    expect(renamed.key).toBe("ris-rrc00");
    expect(await deleteVantagePoint(stores, "ris-rrc00")).toBe(true);
    expect(await deleteVantagePoint(stores, "ris-rrc00")).toBe(false);
  });
});
