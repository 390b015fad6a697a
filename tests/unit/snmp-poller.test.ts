/**
 * The SNMP poller's pure parts: which device interface is the inventory's (by ifIndex, followed by
 * ifName), aggregates from ifStackTable and their capacity, the settings, and the schedule (polls
 * spread over the interval, a bounded number in flight).
 */
import { describe, expect, it } from "vitest";
import {
  aggregateMembers,
  deviceCapacityBps,
  isAggregateName,
  resolveInterfaces,
  type DeviceInterface,
} from "~/features/collector/snmp/interfaces";
import { pollOffsetMs, SnmpScheduler, snmpPollerSettings, type SnmpPollerSettings } from "~/features/collector/snmp/poller.server";
import { componentEnv } from "~/server/components/contract.server";

const inv = (id: number, name: string, ifindex: number) => ({ id, name, ifindex, capacity: 0 });

describe("inventory interfaces on the device", () => {
  it("takes the inventory's ifIndex when the name there matches, follows the name when it moved, trusts an index whose name the device spells otherwise", () => {
    const names = new Map([
      [501, "et-0/0/1"],
      [502, "et-0/0/3"],
      [710, "et-0/0/2"],
      [503, "TenGigE0/0/0/3"],
    ]);
    const { resolved, missing } = resolveInterfaces(
      [inv(1, "et-0/0/1", 501), inv(2, "et-0/0/2", 502), inv(3, "uplink-3", 503), inv(4, "et-0/0/9", 509)],
      names,
    );
    expect(resolved.map((r) => [r.iface.name, r.ifIndex, r.ifName, r.followed])).toEqual([
      ["et-0/0/1", 501, "et-0/0/1", false],
      ["et-0/0/2", 710, "et-0/0/2", true],
      ["uplink-3", 503, "TenGigE0/0/0/3", false],
    ]);
    expect(missing.map((m) => m.name)).toEqual(["et-0/0/9"]);
  });

  it("follows the ifName the counters were last read under when the inventory spells the interface otherwise", () => {
    const remembered = new Map([[3, "TenGigE0/0/0/3"]]);
    const after = new Map([
      [503, "TenGigE0/0/0/7"],
      [520, "TenGigE0/0/0/3"],
    ]);
    const { resolved } = resolveInterfaces([inv(3, "uplink-3", 503)], after, remembered);
    expect(resolved.map((r) => [r.ifIndex, r.followed])).toEqual([[520, true]]);
  });

  it("does not hand one ifIndex to two inventory interfaces", () => {
    // et-0/0/2 moved to 501's old place is followed there; "old-name" at 502 keeps 502 only if free.
    const names = new Map([
      [501, "et-0/0/2"],
      [502, "something"],
    ]);
    const { resolved, missing } = resolveInterfaces([inv(1, "gone", 501), inv(2, "et-0/0/2", 502)], names);
    expect(resolved.map((r) => [r.iface.name, r.ifIndex])).toEqual([["et-0/0/2", 501]]);
    expect(missing.map((m) => m.name)).toEqual(["gone"]);
  });
});

describe("aggregates", () => {
  const names = new Map([
    [600, "ae0"],
    [601, "xe-0/0/0"],
    [602, "xe-0/0/1"],
    [603, "ae0.100"],
    [700, "Bundle-Ether7"],
    [701, "HundredGigE0/0/0/1"],
    [800, "Port-channel1"],
    [900, "et-0/0/5"],
    [901, "et-0/0/5.0"],
  ]);
  const stack = [
    { higher: 603, lower: 600, status: 1 }, // the unit above the bundle
    { higher: 600, lower: 601, status: 1 },
    { higher: 600, lower: 602, status: 1 },
    { higher: 600, lower: 603, status: 1 }, // a sub-interface is no member
    { higher: 700, lower: 701, status: 1 },
    { higher: 800, lower: 0, status: 1 },
    { higher: 901, lower: 900, status: 1 }, // not an aggregate
    { higher: 0, lower: 600, status: 1 },
  ];

  it("recognises Juniper ae, Cisco Bundle-Ether and Port-channel by name and takes their members from ifStackTable", () => {
    expect(["ae0", "AE12", "Bundle-Ether100", "Port-channel1", "ae0.100", "xe-0/0/0", "aeX"].map(isAggregateName)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect([...aggregateMembers(stack, names)]).toEqual([
      [600, [601, 602]],
      [700, [701]],
    ]);
  });

  it("gives a bundle the sum of the members that are up, anything else its own speed", () => {
    const dev = (ifIndex: number, highSpeedMbps: number, operStatus = 1): [number, DeviceInterface] => [
      ifIndex,
      { ifIndex, ifName: names.get(ifIndex) ?? "", ifAlias: "", highSpeedMbps, operStatus },
    ];
    const device = new Map([dev(600, 30_000), dev(601, 10_000), dev(602, 10_000, 2), dev(900, 100_000), dev(800, 40_000)]);
    const members = aggregateMembers(stack, names);
    expect(deviceCapacityBps(600, device, members)).toBe(10e9);
    expect(deviceCapacityBps(900, device, members)).toBe(100e9);
    // A bundle the stack lists no member of: its own ifHighSpeed.
    expect(deviceCapacityBps(800, device, members)).toBe(40e9);
    expect(deviceCapacityBps(999, device, members)).toBe(0);
  });
});

describe("settings", () => {
  const settings = (env: Record<string, string>) => snmpPollerSettings(componentEnv("snmp", env));

  it("is off unless SNMP_POLL=on, with the documented defaults", () => {
    expect(settings({})).toBeNull();
    expect(settings({ SNMP_POLL: "off" })).toBeNull();
    expect(settings({ SNMP_POLL: "on" })).toEqual({
      pollIntervalMs: 300_000,
      maxInFlight: 8,
      timeoutMs: 5_000,
      retries: 1,
      maxInterpolatedIntervals: 3,
    });
    expect(settings({ SNMP_POLL: "on", SNMP_POLL_INTERVAL: "60", SNMP_MAX_INTERPOLATED: "0" })).toMatchObject({
      pollIntervalMs: 60_000,
      maxInterpolatedIntervals: 0,
    });
  });

  it("names the variable of a bad value", () => {
    expect(() => settings({ SNMP_POLL: "maybe" })).toThrow(/SNMP_POLL: expected on or off/);
    expect(() => settings({ SNMP_POLL: "on", SNMP_POLL_INTERVAL: "70" })).toThrow(/SNMP_POLL_INTERVAL: must divide the 5-minute grid/);
    expect(() => settings({ SNMP_POLL: "on", SNMP_POLL_INTERVAL: "600" })).toThrow(
      /SNMP_POLL_INTERVAL: expected a whole number from 30 to 300/,
    );
    expect(() => settings({ SNMP_POLL: "on", SNMP_MAX_IN_FLIGHT: "0" })).toThrow(/SNMP_MAX_IN_FLIGHT/);
  });
});

describe("the schedule", () => {
  const SETTINGS: SnmpPollerSettings = {
    pollIntervalMs: 300_000,
    maxInFlight: 2,
    timeoutMs: 1_000,
    retries: 0,
    maxInterpolatedIntervals: 3,
  };

  it("spreads routers over the interval and keeps each one's offset", () => {
    const offsets = Array.from({ length: 200 }, (_, i) => pollOffsetMs(`r${i}.example.net`, 300_000));
    expect(offsets.every((o) => o >= 0 && o < 300_000)).toBe(true);
    // Spread: every minute of the five gets some of the 200 routers.
    const minutes = new Set(offsets.map((o) => Math.floor(o / 60_000)));
    expect([...minutes].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(pollOffsetMs("fra1-r1", 300_000)).toBe(pollOffsetMs("fra1-r1", 300_000));
  });

  it("polls each router once per interval at its offset, at most maxInFlight at a time, skipping a turn while one still runs", async () => {
    const started: string[] = [];
    const finish = new Map<string, () => void>();
    const scheduler = new SnmpScheduler(SETTINGS, (router) => {
      started.push(router);
      return new Promise((resolve) => finish.set(router, () => resolve({ ok: true, unwritten: [] })));
    });
    const names = ["a", "b", "c"];
    scheduler.setRouters(names);
    const base = 1_800_000_000_000;
    scheduler.tick(base); // first sight: nobody polls yet
    expect(started).toEqual([]);
    scheduler.tick(base + 300_000); // every router's offset has passed once
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toHaveLength(2);
    expect(scheduler.inFlight).toBe(2);
    // The third waits for a slot; the next interval's turn of a router still running is skipped.
    scheduler.tick(base + 600_000);
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toHaveLength(2);
    finish.get(started[0])!();
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toHaveLength(3);
    expect(new Set(started)).toEqual(new Set(names));
    for (const name of started) finish.get(name)?.();
    await Promise.all([...scheduler.done]);
    expect(scheduler.polls).toBe(3);
    expect(scheduler.inFlight).toBe(0);
  });
});
