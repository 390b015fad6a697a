/**
 * Ping and traceroute over SSH with the inventory's settings for the vantage point's router:
 * they win over NETCOMMAND_SSH, the variable is the fallback, the decrypted key or password
 * exists only while ssh runs, and a secret that cannot be decrypted fails the job with a message.
 * ssh itself is faked: the fake spawn records the call and what the files ssh would read hold.
 */
import type { ChildProcess, SpawnOptions } from "node:child_process";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { netcommandJobs } from "~db/postgres/schema";
import { createRouter, createVantagePoint } from "~/features/inventory/inventory.server";
import { knownHostsLine, sshVendor } from "~/features/netcommand/inventory-ssh.server";
import { waitForJob } from "~/features/netcommand/jobs.server";
import type { SpawnFn } from "~/features/netcommand/process.server";
import { executeJobFromInventory, NetcommandRunner } from "~/features/netcommand/runner.server";
import { sshArgs } from "~/features/netcommand/ssh.server";
import { parseConfig } from "~/server/env.server";
import { openTestStores, type TestStores } from "../helpers/stores";

const KEY = "ab".repeat(32);
const OTHER_KEY = "cd".repeat(32);
const PRIVATE_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\ninventorykey\n-----END OPENSSH PRIVATE KEY-----";
const HOST_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFra";
const ENV_SSH = {
  fra1: { host: "192.0.2.1", user: "env", vendor: "cisco", identityFile: "/etc/flowlens/lg_key" },
  ber1: { host: "192.0.2.2", user: "env", vendor: "juniper" },
  ams1: { host: "192.0.2.3", user: "env", vendor: "juniper" },
};
const PING = { queryType: "PingQuery", targetAddress: "192.0.2.9" } as const;

type Seen = { file: string; args: readonly string[]; options: SpawnOptions; files: Record<string, { text: string; mode: number }> };

/** A spawn that plays a successful ssh and notes the arguments and the files named by them, as ssh would find them. */
function fakeSsh(): SpawnFn & { seen: Seen[] } {
  const seen: Seen[] = [];
  const spawn = ((file: string, args: readonly string[], options: SpawnOptions) => {
    const named = args
      .map((arg, i) => (arg === "-i" ? args[i + 1] : /^UserKnownHostsFile=/.test(arg) ? arg.split("=")[1] : null))
      .concat(options.env?.SSH_ASKPASS ?? null)
      .filter((f): f is string => !!f && existsSync(f));
    const files = Object.fromEntries(
      named.map((f) => [path.basename(f), { text: readFileSync(f, "utf8"), mode: statSync(f).mode & 0o777 }]),
    );
    if (options.env?.SSH_ASKPASS) files.askpassOutput = { text: execFileSync(options.env.SSH_ASKPASS, { encoding: "utf8" }), mode: 0 };
    seen.push({ file, args, options, files });
    const child = new EventEmitter() as ChildProcess;
    const stdout = new PassThrough();
    Object.assign(child, { stdout, stderr: new PassThrough(), kill: () => true });
    setImmediate(() => {
      stdout.end("4 packets received\n");
      setImmediate(() => child.emit("close", 0));
    });
    return child;
  }) as SpawnFn & { seen: Seen[] };
  spawn.seen = seen;
  return spawn;
}

let stores: TestStores;
const withConfig = (key: string | undefined) => ({
  ...stores,
  config: parseConfig({ DATA_DIR: stores.dataDir, NETCOMMAND_SSH: JSON.stringify(ENV_SSH), ...(key ? { INVENTORY_SECRET_KEY: key } : {}) }),
});

beforeAll(async () => {
  stores = await openTestStores({ env: { INVENTORY_SECRET_KEY: KEY } });
  const ssh = { host: "198.51.100.1", port: 2222, user: "lg", host_key: HOST_KEY };
  await createRouter(stores, {
    name: "fra1-r1",
    city: "Frankfurt",
    country: "Germany",
    vendor: "Juniper MX204",
    loopback: "198.51.100.1",
    ssh: { ...ssh, private_key: PRIVATE_KEY },
  });
  await createRouter(stores, { name: "ber1-r1", city: "Berlin", country: "Germany", loopback: "198.51.100.2" });
  await createRouter(stores, {
    name: "ams1-r1",
    city: "Amsterdam",
    country: "Netherlands",
    loopback: "198.51.100.3",
    ssh: { ...ssh, host: "198.51.100.3", port: 22, password: "s3cret 'quoted' $(id)" },
  });
  await createRouter(stores, {
    name: "par1-r1",
    city: "Paris",
    country: "France",
    vendor: "Nokia",
    loopback: "198.51.100.4",
    ssh: { ...ssh, host: "198.51.100.4", private_key: PRIVATE_KEY },
  });
  for (const [key, router, city, country, ip] of [
    ["fra1", "fra1-r1", "Frankfurt", "Germany", "198.51.100.1"],
    ["ber1", "ber1-r1", "Berlin", "Germany", "198.51.100.2"],
    ["ams1", "ams1-r1", "Amsterdam", "Netherlands", "198.51.100.3"],
    ["par1", "par1-r1", "Paris", "France", "198.51.100.4"],
  ])
    await createVantagePoint(stores, { key, router, city, country, ip });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

describe("ping and traceroute with the inventory's SSH settings", () => {
  it("reads the vendor's dialect from the inventory's text and writes the host key as ssh names the host", () => {
    expect(sshVendor("Juniper MX204")).toBe("juniper");
    expect(sshVendor("cisco ASR 9000 (IOS XR)")).toBe("cisco");
    expect(sshVendor("Nokia", "juniper")).toBe("juniper");
    expect(sshVendor("")).toBeNull();
    expect(knownHostsLine("192.0.2.1", 22, HOST_KEY)).toBe(`192.0.2.1 ${HOST_KEY}\n`);
    expect(knownHostsLine("192.0.2.1", 2222, HOST_KEY)).toBe(`[192.0.2.1]:2222 ${HOST_KEY}\n`);
  });

  it("win over NETCOMMAND_SSH: host, port, user, vendor and key from the inventory, key files gone after the command", async () => {
    const spawn = fakeSsh();
    expect(await executeJobFromInventory(withConfig(KEY), { vantagePoint: "fra1", ...PING }, spawn)).toEqual({
      ok: true,
      output: "4 packets received\n",
    });
    const [call] = spawn.seen;
    expect(call.file).toBe("ssh");
    const dir = path.dirname(call.args[call.args.indexOf("-i") + 1]);
    expect(call.args).toEqual(
      sshArgs(
        {
          host: "198.51.100.1",
          port: 2222,
          user: "lg",
          vendor: "juniper",
          identityFile: path.join(dir, "id"),
          knownHostsFile: path.join(dir, "known_hosts"),
        },
        "ping 192.0.2.9 count 4 wait 2",
      ),
    );
    expect(call.args).toContain("BatchMode=yes");
    expect(call.files).toEqual({
      id: { text: `${PRIVATE_KEY}\n`, mode: 0o600 },
      known_hosts: { text: `[198.51.100.1]:2222 ${HOST_KEY}\n`, mode: 0o600 },
    });
    expect(statSync(dir, { throwIfNoEntry: false })).toBeUndefined();
  });

  it("hand a stored password to ssh through askpass only, never on the command line", async () => {
    const spawn = fakeSsh();
    expect((await executeJobFromInventory(withConfig(KEY), { vantagePoint: "ams1", ...PING }, spawn)).ok).toBe(true);
    const [call] = spawn.seen;
    // The inventory's vendor is empty: NETCOMMAND_SSH's for the vantage point gives the dialect.
    expect(call.args.at(-1)).toBe("ping 192.0.2.9 count 4 wait 2");
    expect(call.args).toEqual(expect.arrayContaining(["BatchMode=no", "NumberOfPasswordPrompts=1", "198.51.100.3", "lg"]));
    expect(call.args).not.toContain("-i");
    expect(call.args.join(" ")).not.toContain("s3cret");
    expect(call.options.env).toMatchObject({ SSH_ASKPASS_REQUIRE: "force" });
    expect(call.files.askpassOutput.text).toBe("s3cret 'quoted' $(id)");
    expect(call.files.known_hosts.text).toBe(`198.51.100.3 ${HOST_KEY}\n`);
    expect(existsSync(call.options.env!.SSH_ASKPASS!)).toBe(false);
  });

  it("fall back to NETCOMMAND_SSH for a router without SSH settings, and to this server without either", async () => {
    const spawn = fakeSsh();
    await executeJobFromInventory(withConfig(KEY), { vantagePoint: "ber1", ...PING }, spawn);
    expect(spawn.seen[0].args).toEqual(sshArgs({ ...ENV_SSH.ber1, port: 22, vendor: "juniper" }, "ping 192.0.2.9 count 4 wait 2"));
    await executeJobFromInventory(withConfig(KEY), { vantagePoint: "lab-local", ...PING }, spawn);
    expect(spawn.seen[1].file).toBe("ping");
  });

  it("fail with a message for a vendor whose commands are unknown", async () => {
    const spawn = fakeSsh();
    expect(await executeJobFromInventory(withConfig(KEY), { vantagePoint: "par1", ...PING }, spawn)).toEqual({
      ok: false,
      message: 'Router par1-r1 has the vendor "Nokia" in the inventory: ping and traceroute over SSH know juniper and cisco (IOS XR) only.',
      transient: false,
    });
    expect(spawn.seen).toHaveLength(0);
  });

  it("fail the job with a message when the stored key cannot be decrypted (INVENTORY_SECRET_KEY changed or missing)", async () => {
    const spawn = fakeSsh();
    expect(await executeJobFromInventory(withConfig(undefined), { vantagePoint: "fra1", ...PING }, spawn)).toEqual({
      ok: false,
      message:
        "The SSH settings of router fra1-r1 cannot be used: INVENTORY_SECRET_KEY is not set: routers.ssh_private_key_enc cannot be read.",
      transient: false,
    });

    const [job] = await stores.pg.db
      .insert(netcommandJobs)
      .values({ ...PING, vantagePoint: "fra1", clientAddress: "unknown" })
      .returning();
    const runner = new NetcommandRunner(withConfig(OTHER_KEY), { pollIntervalMs: 50, spawn }).start();
    try {
      expect(await waitForJob(stores, job.id, 10_000, 50)).toEqual({
        state: "FAILURE",
        result:
          "The SSH settings of router fra1-r1 cannot be used: routers.ssh_private_key_enc cannot be decrypted: INVENTORY_SECRET_KEY is not the key it was saved with.",
      });
    } finally {
      await runner.stop();
    }
    expect(spawn.seen).toHaveLength(0);
  });
});
