/**
 * The SNMP poller against a real snmpd (tests/helpers/snmpd.ts): the test chooses the counters the
 * agent serves and the poller's clock (polls exactly on the 5-minute grid, so an interval's bytes
 * are one counter difference), and reads what the poller wrote to interface_util_5m and
 * snmp_poll_status: counters read, a 64-bit wrap, an aggregate's capacity from its active members,
 * a restart of snmpd (sysUpTime back: no difference), an interface followed by ifName to a new
 * ifIndex, a time-out and its notifications to staff, a long outage left empty and one missed poll
 * spread and marked interpolated, SNMPv3 with wrong and right credentials, the component itself.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifications, snmpPollStatus, users } from "~db/postgres/schema";
import { createRouter, getRouter, updateRouter } from "~/features/inventory/inventory.server";
import { routerDocument } from "~/features/inventory/document";
import { pollRouter, type PollSettings } from "~/features/collector/snmp/poll.server";
import { snmpPoller } from "~/features/collector/snmp/poller.server";
import { startComponentsIfHost } from "~/server/components/placement.server";
import { componentHealth, stopRunningComponents } from "~/server/components/supervisor.server";
import { chRows, openTestStores, type TestStores } from "../helpers/stores";
import { snmpdMissing, SNMPD_COMMUNITY, SNMPD_V3, startSnmpd, type AgentInterface, type Snmpd } from "../helpers/snmpd";

const missing = snmpdMissing();
// An agent that answers through a script per object is slow on a busy machine: generous time, one retry.
const SETTINGS: PollSettings = { pollIntervalMs: 300_000, maxInterpolatedIntervals: 3, timeoutMs: 3_000, retries: 1 };
// Where nothing answers, the time-out itself is what is tested: short.
const DEAF = { ...SETTINGS, timeoutMs: 300, retries: 0 };
// Two hours ago on the grid: recent enough for the table's TTL, and the test's own clock.
const G = Math.floor(Date.now() / 300_000) * 300_000 - 7_200_000;
const TOP = 2n ** 64n;

const external = (name: string, ifindex: number, capacity: number, extra: Record<string, unknown> = {}) => ({
  name,
  ifindex,
  capacity,
  kind: "external",
  peering: "Transit",
  neighbour_as: 3356,
  ...extra,
});

type UtilRow = {
  interface: string;
  t: number;
  in_bytes: number;
  out_bytes: number;
  capacity_bps: number;
  source: string;
  interpolated: number;
};

describe.skipIf(missing !== null)("SNMP poller against snmpd", () => {
  let stores: TestStores;
  let agent: Snmpd;
  let staffId: number;
  // What the agent serves; each poll changes some counters.
  const served = new Map<number, AgentInterface>();
  const serve = () =>
    agent.serve(
      [...served.values()],
      [
        { higher: 600, lower: 601 },
        { higher: 600, lower: 602 },
      ],
    );
  const poll = (router: string, atMs: number, settings = SETTINGS) => pollRouter(stores, router, settings, { clock: () => atMs });
  const rows = (router: string) =>
    chRows<UtilRow>(
      stores,
      `SELECT interface, toUInt32(time) AS t, in_bytes, out_bytes, capacity_bps, source, interpolated
       FROM interface_util_5m FINAL WHERE router = {router:String} ORDER BY interface, t`,
      { router },
    ).then((list) =>
      list.map((r) => ({
        ...r,
        t: (Number(r.t) * 1000 - G) / 1000,
        in_bytes: Number(r.in_bytes),
        out_bytes: Number(r.out_bytes),
        capacity_bps: Number(r.capacity_bps),
        interpolated: Number(r.interpolated),
      })),
    );
  const status = async (router: string) => {
    const view = await getRouter(stores, router);
    const [row] = await stores.pg.db.select().from(snmpPollStatus).where(eq(snmpPollStatus.routerId, view!.id));
    return row;
  };

  beforeAll(async () => {
    stores = await openTestStores({ env: { INVENTORY_SECRET_KEY: "42".repeat(32) } });
    agent = await startSnmpd();
    [{ id: staffId }] = await stores.pg.db
      .insert(users)
      .values({ email: "noc@snmp.test", firstName: "Nora", lastName: "Noc", passwordHash: "x", isStaff: true })
      .returning({ id: users.id });
    served.set(501, {
      ifIndex: 501,
      name: "et-0/0/1",
      alias: "Transit AS3356 circuit 7",
      inOctets: 1_000n,
      outOctets: 500n,
      speedMbps: 100_000,
    });
    served.set(502, { ifIndex: 502, name: "et-0/0/2", inOctets: TOP - 1_000n, outOctets: TOP - 10n, speedMbps: 100_000 });
    served.set(600, { ifIndex: 600, name: "ae0", alias: "bundle", inOctets: 5_000n, outOctets: 0n, speedMbps: 20_000 });
    served.set(601, { ifIndex: 601, name: "xe-0/0/0", inOctets: 0n, outOctets: 0n, speedMbps: 10_000, oper: 1 });
    served.set(602, { ifIndex: 602, name: "xe-0/0/1", inOctets: 0n, outOctets: 0n, speedMbps: 10_000, oper: 2 });
    serve();
    const base = { city: "Frankfurt", country: "Germany", loopback: "127.0.0.1" };
    await createRouter(stores, {
      ...base,
      name: "fra1-r1",
      snmp: { version: "2c", port: agent.port, community: SNMPD_COMMUNITY },
      interfaces: [
        external("et-0/0/1", 501, 100e9),
        external("et-0/0/2", 502, 100e9, { description: "kept as it is" }),
        external("ae0", 600, 40e9, { peering: "Peering", neighbour_as: 2906 }),
        external("et-9/9/9", 999, 10e9),
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await agent?.stop();
    await stores?.dispose();
  }, 60_000);

  it("reads the counters and writes each interval's counter difference, across a wrap, with the bundle's active capacity", async () => {
    expect(await poll("fra1-r1", G)).toMatchObject({ ok: true, interfaces: 3, rows: 0, missing: ["et-9/9/9"] });
    // 3,000 in and 600 out on et-0/0/1; et-0/0/2 wraps: 1,000 to the top and 2,000 after (out: 10 + 20).
    served.get(501)!.inOctets += 3_000n;
    served.get(501)!.outOctets += 600n;
    served.get(502)!.inOctets = 2_000n;
    served.get(502)!.outOctets = 20n;
    served.get(600)!.inOctets += 7_000n;
    serve();
    expect(await poll("fra1-r1", G + 300_000)).toMatchObject({ ok: true, interfaces: 3, rows: 3 });
    expect(await rows("fra1-r1")).toEqual([
      // ae0: members xe-0/0/0 (up, 10G) and xe-0/0/1 (down): 10 Gbit/s, not its own 20G or the inventory's 40G.
      { interface: "ae0", t: 0, in_bytes: 7_000, out_bytes: 0, capacity_bps: 10e9, source: "snmp", interpolated: 0 },
      { interface: "et-0/0/1", t: 0, in_bytes: 3_000, out_bytes: 600, capacity_bps: 100e9, source: "snmp", interpolated: 0 },
      { interface: "et-0/0/2", t: 0, in_bytes: 3_000, out_bytes: 30, capacity_bps: 100e9, source: "snmp", interpolated: 0 },
    ]);
    const row = await status("fra1-r1");
    expect(row).toMatchObject({
      failures: 0,
      lastErrorKind: null,
      interfacesPolled: 3,
      interfacesMissing: ["et-9/9/9"],
      capacityChanges: [{ interface: "ae0", inventory_bps: 40e9, device_bps: 10e9 }],
    });
    expect(row.lastSuccessAt?.getTime()).toBe(G + 300_000);
    // The inventory's empty description is taken from ifAlias; one it has is kept.
    const router = await getRouter(stores, "fra1-r1");
    expect(router!.interfaces.map((i) => [i.name, i.description])).toEqual([
      ["et-0/0/1", "Transit AS3356 circuit 7"],
      ["et-0/0/2", "kept as it is"],
      ["ae0", "bundle"],
      ["et-9/9/9", ""],
    ]);
  });

  it("gives no difference for the poll after snmpd restarted (sysUpTime went back)", async () => {
    // Let the agent's uptime pass a second, so the restarted agent's is lower for sure.
    await new Promise((r) => setTimeout(r, 1_100));
    served.get(501)!.inOctets += 4_000n;
    serve();
    await poll("fra1-r1", G + 600_000);
    await agent.restart();
    served.get(501)!.inOctets += 5_000n;
    serve();
    await poll("fra1-r1", G + 900_000);
    served.get(501)!.inOctets += 6_000n;
    serve();
    await poll("fra1-r1", G + 1_200_000);
    const et = (await rows("fra1-r1")).filter((r) => r.interface === "et-0/0/1").map((r) => [r.t, r.in_bytes]);
    // 300 s: 4,000; 600 s: the restart, nothing; 900 s: 6,000.
    expect(et).toEqual([
      [0, 3_000],
      [300, 4_000],
      [900, 6_000],
    ]);
  }, 30_000);

  it("follows an interface by ifName when its ifIndex changed, and counts again from the next poll", async () => {
    const moved = { ...served.get(501)!, ifIndex: 701 };
    served.delete(501);
    served.set(701, moved);
    serve();
    expect(await poll("fra1-r1", G + 1_500_000)).toMatchObject({ ok: true, interfaces: 3, missing: ["et-9/9/9"] });
    moved.inOctets += 8_000n;
    serve();
    await poll("fra1-r1", G + 1_800_000);
    const et = (await rows("fra1-r1")).filter((r) => r.interface === "et-0/0/1").map((r) => [r.t, r.in_bytes]);
    // 1,200 s: read at another ifIndex, nothing; 1,500 s: 8,000.
    expect(et.slice(-2)).toEqual([
      [900, 6_000],
      [1_500, 8_000],
    ]);
  }, 30_000);

  it("reports a time-out, tells staff once after two failed polls, and once when polls work again", async () => {
    await stores.pg.db.delete(notifications);
    const router = await getRouter(stores, "fra1-r1");
    const document = routerDocument(router!) as Record<string, unknown>;
    const deaf = agent.port === 65_535 ? 65_534 : agent.port + 1;
    await updateRouter(stores, "fra1-r1", { ...document, snmp: { ...(document.snmp as object), port: deaf } });
    expect(await poll("fra1-r1", G + 2_100_000, DEAF)).toMatchObject({ ok: false, kind: "timeout" });
    expect(await stores.pg.db.select().from(notifications)).toEqual([]);
    expect(await poll("fra1-r1", G + 2_400_000, DEAF)).toMatchObject({ ok: false, kind: "timeout" });
    expect(await poll("fra1-r1", G + 2_700_000, DEAF)).toMatchObject({ ok: false, kind: "timeout" });
    const told = await stores.pg.db.select().from(notifications);
    expect(told.map((n) => [n.userId, n.title])).toEqual([[staffId, "SNMP polls of fra1-r1 fail"]]);
    expect(await status("fra1-r1")).toMatchObject({ failures: 3, failureTold: true, lastErrorKind: "timeout" });

    await updateRouter(stores, "fra1-r1", { ...document, snmp: { ...(document.snmp as object), port: agent.port } });
    expect(await poll("fra1-r1", G + 3_000_000)).toMatchObject({ ok: true });
    expect(await poll("fra1-r1", G + 3_300_000)).toMatchObject({ ok: true });
    const after = await stores.pg.db.select().from(notifications);
    expect(after.map((n) => n.title)).toEqual(["SNMP polls of fra1-r1 fail", "SNMP polls of fra1-r1 work again"]);
    expect(await status("fra1-r1")).toMatchObject({ failures: 0, failureTold: false, lastErrorKind: "timeout" });
  }, 30_000);

  it("leaves the intervals of a long outage empty and spreads one missed poll over its intervals, marked interpolated", async () => {
    const et = async () =>
      (await rows("fra1-r1")).filter((r) => r.interface === "et-0/0/1" && r.t >= 1_800).map((r) => [r.t, r.in_bytes, r.interpolated]);
    // The time-outs above left 1,800 s → 3,000 s (4 intervals) without a reading: nothing there; 3,000 s was read
    // again from the poll at 3,300 s (counters unchanged: 0 bytes).
    expect(await et()).toEqual([[3_000, 0, 0]]);
    // The poll at 3,600 s is missed; 3,300 s → 3,900 s carries 6,000 bytes: 3,000 to each interval, marked.
    served.get(701)!.inOctets += 6_000n;
    serve();
    await poll("fra1-r1", G + 3_900_000);
    expect(await et()).toEqual([
      [3_000, 0, 0],
      [3_300, 3_000, 1],
      [3_600, 3_000, 1],
    ]);
  }, 30_000);

  it("polls with SNMPv3 (SHA, AES): refused with a wrong authentication password, read with the right one", async () => {
    const v3 = (authPassword: string) => ({
      version: "3",
      port: agent.port,
      user: SNMPD_V3.user,
      auth_protocol: SNMPD_V3.authProtocol,
      auth_password: authPassword,
      priv_protocol: SNMPD_V3.privProtocol,
      priv_password: SNMPD_V3.privPassword,
    });
    const base = { city: "Berlin", country: "Germany", loopback: "127.0.0.1", interfaces: [external("et-0/0/2", 502, 100e9)] };
    await createRouter(stores, { ...base, name: "v3-wrong", snmp: v3("not-the-password") });
    await createRouter(stores, { ...base, name: "v3-right", snmp: v3(SNMPD_V3.authPassword) });
    expect(await poll("v3-wrong", G)).toMatchObject({ ok: false, kind: "authentication" });
    expect(await status("v3-wrong")).toMatchObject({ lastErrorKind: "authentication", interfacesPolled: 0 });
    expect(await poll("v3-right", G)).toMatchObject({ ok: true, interfaces: 1 });
    served.get(502)!.inOctets += 900n;
    serve();
    expect(await poll("v3-right", G + 300_000)).toMatchObject({ ok: true, rows: 1 });
    expect((await rows("v3-right")).map((r) => [r.interface, r.t, r.in_bytes])).toEqual([["et-0/0/2", 0, 900]]);
  }, 30_000);

  it("records a key that cannot open the router's SNMP secrets as the router's failure", async () => {
    const key = stores.config.INVENTORY_SECRET_KEY;
    Object.assign(stores.config, { INVENTORY_SECRET_KEY: Buffer.from("17".repeat(32), "hex") });
    try {
      expect(await poll("v3-right", G + 600_000)).toMatchObject({ ok: false, kind: "other" });
    } finally {
      Object.assign(stores.config, { INVENTORY_SECRET_KEY: key });
    }
    expect(await status("v3-right")).toMatchObject({
      failures: 1,
      lastErrorKind: "other",
      lastError: expect.stringMatching(/^The SNMP secrets cannot be read: .*not the key it was saved with/),
    });
  });

  it("runs as the snmp ingest component when SNMP_POLL=on, reports its routers on the health check, and stops", async () => {
    const off = await startComponentsIfHost("app", stores, { env: {}, components: [snmpPoller] });
    expect(off?.names).toEqual([]);
    await off?.stop();
    const running = await startComponentsIfHost("app", stores, {
      env: { SNMP_POLL: "on", SNMP_POLL_INTERVAL: "60" },
      components: [snmpPoller],
    });
    expect(running?.names).toEqual(["snmp"]);
    // fra1-r1, v3-wrong and v3-right have SNMP settings; each waits for its offset before its first poll.
    expect(componentHealth()).toEqual({ snmp: { ok: true, detail: "3 routers, 0 polls (0 failed), 0 in flight" } });
    await stopRunningComponents();
    expect(componentHealth()).toEqual({});
  });
});
