/**
 * One poll of one inventory router: read sysUpTime, the interfaces' names (ifName), the stack of
 * aggregates (ifStackTable), then for the inventory's interfaces (and the members of its
 * aggregates) ifHCInOctets, ifHCOutOctets, ifHighSpeed, ifOperStatus and ifAlias; feed the counters
 * to the accounting (accounting.ts) and write the intervals they complete to interface_util_5m
 * (source 'snmp'). The router's status (snmp_poll_status) is updated in one transaction under a row
 * lock, with the accounting of its interfaces, so a restart continues where it stopped; staff are
 * told once per failure (after FAILURES_BEFORE_NOTICE polls in a row failed) and once when polls
 * succeed again. Descriptions the inventory lacks are taken from ifAlias; a capacity the device
 * reports that differs from the inventory's is only reported.
 */
import { and, eq } from "drizzle-orm";
import { interfaces, snmpPollStatus, type SnmpCapacityChange, type SnmpInterfaceAccount } from "~db/postgres/schema";
import { recordAudit } from "~/server/audit/audit-log.server";
import { chInsert } from "~/server/clickhouse/query.server";
import { notify, staffAndSuperusers } from "~/server/notifications/notifications.server";
import type { Db } from "~/server/postgres.server";
import type { Services } from "~/server/services.server";
import { getRouter, routerSecrets, type RouterView } from "~/features/inventory/inventory.server";
import { observe, type IntervalRow } from "./accounting";
import { SnmpError, withSnmpSession, type SnmpErrorKind, type SnmpSession, type SnmpTarget } from "./client.server";
import { aggregateMembers, deviceCapacityBps, resolveInterfaces, type DeviceInterface } from "./interfaces";
import type { UtilSource } from "./util-source";

export const OID = {
  sysUpTime: "1.3.6.1.2.1.1.3.0",
  ifOperStatus: "1.3.6.1.2.1.2.2.1.8",
  ifName: "1.3.6.1.2.1.31.1.1.1.1",
  ifHCInOctets: "1.3.6.1.2.1.31.1.1.1.6",
  ifHCOutOctets: "1.3.6.1.2.1.31.1.1.1.10",
  ifHighSpeed: "1.3.6.1.2.1.31.1.1.1.15",
  ifAlias: "1.3.6.1.2.1.31.1.1.1.18",
  ifStackStatus: "1.3.6.1.2.1.31.1.2.1.3",
} as const;

/** Interfaces per GET request (five objects each). */
const INTERFACES_PER_GET = 8;
/** Staff are told of a router's failure when this many polls in a row failed. */
export const FAILURES_BEFORE_NOTICE = 2;

export type PollSettings = {
  pollIntervalMs: number;
  maxInterpolatedIntervals: number;
  timeoutMs: number;
  retries: number;
};

export type PollOutcome =
  | { ok: true; router: string; interfaces: number; rows: number; missing: string[]; capacityChanges: SnmpCapacityChange[] }
  | { ok: false; router: string; kind: SnmpErrorKind; message: string };

type Reading = { ifIndex: number; ifName: string; atMs: number; inOctets: bigint; outOctets: bigint; device: DeviceInterface };

const ERROR_WORDS: Record<SnmpErrorKind, string> = {
  timeout: "does not answer (time-out)",
  authentication: "refuses the credentials (authentication)",
  other: "could not be polled",
};

async function readDevice(session: SnmpSession, router: RouterView, remembered: Map<number, string>, clock: () => number) {
  const [uptime] = await session.get([OID.sysUpTime]);
  if (typeof uptime !== "number") throw new SnmpError("other", "The device has no sysUpTime");
  const names = new Map<number, string>();
  for (const [suffix, value] of await session.walk(OID.ifName)) names.set(Number(suffix), String(value ?? ""));
  const stack = [...(await session.walk(OID.ifStackStatus))].map(([suffix, value]) => {
    const [higher, lower] = suffix.split(".").map(Number);
    return { higher, lower, status: Number(value) };
  });
  const { resolved, missing } = resolveInterfaces(
    router.interfaces.map((i) => ({ id: i.id, name: i.name, ifindex: i.ifindex, capacity: i.capacity })),
    names,
    remembered,
  );
  const members = aggregateMembers(stack, names);
  const wanted = [...new Set([...resolved.map((r) => r.ifIndex), ...resolved.flatMap((r) => members.get(r.ifIndex) ?? [])])];
  const device = new Map<number, DeviceInterface>();
  const counters = new Map<number, { inOctets: bigint | null; outOctets: bigint | null; atMs: number }>();
  for (let i = 0; i < wanted.length; i += INTERFACES_PER_GET) {
    const chunk = wanted.slice(i, i + INTERFACES_PER_GET);
    const oids = chunk.flatMap((x) =>
      [OID.ifHCInOctets, OID.ifHCOutOctets, OID.ifHighSpeed, OID.ifOperStatus, OID.ifAlias].map((o) => `${o}.${x}`),
    );
    const values = await session.get(oids);
    const atMs = clock();
    chunk.forEach((ifIndex, n) => {
      const [inOctets, outOctets, speed, oper, alias] = values.slice(n * 5, n * 5 + 5);
      device.set(ifIndex, {
        ifIndex,
        ifName: names.get(ifIndex) ?? "",
        ifAlias: typeof alias === "string" ? alias : "",
        highSpeedMbps: typeof speed === "number" ? speed : 0,
        operStatus: typeof oper === "number" ? oper : 0,
      });
      counters.set(ifIndex, {
        inOctets: typeof inOctets === "bigint" ? inOctets : null,
        outOctets: typeof outOctets === "bigint" ? outOctets : null,
        atMs,
      });
    });
  }
  const readings = new Map<number, Reading>();
  for (const r of resolved) {
    const c = counters.get(r.ifIndex);
    if (!c || c.inOctets === null || c.outOctets === null) continue;
    readings.set(r.iface.id, {
      ifIndex: r.ifIndex,
      ifName: r.ifName,
      atMs: c.atMs,
      inOctets: c.inOctets,
      outOctets: c.outOctets,
      device: device.get(r.ifIndex)!,
    });
  }
  const missingNames = [...missing.map((m) => m.name), ...resolved.filter((r) => !readings.has(r.iface.id)).map((r) => r.iface.name)];
  return { uptime, readings, missing: missingNames.sort(), device, members };
}

export function snmpTarget(router: RouterView, secrets: Awaited<ReturnType<typeof routerSecrets>>, settings: PollSettings): SnmpTarget {
  return {
    host: router.loopback,
    port: router.snmp?.port ?? 161,
    version: router.snmp?.version ?? "2c",
    community: secrets?.snmpCommunity ?? null,
    user: router.snmp?.user ?? null,
    authProtocol: router.snmp?.auth_protocol ?? null,
    authPassword: secrets?.snmpAuthPassword ?? null,
    privProtocol: router.snmp?.priv_protocol ?? null,
    privPassword: secrets?.snmpPrivPassword ?? null,
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
  };
}

async function lockStatus(tx: Db, routerId: number) {
  await tx.insert(snmpPollStatus).values({ routerId }).onConflictDoNothing();
  const [row] = await tx.select().from(snmpPollStatus).where(eq(snmpPollStatus.routerId, routerId)).for("update");
  return row;
}

/**
 * Polls `routerName` once. Rows that could not be written are handed back through `unwritten`
 * (the caller retries them with the next poll). Never throws for a device's failure: that is the
 * outcome, recorded in snmp_poll_status.
 */
export async function pollRouter(
  services: Pick<Services, "pg" | "ch" | "config">,
  routerName: string,
  settings: PollSettings,
  options: { clock?: () => number; pending?: Record<string, unknown>[] } = {},
): Promise<PollOutcome & { unwritten: Record<string, unknown>[] }> {
  const clock = options.clock ?? Date.now;
  const router = await getRouter(services, routerName);
  if (!router?.snmp) return { ok: false, router: routerName, kind: "other", message: "not polled: no SNMP settings", unwritten: [] };
  let secrets: Awaited<ReturnType<typeof routerSecrets>>;
  try {
    secrets = await routerSecrets(services, routerName);
  } catch (error) {
    // A key that does not open the stored secrets (INVENTORY_SECRET_KEY changed or missing) is the router's failure too.
    const failure = new SnmpError("other", `The SNMP secrets cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    await recordFailure(services.pg.db, router, failure, new Date(clock()));
    return { ok: false, router: router.name, kind: failure.kind, message: failure.message, unwritten: options.pending ?? [] };
  }
  const [stored] = await services.pg.db.select().from(snmpPollStatus).where(eq(snmpPollStatus.routerId, router.id));
  const accounts: Record<string, SnmpInterfaceAccount> = stored?.accounts ?? {};
  const remembered = new Map<number, string>();
  for (const [id, account] of Object.entries(accounts)) if (account.last) remembered.set(Number(id), account.last.ifName);

  const startedAt = new Date(clock());
  let device: Awaited<ReturnType<typeof readDevice>>;
  try {
    device = await withSnmpSession(snmpTarget(router, secrets, settings), (session) => readDevice(session, router, remembered, clock));
  } catch (error) {
    const failure = error instanceof SnmpError ? error : new SnmpError("other", error instanceof Error ? error.message : String(error));
    await recordFailure(services.pg.db, router, failure, startedAt);
    return { ok: false, router: router.name, kind: failure.kind, message: failure.message, unwritten: options.pending ?? [] };
  }

  const rows: Record<string, unknown>[] = [...(options.pending ?? [])];
  const nextAccounts: Record<string, SnmpInterfaceAccount> = {};
  const capacityChanges: SnmpCapacityChange[] = [];
  const descriptions: { id: number; name: string; description: string }[] = [];
  for (const iface of router.interfaces) {
    const reading = device.readings.get(iface.id);
    if (!reading) continue;
    const measured = deviceCapacityBps(reading.ifIndex, device.device, device.members);
    const { account, result } = observe(
      accounts[String(iface.id)] ?? { last: null, open: [] },
      { ...reading, uptime: device.uptime },
      {
        pollIntervalMs: settings.pollIntervalMs,
        maxInterpolatedIntervals: settings.maxInterpolatedIntervals,
        speedBps: Math.max(measured, iface.capacity, reading.device.highSpeedMbps * 1e6),
      },
    );
    nextAccounts[String(iface.id)] = account;
    const capacity = measured > 0 ? measured : iface.capacity;
    for (const row of result.rows) rows.push(utilRow(router, iface, row, capacity, "snmp"));
    if (measured > 0 && measured !== iface.capacity)
      capacityChanges.push({ interface: iface.name, inventory_bps: iface.capacity, device_bps: measured });
    if (!iface.description.trim() && reading.device.ifAlias.trim())
      descriptions.push({ id: iface.id, name: iface.name, description: reading.device.ifAlias.trim().slice(0, 500) });
  }

  let unwritten: Record<string, unknown>[] = [];
  if (rows.length) {
    try {
      await chInsert(services.ch, { name: "snmp.interfaceUtil", table: "interface_util_5m", values: rows });
    } catch {
      unwritten = rows;
    }
  }

  await services.pg.db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const status = await lockStatus(tx, router.id);
    if (status.failureTold) {
      const staff = await staffAndSuperusers(tx);
      await notify(tx, staff, {
        title: `SNMP polls of ${router.name} work again`,
        message: `${router.name} (${router.loopback}) answers SNMP polls again. See Site settings › Data sources.`,
        doPopUp: true,
      });
    }
    await tx
      .update(snmpPollStatus)
      .set({
        lastPollAt: startedAt,
        lastSuccessAt: startedAt,
        failures: 0,
        failureTold: false,
        interfacesPolled: device.readings.size,
        interfacesMissing: device.missing,
        capacityChanges,
        accounts: nextAccounts,
        updatedAt: new Date(clock()),
      })
      .where(eq(snmpPollStatus.routerId, router.id));
    for (const d of descriptions) {
      const changed = await tx
        .update(interfaces)
        .set({ description: d.description })
        .where(and(eq(interfaces.id, d.id), eq(interfaces.description, "")))
        .returning({ id: interfaces.id });
      if (changed.length)
        await recordAudit(tx, {
          actor: null,
          action: "interface.describe_from_snmp",
          targetType: "interface",
          targetId: d.id,
          targetLabel: `${router.name} ${d.name}`,
          before: { description: "" },
          after: { description: d.description },
        });
    }
  });
  return {
    ok: true,
    router: router.name,
    interfaces: device.readings.size,
    rows: rows.length - unwritten.length,
    missing: device.missing,
    capacityChanges,
    unwritten,
  };
}

export function utilRow(
  router: Pick<RouterView, "name">,
  iface: Pick<RouterView["interfaces"][number], "name" | "kind" | "neighbour_as">,
  row: IntervalRow,
  capacityBps: number,
  source: UtilSource,
): Record<string, unknown> {
  return {
    time: Math.floor(row.start / 1000),
    router: router.name,
    interface: iface.name,
    kind: iface.kind,
    neighbor_asn: iface.neighbour_as ?? 0,
    in_bytes: Number(row.inBytes),
    out_bytes: Number(row.outBytes),
    capacity_bps: Math.round(capacityBps),
    source,
    interpolated: row.interpolated ? 1 : 0,
  };
}

async function recordFailure(db: Db, router: RouterView, failure: SnmpError, at: Date): Promise<void> {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const status = await lockStatus(tx, router.id);
    const failures = status.failures + 1;
    const tell = failures >= FAILURES_BEFORE_NOTICE && !status.failureTold;
    if (tell) {
      const staff = await staffAndSuperusers(tx);
      await notify(tx, staff, {
        title: `SNMP polls of ${router.name} fail`,
        message: `${router.name} (${router.loopback}) ${ERROR_WORDS[failure.kind]} for ${failures} polls in a row: ${failure.message}. See Site settings › Data sources.`,
        doPopUp: true,
      });
    }
    await tx
      .update(snmpPollStatus)
      .set({
        lastPollAt: at,
        lastErrorAt: at,
        lastErrorKind: failure.kind,
        lastError: failure.message.slice(0, 500),
        failures,
        failureTold: status.failureTold || tell,
        updatedAt: at,
      })
      .where(eq(snmpPollStatus.routerId, router.id));
  });
}
