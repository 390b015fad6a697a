/** NETCOMMAND_SSH seeds the inventory's SSH settings of routers that have none, and never overwrites them. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRouter, createVantagePoint, getRouter, routerSecrets } from "~/features/inventory/inventory.server";
import { hostKeyFor, seedInventorySshFromEnv } from "~/features/netcommand/ssh-seed.server";
import { parseConfig } from "~/server/env.server";
import { openTestStores, type TestStores } from "../helpers/stores";

const KEY = "ab".repeat(32);
const PRIVATE_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nseedkey\n-----END OPENSSH PRIVATE KEY-----\n";
let stores: TestStores;
let dir: string;

beforeAll(async () => {
  stores = await openTestStores({ env: { INVENTORY_SECRET_KEY: KEY } });
  dir = mkdtempSync(path.join(tmpdir(), "flowlens-ssh-seed-"));
  writeFileSync(path.join(dir, "lg_key"), PRIVATE_KEY);
  writeFileSync(
    path.join(dir, "known_hosts"),
    "# routers\n|1|hashed= ssh-rsa AAAAhashed\n198.51.100.9 ssh-rsa AAAAother\n[198.51.100.1]:2222,fra1 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFra\n",
  );
  for (const [name, loopback] of [
    ["fra1-r1", "198.51.100.1"],
    ["ber1-r1", "198.51.100.2"],
  ])
    await createRouter(stores, { name, city: "X", country: "Germany", loopback });
  await createVantagePoint(stores, { key: "fra1", router: "fra1-r1", city: "Frankfurt", country: "Germany", ip: "198.51.100.1" });
  await createVantagePoint(stores, { key: "ber1", router: "ber1-r1", city: "Berlin", country: "Germany", ip: "198.51.100.2" });
  await createVantagePoint(stores, { key: "rrc00", router: "rrc00", city: "Amsterdam", country: "Netherlands", ip: "193.0.0.56" });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const withSsh = (value: object) => ({
  ...stores,
  config: parseConfig({ DATA_DIR: stores.dataDir, INVENTORY_SECRET_KEY: KEY, NETCOMMAND_SSH: JSON.stringify(value) }),
});

describe("NETCOMMAND_SSH → inventory", () => {
  it("finds a host key by host or [host]:port, skipping hashed and comment lines", () => {
    const text = "# x\n|1|abc= ssh-rsa AAAA\nr1,192.0.2.1 ssh-ed25519 AAAAone\n[192.0.2.2]:2222 ecdsa-sha2-nistp256 AAAAtwo\n";
    expect(hostKeyFor(text, "192.0.2.1", 22)).toBe("ssh-ed25519 AAAAone");
    expect(hostKeyFor(text, "192.0.2.2", 2222)).toBe("ecdsa-sha2-nistp256 AAAAtwo");
    expect(hostKeyFor(text, "192.0.2.2", 22)).toBeNull();
  });

  it("seeds routers without SSH settings, says why it skips the others, and keeps what the inventory has", async () => {
    const target = {
      host: "198.51.100.1",
      port: 2222,
      user: "lg",
      vendor: "juniper",
      identityFile: path.join(dir, "lg_key"),
      knownHostsFile: path.join(dir, "known_hosts"),
    };
    const services = withSsh({ fra1: target, ber1: { host: "198.51.100.2", user: "lg", vendor: "cisco" }, rrc00: target, nope: target });
    expect(await seedInventorySshFromEnv(services)).toEqual([
      { vantagePoint: "fra1", router: "fra1-r1", seeded: true, reason: "seeded" },
      { vantagePoint: "ber1", router: "ber1-r1", seeded: false, reason: "no identityFile to take the private key from" },
      { vantagePoint: "rrc00", router: "rrc00", seeded: false, reason: "the router is not in the inventory" },
      { vantagePoint: "nope", router: null, seeded: false, reason: "no vantage point with this key" },
    ]);
    expect((await getRouter(stores, "fra1-r1"))!.ssh).toEqual({
      host: "198.51.100.1",
      port: 2222,
      user: "lg",
      private_key: "set",
      password: "not set",
      host_key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFra",
    });
    expect((await routerSecrets(stores, "fra1-r1"))!.sshPrivateKey).toBe(PRIVATE_KEY);

    const again = await seedInventorySshFromEnv(withSsh({ fra1: { ...target, user: "other" } }));
    expect(again[0]).toMatchObject({ seeded: false, reason: "the inventory has SSH settings for the router already" });
    expect((await getRouter(stores, "fra1-r1"))!.ssh!.user).toBe("lg");
  });
});
