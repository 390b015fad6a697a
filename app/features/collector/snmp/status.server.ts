/**
 * What the Data sources page shows of the SNMP poller: every inventory router with SNMP settings
 * and its snmp_poll_status row (none until its first poll).
 */
import { asc, eq, isNotNull } from "drizzle-orm";
import { routers, snmpPollStatus, type SnmpCapacityChange } from "~db/postgres/schema";
import type { Db } from "~/server/postgres.server";

export type SnmpStatusRow = {
  router: string;
  address: string;
  port: number;
  version: "2c" | "3";
  lastPollAt: Date | null;
  lastSuccessAt: Date | null;
  lastErrorAt: Date | null;
  lastErrorKind: "timeout" | "authentication" | "other" | null;
  lastError: string | null;
  failures: number;
  interfacesPolled: number;
  interfacesMissing: string[];
  capacityChanges: SnmpCapacityChange[];
};

export async function snmpStatusRows(db: Db): Promise<SnmpStatusRow[]> {
  const rows = await db
    .select({
      router: routers.name,
      address: routers.loopback,
      port: routers.snmpPort,
      version: routers.snmpVersion,
      lastPollAt: snmpPollStatus.lastPollAt,
      lastSuccessAt: snmpPollStatus.lastSuccessAt,
      lastErrorAt: snmpPollStatus.lastErrorAt,
      lastErrorKind: snmpPollStatus.lastErrorKind,
      lastError: snmpPollStatus.lastError,
      failures: snmpPollStatus.failures,
      interfacesPolled: snmpPollStatus.interfacesPolled,
      interfacesMissing: snmpPollStatus.interfacesMissing,
      capacityChanges: snmpPollStatus.capacityChanges,
    })
    .from(routers)
    .leftJoin(snmpPollStatus, eq(snmpPollStatus.routerId, routers.id))
    .where(isNotNull(routers.snmpVersion))
    .orderBy(asc(routers.name));
  return rows.map((r) => ({
    ...r,
    version: r.version!,
    failures: r.failures ?? 0,
    interfacesPolled: r.interfacesPolled ?? 0,
    interfacesMissing: r.interfacesMissing ?? [],
    capacityChanges: r.capacityChanges ?? [],
  }));
}
