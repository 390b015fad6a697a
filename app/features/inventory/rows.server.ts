/**
 * The inventory's rows, read into views (secrets only as "set"/"not set") and written from
 * validated input inside a transaction. The service (inventory.server.ts) and the file import
 * (file.server.ts) both go through these writers, so the rules hold the same for one router edited
 * and for a thousand imported.
 */
import { and, asc, eq, inArray, notInArray } from "drizzle-orm";
import { interfaces, routerExporters, routers, routerVrfs, vantagePoints } from "~db/postgres/schema";
import type { Db } from "~/server/postgres.server";
import type { InterfaceInput, InventoryIssue, RouterInput, SecretInput, VantagePointInput, VrfInput } from "./schema";
import { decryptSecret, encryptSecret } from "./secrets.server";

export type SecretState = "set" | "not set";

export type InterfaceView = {
  id: number;
  name: string;
  ifindex: number;
  description: string;
  /** bits per second */
  capacity: number;
  kind: InterfaceInput["kind"];
  peering: InterfaceInput["peering"];
  connection: string | null;
  neighbour_as: number | null;
  vrf: string | null;
  remote: { router: string; interface: string } | null;
};

export type RouterView = {
  id: number;
  name: string;
  city: string;
  country: string;
  role: string;
  vendor: string;
  loopback: string;
  exporters: string[];
  snmp: {
    version: "2c" | "3";
    port: number;
    community: SecretState;
    user: string | null;
    auth_protocol: string | null;
    auth_password: SecretState;
    priv_protocol: string | null;
    priv_password: SecretState;
  } | null;
  ssh: { host: string; port: number; user: string; private_key: SecretState; password: SecretState; host_key: string } | null;
  interfaces: InterfaceView[];
  /** The router's VRFs with their route distinguishers, by name. */
  vrfs: VrfInput[];
};

export type VantagePointView = VantagePointInput & { id: number };

type RouterRow = typeof routers.$inferSelect;
type InterfaceRow = typeof interfaces.$inferSelect;

/** Problems with input that passed the schema but not the inventory as it stands (names taken, links to nowhere). */
export class InventoryInputError extends Error {
  constructor(readonly issues: InventoryIssue[]) {
    super(issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("\n"));
    this.name = "InventoryInputError";
  }
}

const state = (enc: string | null): SecretState => (enc ? "set" : "not set");

function routerView(row: RouterRow, exporters: string[], ifaces: InterfaceView[], vrfs: VrfInput[]): RouterView {
  return {
    id: row.id,
    name: row.name,
    city: row.city,
    country: row.country,
    role: row.role,
    vendor: row.vendor,
    loopback: row.loopback,
    exporters,
    snmp: row.snmpVersion
      ? {
          version: row.snmpVersion,
          port: row.snmpPort,
          community: state(row.snmpCommunityEnc),
          user: row.snmpV3User,
          auth_protocol: row.snmpV3AuthProtocol,
          auth_password: state(row.snmpV3AuthPasswordEnc),
          priv_protocol: row.snmpV3PrivProtocol,
          priv_password: state(row.snmpV3PrivPasswordEnc),
        }
      : null,
    ssh: row.sshHost
      ? {
          host: row.sshHost,
          port: row.sshPort,
          user: row.sshUser ?? "",
          private_key: state(row.sshPrivateKeyEnc),
          password: state(row.sshPasswordEnc),
          host_key: row.sshHostKey ?? "",
        }
      : null,
    interfaces: ifaces,
    vrfs,
  };
}

/** Routers (all, or those named) with exporters and interfaces, by name; interfaces by ifIndex. */
export async function readRouters(db: Db, names?: string[]): Promise<RouterView[]> {
  const rows = await (names ? db.select().from(routers).where(inArray(routers.name, names)) : db.select().from(routers)).orderBy(
    asc(routers.name),
  );
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [exporterRows, interfaceRows, vrfRows] = await Promise.all([
    db.select().from(routerExporters).where(inArray(routerExporters.routerId, ids)).orderBy(asc(routerExporters.address)),
    db.select().from(interfaces).where(inArray(interfaces.routerId, ids)).orderBy(asc(interfaces.snmpIndex), asc(interfaces.name)),
    db.select().from(routerVrfs).where(inArray(routerVrfs.routerId, ids)).orderBy(asc(routerVrfs.name)),
  ]);
  const remoteIds = interfaceRows.flatMap((i) => (i.remoteInterfaceId === null ? [] : [i.remoteInterfaceId]));
  const remotes = new Map(
    (remoteIds.length
      ? await db
          .select({ id: interfaces.id, name: interfaces.name, router: routers.name })
          .from(interfaces)
          .innerJoin(routers, eq(routers.id, interfaces.routerId))
          .where(inArray(interfaces.id, remoteIds))
      : []
    ).map((r) => [r.id, { router: r.router, interface: r.name }]),
  );
  return rows.map((row) =>
    routerView(
      row,
      exporterRows.filter((e) => e.routerId === row.id).map((e) => e.address),
      interfaceRows.filter((i) => i.routerId === row.id).map((i) => interfaceView(i, remotes)),
      vrfRows.filter((v) => v.routerId === row.id).map((v) => ({ name: v.name, rd: v.routeDistinguisher })),
    ),
  );
}

function interfaceView(row: InterfaceRow, remotes: Map<number, { router: string; interface: string }>): InterfaceView {
  return {
    id: row.id,
    name: row.name,
    ifindex: row.snmpIndex,
    description: row.description,
    capacity: row.capacityBps,
    kind: row.kind,
    peering: (row.peeringType as InterfaceView["peering"]) ?? null,
    connection: row.connection,
    neighbour_as: row.neighborAsn,
    vrf: row.vrf,
    remote: row.remoteInterfaceId === null ? null : (remotes.get(row.remoteInterfaceId) ?? null),
  };
}

export async function readVantagePoints(db: Db, keys?: string[]): Promise<VantagePointView[]> {
  const query = db.select().from(vantagePoints);
  const rows = await (keys ? query.where(inArray(vantagePoints.key, keys)) : query).orderBy(asc(vantagePoints.key));
  return rows.map((r) => ({
    id: r.id,
    key: r.key,
    router: r.router,
    city: r.city,
    country: r.country,
    ip: r.ip,
    public: r.isPublic,
    description: r.description,
    legacy_description: r.legacyDescription,
  }));
}

/** A secret column's next value: a new one encrypted (unless it equals the stored one), the stored one kept, or none. */
function nextSecret(key: Buffer | undefined, column: string, input: SecretInput, stored: string | null, path: string): string | null {
  if (input === null) return null;
  if (typeof input !== "string") {
    if (!stored) throw new InventoryInputError([{ path, message: "no secret is stored to keep: give the secret itself" }]);
    return stored;
  }
  if (!key)
    throw new InventoryInputError([{ path, message: "INVENTORY_SECRET_KEY is not set, so secrets cannot be saved (docs/inventory.md)" }]);
  if (stored) {
    try {
      if (decryptSecret(key, column, stored) === input) return stored;
    } catch {
      // stored under another key: the new value replaces it
    }
  }
  return encryptSecret(key, column, input);
}

function routerColumns(input: RouterInput, existing: RouterRow | undefined, key: Buffer | undefined, path: string) {
  const secret = (column: string, value: SecretInput, stored: string | null | undefined, field: string) =>
    nextSecret(key, `routers.${column}`, value, stored ?? null, `${path}${field}`);
  const { snmp, ssh } = input;
  return {
    name: input.name,
    city: input.city,
    country: input.country,
    role: input.role,
    vendor: input.vendor,
    loopback: input.loopback,
    snmpVersion: snmp?.version ?? null,
    snmpPort: snmp?.port ?? 161,
    snmpCommunityEnc: secret("snmp_community_enc", snmp?.community ?? null, existing?.snmpCommunityEnc, "snmp.community"),
    snmpV3User: snmp?.user ?? null,
    snmpV3AuthProtocol: snmp?.auth_protocol ?? null,
    snmpV3AuthPasswordEnc: secret(
      "snmp_v3_auth_password_enc",
      snmp?.auth_password ?? null,
      existing?.snmpV3AuthPasswordEnc,
      "snmp.auth_password",
    ),
    snmpV3PrivProtocol: snmp?.priv_protocol ?? null,
    snmpV3PrivPasswordEnc: secret(
      "snmp_v3_priv_password_enc",
      snmp?.priv_password ?? null,
      existing?.snmpV3PrivPasswordEnc,
      "snmp.priv_password",
    ),
    sshHost: ssh?.host ?? null,
    sshPort: ssh?.port ?? 22,
    sshUser: ssh?.user ?? null,
    sshPrivateKeyEnc: secret("ssh_private_key_enc", ssh?.private_key ?? null, existing?.sshPrivateKeyEnc, "ssh.private_key"),
    sshPasswordEnc: secret("ssh_password_enc", ssh?.password ?? null, existing?.sshPasswordEnc, "ssh.password"),
    sshHostKey: ssh?.host_key ?? null,
  };
}

/** True when the row already holds every value of `columns`. */
const holds = (row: object, columns: object) =>
  Object.entries(columns).every(([column, value]) => (row as Record<string, unknown>)[column] === value);

/**
 * Creates or replaces one router with its exporters and interfaces (remote ends are linked
 * afterwards by linkRemoteEnds, once every router of the batch exists). `path` prefixes the
 * fields in errors (`routers[2].`).
 */
export async function writeRouter(
  db: Db,
  input: RouterInput,
  options: { key: Buffer | undefined; path: string; replacing?: string },
): Promise<number> {
  const lookup = options.replacing ?? input.name;
  const [existing] = await db.select().from(routers).where(eq(routers.name, lookup));
  if (options.replacing && !existing) throw new InventoryInputError([{ path: "", message: `no router named ${options.replacing}` }]);
  if (input.name !== lookup) {
    const [taken] = await db.select({ id: routers.id }).from(routers).where(eq(routers.name, input.name));
    if (taken) throw new InventoryInputError([{ path: `${options.path}name`, message: `a router named ${input.name} exists already` }]);
  }
  const columns = routerColumns(input, existing, options.key, options.path);
  let id: number;
  if (existing) {
    id = existing.id;
    if (!holds(existing, columns)) await db.update(routers).set(columns).where(eq(routers.id, id));
  } else {
    [{ id }] = await db.insert(routers).values(columns).returning({ id: routers.id });
  }
  await writeExporters(db, id, input.exporters, options.path);
  await writeInterfaces(db, id, input.interfaces);
  await writeVrfs(db, id, input.vrfs);
  return id;
}

/** Makes the router's VRFs those given; nothing is written when they are already. */
async function writeVrfs(db: Db, routerId: number, list: VrfInput[]): Promise<void> {
  const key = (v: VrfInput) => `${v.name} ${v.rd}`;
  const current = (await db.select().from(routerVrfs).where(eq(routerVrfs.routerId, routerId)))
    .map((v) => key({ name: v.name, rd: v.routeDistinguisher }))
    .sort();
  if (JSON.stringify(current) === JSON.stringify(list.map(key).sort())) return;
  await db.delete(routerVrfs).where(eq(routerVrfs.routerId, routerId));
  if (list.length) await db.insert(routerVrfs).values(list.map((v) => ({ routerId, name: v.name, routeDistinguisher: v.rd })));
}

async function writeExporters(db: Db, routerId: number, addresses: string[], path: string): Promise<void> {
  const current = (await db.select().from(routerExporters).where(eq(routerExporters.routerId, routerId))).map((e) => e.address).sort();
  if (JSON.stringify(current) === JSON.stringify([...addresses].sort())) return;
  if (addresses.length) {
    const owners = await db
      .select({ address: routerExporters.address, router: routers.name })
      .from(routerExporters)
      .innerJoin(routers, eq(routers.id, routerExporters.routerId))
      .where(and(inArray(routerExporters.address, addresses), notInArray(routerExporters.routerId, [routerId])));
    if (owners.length)
      throw new InventoryInputError(
        owners.map((o) => ({
          path: `${path}exporters[${addresses.indexOf(o.address)}]`,
          message: `${o.address} is an exporter of router ${o.router}`,
        })),
      );
  }
  await db.delete(routerExporters).where(eq(routerExporters.routerId, routerId));
  if (addresses.length) await db.insert(routerExporters).values(addresses.map((address) => ({ address, routerId })));
}

function interfaceColumns(routerId: number, i: InterfaceInput) {
  return {
    routerId,
    name: i.name,
    snmpIndex: i.ifindex,
    description: i.description,
    capacityBps: i.capacity,
    kind: i.kind,
    peeringType: i.peering,
    connection: i.connection,
    neighborAsn: i.neighbour_as,
    vrf: i.vrf,
  };
}

/** Makes the router's interfaces those given (matched by name); remote ends are left to linkRemoteEnds. */
async function writeInterfaces(db: Db, routerId: number, list: InterfaceInput[]): Promise<void> {
  const current = await db.select().from(interfaces).where(eq(interfaces.routerId, routerId));
  const byName = new Map(current.map((row) => [row.name, row]));
  const wanted = new Set(list.map((i) => i.name));
  const gone = current.filter((row) => !wanted.has(row.name));
  if (gone.length)
    await db.delete(interfaces).where(
      inArray(
        interfaces.id,
        gone.map((row) => row.id),
      ),
    );
  // ifIndexes may be swapped between two interfaces: park the moving ones first (the index is unique per router).
  const moving = list.filter((i) => byName.has(i.name) && byName.get(i.name)!.snmpIndex !== i.ifindex);
  for (const i of moving) {
    const row = byName.get(i.name)!;
    await db.update(interfaces).set({ snmpIndex: -row.id }).where(eq(interfaces.id, row.id));
  }
  for (const i of list) {
    const row = byName.get(i.name);
    const columns = interfaceColumns(routerId, i);
    if (!row) await db.insert(interfaces).values(columns);
    else if (!holds(row, columns)) await db.update(interfaces).set(columns).where(eq(interfaces.id, row.id));
  }
}

/** Points each interface's remote end at the interface named, once all routers of a batch exist. */
export async function linkRemoteEnds(db: Db, batch: { routerName: string; path: string; interfaces: InterfaceInput[] }[]): Promise<void> {
  const issues: InventoryIssue[] = [];
  for (const { routerName, path, interfaces: list } of batch) {
    for (const [index, i] of list.entries()) {
      const [self] = await db
        .select({ id: interfaces.id, remote: interfaces.remoteInterfaceId })
        .from(interfaces)
        .innerJoin(routers, eq(routers.id, interfaces.routerId))
        .where(and(eq(routers.name, routerName), eq(interfaces.name, i.name)));
      let remoteId: number | null = null;
      if (i.remote) {
        const [target] = await db
          .select({ id: interfaces.id })
          .from(interfaces)
          .innerJoin(routers, eq(routers.id, interfaces.routerId))
          .where(and(eq(routers.name, i.remote.router), eq(interfaces.name, i.remote.interface)));
        if (!target) {
          issues.push({
            path: `${path}interfaces[${index}].remote`,
            message: `no interface ${i.remote.interface} on router ${i.remote.router}`,
          });
          continue;
        }
        if (target.id === self.id) {
          issues.push({ path: `${path}interfaces[${index}].remote`, message: "an interface is not its own remote end" });
          continue;
        }
        remoteId = target.id;
      }
      if (self.remote !== remoteId) await db.update(interfaces).set({ remoteInterfaceId: remoteId }).where(eq(interfaces.id, self.id));
    }
  }
  if (issues.length) throw new InventoryInputError(issues);
}

export async function writeVantagePoint(db: Db, input: VantagePointInput, replacing?: string): Promise<void> {
  const lookup = replacing ?? input.key;
  const [existing] = await db.select().from(vantagePoints).where(eq(vantagePoints.key, lookup));
  if (replacing && !existing) throw new InventoryInputError([{ path: "", message: `no vantage point with key ${replacing}` }]);
  const columns = {
    key: input.key,
    router: input.router,
    city: input.city,
    country: input.country,
    ip: input.ip,
    isPublic: input.public,
    description: input.description,
    legacyDescription: input.legacy_description,
  };
  if (!existing) await db.insert(vantagePoints).values(columns);
  else if (!holds(existing, columns)) await db.update(vantagePoints).set(columns).where(eq(vantagePoints.id, existing.id));
}
