/**
 * Which of a device's interfaces are the inventory's, pure: the inventory names an interface by
 * router and SNMP ifIndex; when the ifIndex now carries another ifName (devices renumber after a
 * reboot), the interface is followed by its ifName. Aggregates (Juniper `ae…`, Cisco
 * `Bundle-Ether…` and `Port-channel…`) take their members from IF-MIB's ifStackTable, and their
 * capacity is the sum of the speeds of the members that are up.
 */

export type DeviceInterface = {
  ifIndex: number;
  ifName: string;
  /** ifAlias: the description configured on the device. */
  ifAlias: string;
  /** ifHighSpeed, Mbit/s (0: unknown). */
  highSpeedMbps: number;
  /** ifOperStatus: 1 up, 2 down, … */
  operStatus: number;
};

export type InventoryInterface = { id: number; name: string; ifindex: number; capacity: number };

/** The ifName the poller last read this interface's counters under (remembered between polls). */
export type Remembered = Map<number, string>;

export type Resolved = {
  iface: InventoryInterface;
  ifIndex: number;
  ifName: string;
  /** Found by name at another ifIndex than the inventory's. */
  followed: boolean;
};

const AGGREGATE = /^(ae\d+|bundle-ether\d+|port-channel\d+)$/i;

export const isAggregateName = (name: string): boolean => AGGREGATE.test(name.trim());

/**
 * Each inventory interface at the device's ifIndex whose ifName is its own (the inventory's name,
 * or the ifName its counters were last read under); else at the ifIndex that carries that name;
 * else at its inventory ifIndex when the device has it and no other interface claims it. Missing:
 * those the device answers for in none of these ways.
 */
export function resolveInterfaces(
  inventory: readonly InventoryInterface[],
  names: ReadonlyMap<number, string>,
  remembered: Remembered = new Map(),
): { resolved: Resolved[]; missing: InventoryInterface[] } {
  const byName = new Map<string, number>();
  for (const [index, name] of names) if (!byName.has(name)) byName.set(name, index);
  const resolved: Resolved[] = [];
  const missing: InventoryInterface[] = [];
  const taken = new Set<number>();
  const later: InventoryInterface[] = [];
  for (const iface of inventory) {
    const expected = [remembered.get(iface.id), iface.name].filter((n): n is string => !!n);
    const here = names.get(iface.ifindex);
    if (here !== undefined && expected.includes(here)) {
      resolved.push({ iface, ifIndex: iface.ifindex, ifName: here, followed: false });
      taken.add(iface.ifindex);
      continue;
    }
    const elsewhere = expected.map((n) => byName.get(n)).find((i) => i !== undefined);
    if (elsewhere !== undefined) {
      resolved.push({ iface, ifIndex: elsewhere, ifName: names.get(elsewhere)!, followed: elsewhere !== iface.ifindex });
      taken.add(elsewhere);
      continue;
    }
    later.push(iface);
  }
  // A name the device does not know (spelt differently in the inventory): trust the ifIndex, unless
  // another inventory interface was followed there.
  for (const iface of later) {
    const here = names.get(iface.ifindex);
    if (here !== undefined && !taken.has(iface.ifindex)) {
      resolved.push({ iface, ifIndex: iface.ifindex, ifName: here, followed: false });
      taken.add(iface.ifindex);
    } else missing.push(iface);
  }
  return { resolved, missing };
}

/**
 * The members of each aggregate from ifStackTable rows (higher layer, lower layer, status 1 =
 * active): the lower layers of an aggregate-named interface, sub-interfaces (`ae0.100`) left out.
 */
export function aggregateMembers(
  stack: readonly { higher: number; lower: number; status: number }[],
  names: ReadonlyMap<number, string>,
): Map<number, number[]> {
  const members = new Map<number, number[]>();
  for (const { higher, lower, status } of stack) {
    if (higher === 0 || lower === 0 || status !== 1) continue;
    const name = names.get(higher);
    const memberName = names.get(lower);
    if (!name || !isAggregateName(name) || memberName === undefined || memberName.startsWith(`${name}.`)) continue;
    const list = members.get(higher) ?? [];
    if (!list.includes(lower)) list.push(lower);
    members.set(higher, list);
  }
  for (const list of members.values()) list.sort((a, b) => a - b);
  return members;
}

/**
 * bit/s the interface can carry now: for an aggregate with members, the sum of the members that
 * are up; otherwise its own ifHighSpeed. 0 when the device does not say.
 */
export function deviceCapacityBps(
  ifIndex: number,
  device: ReadonlyMap<number, DeviceInterface>,
  members: ReadonlyMap<number, number[]>,
): number {
  const list = members.get(ifIndex);
  if (list?.length)
    return list.reduce((sum, m) => {
      const member = device.get(m);
      return member && member.operStatus === 1 ? sum + member.highSpeedMbps * 1e6 : sum;
    }, 0);
  return (device.get(ifIndex)?.highSpeedMbps ?? 0) * 1e6;
}
