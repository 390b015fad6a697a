/**
 * The network inventory: routers (with the addresses they export flows from, SNMP and SSH
 * settings), their interfaces, and the vantage points of the routing tables. Used by the
 * collector (exporter → router, ifIndex → interface), the Looking Glass executor (SSH), the
 * pollers (SNMP), `rib:import` and the inventory file (file.server.ts). Input is checked by the
 * schemas of schema.ts; every refusal is an InventoryInputError naming the fields. Secrets are
 * never part of a view: reads say "set" or "not set", and only routerSecrets decrypts them.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import { asInfo, interfaces, routerExporters, routers, routerVrfs, vantagePoints } from "~db/postgres/schema";
import { formatIpAddress, parseIpAddress } from "~/lib/ip";
import { executeRows, type Db } from "~/server/postgres.server";
import type { Services } from "~/server/services.server";
import { routerDocument } from "./document";
import {
  InventoryInputError,
  linkRemoteEnds,
  readRouters,
  readVantagePoints,
  writeRouter,
  writeVantagePoint,
  type InterfaceView,
  type RouterView,
  type VantagePointView,
} from "./rows.server";
import {
  interfaceSchema,
  operatorAsSchema,
  routerSchema,
  vantagePointSchema,
  zodIssues,
  type InterfaceInput,
  type RouterInput,
} from "./schema";
import { decryptSecret } from "./secrets.server";

export { InventoryInputError };
export type { InterfaceView, RouterView, VantagePointView };

type Stores = Pick<Services, "pg" | "config">;

export function parseInput<S extends z.ZodType>(schema: S, input: unknown, prefix: readonly PropertyKey[] = []): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new InventoryInputError(zodIssues(parsed.error, prefix));
  return parsed.data;
}

export const listRouters = (stores: Pick<Services, "pg">): Promise<RouterView[]> => readRouters(stores.pg.db);

export async function getRouter(stores: Pick<Services, "pg">, name: string): Promise<RouterView | null> {
  return (await readRouters(stores.pg.db, [name]))[0] ?? null;
}

/** Writes one router (new, or replacing `replacing`) and links its core interfaces, in one transaction. */
async function saveRouter(stores: Stores, input: RouterInput, replacing?: string): Promise<RouterView> {
  await stores.pg.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await writeRouter(db, input, { key: stores.config.INVENTORY_SECRET_KEY, path: "", replacing });
    await linkRemoteEnds(db, [{ routerName: input.name, path: "", interfaces: input.interfaces }]);
  });
  return (await getRouter(stores, input.name))!;
}

export async function createRouter(stores: Stores, input: unknown): Promise<RouterView> {
  const router = parseInput(routerSchema, input);
  if (await getRouter(stores, router.name))
    throw new InventoryInputError([{ path: "name", message: `a router named ${router.name} exists already` }]);
  return saveRouter(stores, router);
}

/**
 * Replaces a router's settings, exporters and interfaces with `input` (a rename included). A
 * secret given as `{ secret: "set" }` keeps the stored one; a secret left out is removed.
 */
export async function updateRouter(stores: Stores, name: string, input: unknown): Promise<RouterView> {
  return saveRouter(stores, parseInput(routerSchema, input), name);
}

/**
 * A fingerprint of the whole inventory (routers with their settings, exporter addresses, interfaces,
 * VRFs, vantage points) that any write changes, a deletion included: one aggregate query in PostgreSQL,
 * cheap enough for a reader that keeps a copy (the collector's enrichment snapshot) to ask every few
 * seconds and load the inventory only after a change. Whoever writes (this screen, the inventory
 * file, another process) needs to do nothing for it.
 */
export async function inventoryVersion(stores: Pick<Services, "pg">): Promise<string> {
  const rows = await executeRows<{ version: string }>(
    stores.pg.db,
    sql`
    SELECT md5(
      coalesce((SELECT string_agg(t::text, '|' ORDER BY t.id) FROM routers t), '') || '#' ||
      coalesce((SELECT string_agg(t::text, '|' ORDER BY t.address) FROM router_exporters t), '') || '#' ||
      coalesce((SELECT string_agg(t::text, '|' ORDER BY t.id) FROM interfaces t), '') || '#' ||
      coalesce((SELECT string_agg(t::text, '|' ORDER BY t.id) FROM router_vrfs t), '') || '#' ||
      coalesce((SELECT string_agg(t::text, '|' ORDER BY t.id) FROM vantage_points t), '')
    ) AS version`,
  );
  return rows[0].version;
}

/** What a router's removal touches: the vantage points on it (which keep it), and other routers' interfaces whose remote end is on it (cleared). */
export async function routerDependents(
  stores: Pick<Services, "pg">,
  name: string,
): Promise<{ vantagePoints: string[]; remoteEnds: { router: string; interface: string }[] }> {
  const points = await stores.pg.db.select({ key: vantagePoints.key }).from(vantagePoints).where(eq(vantagePoints.router, name));
  const remoteEnds = (await readRouters(stores.pg.db))
    .filter((r) => r.name !== name)
    .flatMap((r) => r.interfaces.filter((i) => i.remote?.router === name).map((i) => ({ router: r.name, interface: i.name })));
  return { vantagePoints: points.map((p) => p.key).sort(), remoteEnds };
}

/**
 * Removes a router with its exporters and interfaces; remote ends pointing at them are cleared.
 * Refused while vantage points name it: their routing history would be left without a router.
 */
export async function deleteRouter(stores: Pick<Services, "pg">, name: string): Promise<boolean> {
  const { vantagePoints: keys } = await routerDependents(stores, name);
  if (keys.length)
    throw new InventoryInputError([
      {
        path: "",
        message: `router ${name} is the router of the vantage point${keys.length > 1 ? "s" : ""} ${keys.join(", ")}: delete ${
          keys.length > 1 ? "them" : "it"
        } or move ${keys.length > 1 ? "them" : "it"} to another router first`,
      },
    ]);
  return (await stores.pg.db.delete(routers).where(eq(routers.name, name)).returning({ id: routers.id })).length > 0;
}

/** The router as input again (secrets as markers, so they are kept), for edits of a part of it. */
async function routerAsInput(stores: Stores, name: string): Promise<RouterInput> {
  const router = await getRouter(stores, name);
  if (!router) throw new InventoryInputError([{ path: "router", message: `no router named ${name}` }]);
  return parseInput(routerSchema, routerDocument(router));
}

export async function listInterfaces(stores: Pick<Services, "pg">, routerName: string): Promise<InterfaceView[] | null> {
  return (await getRouter(stores, routerName))?.interfaces ?? null;
}

/**
 * The names of the inventory's routers and their interfaces, keyed by their lower-case spelling
 * (what a tag's values are checked against): router → { name, interfaces: lower-case → name }.
 */
export async function inventoryNames(db: Db): Promise<Map<string, { name: string; interfaces: Map<string, string> }>> {
  const rows = await db
    .select({ router: routers.name, iface: interfaces.name })
    .from(routers)
    .leftJoin(interfaces, eq(interfaces.routerId, routers.id));
  const names = new Map<string, { name: string; interfaces: Map<string, string> }>();
  for (const row of rows) {
    const key = row.router.toLowerCase();
    const entry = names.get(key) ?? { name: row.router, interfaces: new Map<string, string>() };
    names.set(key, entry);
    if (row.iface !== null) entry.interfaces.set(row.iface.toLowerCase(), row.iface);
  }
  return names;
}

async function saveInterfaces(stores: Stores, router: RouterInput, list: InterfaceInput[], index: number): Promise<InterfaceView> {
  try {
    await saveRouter(stores, { ...router, interfaces: list }, router.name);
  } catch (error) {
    // The router was checked as a whole: name the interface's own fields, not its place in the list.
    if (error instanceof InventoryInputError)
      throw new InventoryInputError(error.issues.map((i) => ({ ...i, path: i.path.replace(`interfaces[${index}].`, "") })));
    throw error;
  }
  return (await listInterfaces(stores, router.name))!.find((i) => i.name === list[index].name)!;
}

export async function createInterface(stores: Stores, routerName: string, input: unknown): Promise<InterfaceView> {
  const iface = parseInput(interfaceSchema, input);
  const router = await routerAsInput(stores, routerName);
  for (const field of ["name", "ifindex"] as const)
    if (router.interfaces.some((i) => i[field] === iface[field]))
      throw new InventoryInputError([
        { path: field, message: `router ${routerName} has an interface with ${field} ${iface[field]} already` },
      ]);
  return saveInterfaces(stores, router, [...router.interfaces, iface], router.interfaces.length);
}

export async function updateInterface(stores: Stores, routerName: string, interfaceName: string, input: unknown): Promise<InterfaceView> {
  const iface = parseInput(interfaceSchema, input);
  const router = await routerAsInput(stores, routerName);
  const index = router.interfaces.findIndex((i) => i.name === interfaceName);
  if (index < 0) throw new InventoryInputError([{ path: "name", message: `router ${routerName} has no interface ${interfaceName}` }]);
  for (const field of ["name", "ifindex"] as const)
    if (router.interfaces.some((i, n) => n !== index && i[field] === iface[field]))
      throw new InventoryInputError([
        { path: field, message: `router ${routerName} has an interface with ${field} ${iface[field]} already` },
      ]);
  return saveInterfaces(
    stores,
    router,
    router.interfaces.map((old, n) => (n === index ? iface : old)),
    index,
  );
}

export async function deleteInterface(stores: Pick<Services, "pg">, routerName: string, interfaceName: string): Promise<boolean> {
  const [router] = await stores.pg.db.select({ id: routers.id }).from(routers).where(eq(routers.name, routerName));
  if (!router) return false;
  const removed = await stores.pg.db
    .delete(interfaces)
    .where(and(eq(interfaces.routerId, router.id), eq(interfaces.name, interfaceName)))
    .returning({ id: interfaces.id });
  return removed.length > 0;
}

export const listInventoryVantagePoints = (stores: Pick<Services, "pg">): Promise<VantagePointView[]> => readVantagePoints(stores.pg.db);

export async function getVantagePoint(stores: Pick<Services, "pg">, key: string): Promise<VantagePointView | null> {
  return (await readVantagePoints(stores.pg.db, [key]))[0] ?? null;
}

export async function createVantagePoint(stores: Pick<Services, "pg">, input: unknown): Promise<VantagePointView> {
  const point = parseInput(vantagePointSchema, input);
  if (await getVantagePoint(stores, point.key))
    throw new InventoryInputError([{ path: "key", message: `a vantage point with key ${point.key} exists already` }]);
  await writeVantagePoint(stores.pg.db, point);
  return (await getVantagePoint(stores, point.key))!;
}

export async function updateVantagePoint(stores: Pick<Services, "pg">, key: string, input: unknown): Promise<VantagePointView> {
  const point = parseInput(vantagePointSchema, input);
  if (point.key !== key && (await getVantagePoint(stores, point.key)))
    throw new InventoryInputError([{ path: "key", message: `a vantage point with key ${point.key} exists already` }]);
  await writeVantagePoint(stores.pg.db, point, key);
  return (await getVantagePoint(stores, point.key))!;
}

export async function deleteVantagePoint(stores: Pick<Services, "pg">, key: string): Promise<boolean> {
  return (await stores.pg.db.delete(vantagePoints).where(eq(vantagePoints.key, key)).returning({ id: vantagePoints.id })).length > 0;
}

/** The router that sends flows from `address` (any spelling of it), or null when none is in the inventory. */
export async function routerForExporter(stores: Pick<Services, "pg">, address: string): Promise<{ id: number; name: string } | null> {
  const parsed = parseIpAddress(address);
  if (!parsed) return null;
  const [row] = await stores.pg.db
    .select({ id: routers.id, name: routers.name })
    .from(routerExporters)
    .innerJoin(routers, eq(routers.id, routerExporters.routerId))
    .where(eq(routerExporters.address, formatIpAddress(parsed)));
  return row ?? null;
}

/**
 * The route distinguisher of the VRF `vrf` of router `router` (the flows' vrf_name), as
 * rib_entries stores it; null when the inventory gives that router no such VRF.
 */
export async function vrfRouteDistinguisher(stores: Pick<Services, "pg">, router: string, vrf: string): Promise<string | null> {
  const [row] = await stores.pg.db
    .select({ rd: routerVrfs.routeDistinguisher })
    .from(routerVrfs)
    .innerJoin(routers, eq(routers.id, routerVrfs.routerId))
    .where(and(eq(routers.name, router), eq(routerVrfs.name, vrf)));
  return row?.rd ?? null;
}

/** The VRFs of the routers named (router, VRF name, route distinguisher), by router and name. */
export async function listRouterVrfs(
  stores: Pick<Services, "pg">,
  routerNames: readonly string[],
): Promise<{ router: string; name: string; rd: string }[]> {
  if (!routerNames.length) return [];
  return stores.pg.db
    .select({ router: routers.name, name: routerVrfs.name, rd: routerVrfs.routeDistinguisher })
    .from(routerVrfs)
    .innerJoin(routers, eq(routers.id, routerVrfs.routerId))
    .where(inArray(routers.name, [...routerNames]))
    .orderBy(routers.name, routerVrfs.name);
}

export type RouterSecrets = {
  snmpCommunity: string | null;
  snmpAuthPassword: string | null;
  snmpPrivPassword: string | null;
  sshPrivateKey: string | null;
  sshPassword: string | null;
};

/** The decrypted secrets of a router, for the pollers and the executor only; never for a page or a file. */
export async function routerSecrets(stores: Stores, name: string): Promise<RouterSecrets | null> {
  const [row] = await stores.pg.db.select().from(routers).where(eq(routers.name, name));
  if (!row) return null;
  const key = stores.config.INVENTORY_SECRET_KEY;
  const open = (column: string, stored: string | null) => (stored ? decryptSecret(key, `routers.${column}`, stored) : null);
  return {
    snmpCommunity: open("snmp_community_enc", row.snmpCommunityEnc),
    snmpAuthPassword: open("snmp_v3_auth_password_enc", row.snmpV3AuthPasswordEnc),
    snmpPrivPassword: open("snmp_v3_priv_password_enc", row.snmpV3PrivPasswordEnc),
    sshPrivateKey: open("ssh_private_key_enc", row.sshPrivateKeyEnc),
    sshPassword: open("ssh_password_enc", row.sshPasswordEnc),
  };
}

/**
 * A vantage point named on the command line (rib:import --new-vantage-point): city, country and
 * address default to the router's when the router is in the inventory.
 */
export async function createVantagePointOfRouter(
  stores: Pick<Services, "pg">,
  options: { key: string; router: string; city?: string; country?: string; ip?: string; public?: boolean; description?: string },
): Promise<VantagePointView> {
  const router = await getRouter(stores, options.router);
  if (!router) {
    const missing = (["city", "country", "ip"] as const).filter((field) => options[field] === undefined);
    if (missing.length)
      throw new InventoryInputError(
        missing.map((path) => ({ path, message: `is required: router ${options.router} is not in the inventory to take it from` })),
      );
  }
  return createVantagePoint(stores, {
    key: options.key,
    router: options.router,
    city: options.city ?? router?.city,
    country: options.country ?? router?.country,
    ip: options.ip ?? router?.loopback,
    public: options.public ?? false,
    description: options.description ?? "",
  });
}

/** Sets a router's SSH settings, keeping everything else (its secrets included). */
export async function setRouterSsh(stores: Stores, name: string, ssh: unknown): Promise<RouterView> {
  const router = await getRouter(stores, name);
  if (!router) throw new InventoryInputError([{ path: "router", message: `no router named ${name}` }]);
  return saveRouter(stores, parseInput(routerSchema, { ...routerDocument(router), ssh }), name);
}

export type OperatorAs = { asn: number; name: string; country: string };

/** The operator's own AS (as_info category 'operator'), or null while none is set. */
export async function getOperatorAs(stores: Pick<Services, "pg">): Promise<OperatorAs | null> {
  return readOperatorAs(stores.pg.db);
}

export async function readOperatorAs(db: Db): Promise<OperatorAs | null> {
  const [row] = await db
    .select({ asn: asInfo.asn, name: asInfo.name, country: asInfo.country })
    .from(asInfo)
    .where(eq(asInfo.category, "operator"))
    .orderBy(asInfo.asn)
    .limit(1);
  return row ? { asn: Number(row.asn), name: row.name, country: row.country } : null;
}

/**
 * Makes `asn` the operator's own AS inside `db` (a transaction of the caller): its as_info row
 * keeps the name and country it has (the AS may be known already from a mapping), a new one is
 * named `name`; any other row marked 'operator' becomes 'other', since the flows screens and the
 * collector read only one.
 */
export async function writeOperatorAs(db: Db, asn: number, name?: string): Promise<void> {
  const given = name?.trim();
  await db
    .update(asInfo)
    .set({ category: "other" })
    .where(and(eq(asInfo.category, "operator"), sql`${asInfo.asn} <> ${asn}`));
  await db
    .insert(asInfo)
    .values({ asn, name: given || "Own network", category: "operator" })
    .onConflictDoUpdate({ target: asInfo.asn, set: given ? { category: "operator", name: given } : { category: "operator" } });
}

/** Sets the operator's own AS (see writeOperatorAs); refusals are InventoryInputErrors on `operator_as`. */
export async function setOperatorAs(stores: Pick<Services, "pg">, asn: number, name?: string): Promise<OperatorAs> {
  const checked = parseInput(operatorAsSchema, asn, ["operator_as"]);
  if (name !== undefined && (name.length > 200 || /[\u0000-\u001f\u007f]/.test(name)))
    throw new InventoryInputError([{ path: "operator_as_name", message: "must be at most 200 characters, without control characters" }]);
  await stores.pg.db.transaction(async (tx) => writeOperatorAs(tx as unknown as Db, checked, name));
  return (await getOperatorAs(stores))!;
}
