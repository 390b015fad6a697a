/**
 * A capacity the SNMP poller reads from a device (ifHighSpeed, or the active members of a bundle)
 * that differs from the inventory's is only listed on the Data sources page (poll.server.ts): the
 * planners' utilisation depends on it, so a member briefly down must not halve a bundle's capacity
 * by itself. Staff confirm it there; this applies it to the inventory interface, in one transaction
 * with the audit entry, and takes it off the router's list. A confirmation that no longer matches
 * the list (another poll changed it, or someone confirmed first) changes nothing.
 */
import { and, eq } from "drizzle-orm";
import { interfaces, routers, snmpPollStatus } from "~db/postgres/schema";
import { recordAudit } from "~/server/audit/audit-log.server";
import type { Db } from "~/server/postgres.server";

export type CapacityConfirmation = { router: string; interface: string; deviceBps: number };
export type ConfirmOutcome = "applied" | "stale";

export async function confirmCapacityChange(
  db: Db,
  actor: { id: number; email: string },
  change: CapacityConfirmation,
  clientAddress: string | null = null,
): Promise<ConfirmOutcome> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const [status] = await tx
      .select({ routerId: snmpPollStatus.routerId, changes: snmpPollStatus.capacityChanges })
      .from(snmpPollStatus)
      .innerJoin(routers, eq(routers.id, snmpPollStatus.routerId))
      .where(eq(routers.name, change.router))
      .for("update");
    const listed = status?.changes.find((c) => c.interface === change.interface && c.device_bps === change.deviceBps);
    if (!status || !listed) return "stale";
    const [iface] = await tx
      .update(interfaces)
      .set({ capacityBps: change.deviceBps })
      .where(and(eq(interfaces.routerId, status.routerId), eq(interfaces.name, change.interface)))
      .returning({ id: interfaces.id });
    await tx
      .update(snmpPollStatus)
      .set({ capacityChanges: status.changes.filter((c) => c !== listed) })
      .where(eq(snmpPollStatus.routerId, status.routerId));
    if (!iface) return "stale";
    await recordAudit(tx, {
      actor,
      action: "interface.capacity_from_snmp",
      targetType: "interface",
      targetId: iface.id,
      targetLabel: `${change.router} ${change.interface}`,
      before: { capacity_bps: listed.inventory_bps },
      after: { capacity_bps: change.deviceBps },
      clientAddress,
    });
    return "applied";
  });
}
