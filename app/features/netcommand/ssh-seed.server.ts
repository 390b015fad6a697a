/**
 * NETCOMMAND_SSH seeds the inventory's SSH settings: at start, a router reached through a vantage
 * point the variable names, and that has no SSH settings in the inventory yet, gets the variable's
 * host, port and user, the private key read from `identityFile` and the host key found for the
 * host in `knownHostsFile`. Settings already in the inventory are never overwritten. Ping and
 * traceroute use the inventory's settings when a router has them, and the variable otherwise
 * (runner.server.ts).
 */
import { readFile } from "node:fs/promises";
import { getRouter, getVantagePoint, setRouterSsh } from "~/features/inventory/inventory.server";
import type { NetcommandSshTarget } from "~/server/env.server";
import type { BackgroundTask } from "~/server/lifecycle.server";
import { log } from "~/server/log.server";
import type { Services } from "~/server/services.server";

export type SeedOutcome = { vantagePoint: string; router: string | null; seeded: boolean; reason: string };

/** The `keytype key` of the first known_hosts line naming `host` (as `host` or `[host]:port`); hashed lines cannot be matched. */
export function hostKeyFor(knownHosts: string, host: string, port: number): string | null {
  const names = new Set([host, `[${host}]:${port}`]);
  for (const line of knownHosts.split("\n")) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 3 || fields[0].startsWith("#") || fields[0].startsWith("@")) continue;
    if (fields[0].split(",").some((name) => names.has(name))) return `${fields[1]} ${fields[2]}`;
  }
  return null;
}

async function seedOne(services: Pick<Services, "pg" | "config">, key: string, target: NetcommandSshTarget): Promise<SeedOutcome> {
  const outcome = (router: string | null, reason: string, seeded = false): SeedOutcome => ({ vantagePoint: key, router, seeded, reason });
  const point = await getVantagePoint(services, key);
  if (!point) return outcome(null, "no vantage point with this key");
  const router = await getRouter(services, point.router);
  if (!router) return outcome(point.router, "the router is not in the inventory");
  if (router.ssh) return outcome(router.name, "the inventory has SSH settings for the router already");
  if (!services.config.INVENTORY_SECRET_KEY) return outcome(router.name, "INVENTORY_SECRET_KEY is not set, so the key cannot be stored");
  if (!target.identityFile) return outcome(router.name, "no identityFile to take the private key from");
  if (!target.knownHostsFile) return outcome(router.name, "no knownHostsFile to take the host key from");
  const [privateKey, knownHosts] = await Promise.all([readFile(target.identityFile, "utf8"), readFile(target.knownHostsFile, "utf8")]);
  const hostKey = hostKeyFor(knownHosts, target.host, target.port);
  if (!hostKey) return outcome(router.name, `no unhashed line for ${target.host} in ${target.knownHostsFile}`);
  await setRouterSsh(services, router.name, {
    host: target.host,
    port: target.port,
    user: target.user,
    private_key: privateKey,
    host_key: hostKey,
  });
  return outcome(router.name, "seeded", true);
}

export async function seedInventorySshFromEnv(services: Pick<Services, "pg" | "config">): Promise<SeedOutcome[]> {
  const outcomes: SeedOutcome[] = [];
  for (const [key, target] of Object.entries(services.config.NETCOMMAND_SSH)) {
    try {
      outcomes.push(await seedOne(services, key, target));
    } catch (error) {
      outcomes.push({ vantagePoint: key, router: null, seeded: false, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  for (const o of outcomes)
    if (o.seeded) log.info(`NETCOMMAND_SSH.${o.vantagePoint}: SSH settings of router ${o.router} added to the inventory`);
    else if (!/already$/.test(o.reason)) log.info(`NETCOMMAND_SSH.${o.vantagePoint}: not added to the inventory: ${o.reason}`);
  return outcomes;
}

let seeding: Promise<unknown> = Promise.resolve();

/** Runs once at start; shutting down waits for it, so the stores do not close under it. */
export const inventorySshSeedTask: BackgroundTask = {
  start: (services) => {
    seeding = seedInventorySshFromEnv(services);
  },
  stop: () => seeding,
};
