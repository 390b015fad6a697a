/**
 * Ping and traceroute from a router whose SSH settings are in the inventory. The stored private key
 * or password is decrypted for the one command only: written into a private temporary directory
 * (mode 0700, files 0600) for ssh to read, and removed as soon as ssh has ended, whatever the
 * outcome. Neither is logged nor kept in memory beyond the command.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { getRouter, getVantagePoint, routerSecrets, type RouterView } from "~/features/inventory/inventory.server";
import { InventorySecretError } from "~/features/inventory/secrets.server";
import type { NetcommandQueryType } from "~db/postgres/schema";
import type { NetcommandSshTarget } from "~/server/env.server";
import type { Services } from "~/server/services.server";
import type { CommandOutcome } from "./outcome";
import type { SpawnFn } from "./process.server";
import { runSshCommand, type SshPasswordLogin } from "./ssh.server";

type Vendor = NetcommandSshTarget["vendor"];

export type InventorySshRouter = { name: string; vendor: string; ssh: NonNullable<RouterView["ssh"]> };

/** The router of a vantage point, when the inventory has SSH settings for it. */
export async function inventorySshRouter(stores: Pick<Services, "pg">, vantagePoint: string): Promise<InventorySshRouter | null> {
  const point = await getVantagePoint(stores, vantagePoint);
  const router = point && (await getRouter(stores, point.router));
  return router?.ssh ? { name: router.name, vendor: router.vendor, ssh: router.ssh } : null;
}

/**
 * The command dialect for the inventory's free-text vendor ("Juniper MX204", "Cisco IOS XR"); when
 * the text names neither, the vendor NETCOMMAND_SSH gives for the vantage point, if any.
 */
export function sshVendor(vendor: string, fallback?: Vendor): Vendor | null {
  if (/juniper|junos/i.test(vendor)) return "juniper";
  if (/cisco|ios[ -]?xr/i.test(vendor)) return "cisco";
  return fallback ?? null;
}

/** The known_hosts line for the stored host key; ssh names a host on another port than 22 `[host]:port`. */
export function knownHostsLine(host: string, port: number, hostKey: string): string {
  return `${port === 22 ? host : `[${host}]:${port}`} ${hostKey}\n`;
}

/** The askpass program prints the password file next to it, so no path is spliced into shell text. */
const ASKPASS_SCRIPT = '#!/bin/sh\nexec cat "$(dirname "$0")/password"\n';

const failure = (message: string): CommandOutcome => ({ ok: false, message, transient: false });

export async function runInventorySshCommand(
  stores: Pick<Services, "pg" | "config">,
  router: InventorySshRouter,
  job: { queryType: NetcommandQueryType; targetAddress: string },
  options: { spawn?: SpawnFn; fallbackVendor?: Vendor; timeoutMs?: number } = {},
): Promise<CommandOutcome> {
  const vendor = sshVendor(router.vendor, options.fallbackVendor);
  if (!vendor)
    return failure(
      `Router ${router.name} has the vendor "${router.vendor}" in the inventory: ping and traceroute over SSH know juniper and cisco (IOS XR) only.`,
    );
  let secrets: Awaited<ReturnType<typeof routerSecrets>>;
  try {
    secrets = await routerSecrets(stores, router.name);
  } catch (error) {
    if (error instanceof InventorySecretError)
      return failure(`The SSH settings of router ${router.name} cannot be used: ${error.message}.`);
    throw error;
  }
  if (!secrets) return failure(`Router ${router.name} is no longer in the inventory.`);

  const dir = await mkdtemp(path.join(tmpdir(), "flowlens-ssh-"));
  try {
    const file = async (name: string, text: string, mode = 0o600) => {
      await writeFile(path.join(dir, name), text, { mode });
      return path.join(dir, name);
    };
    const { host, port, user, host_key } = router.ssh;
    const knownHostsFile = await file("known_hosts", knownHostsLine(host, port, host_key));
    // ssh refuses a key file without its final newline.
    const identityFile = secrets.sshPrivateKey ? await file("id", secrets.sshPrivateKey.replace(/\n?$/, "\n")) : undefined;
    let password: SshPasswordLogin | undefined;
    if (secrets.sshPassword) {
      await file("password", secrets.sshPassword);
      password = { askpassFile: await file("askpass", ASKPASS_SCRIPT, 0o700) };
    }
    return await runSshCommand({ host, port, user, vendor, identityFile, knownHostsFile }, job.queryType, job.targetAddress, {
      spawn: options.spawn,
      timeoutMs: options.timeoutMs,
      password,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
