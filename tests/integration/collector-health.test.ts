/**
 * checkCollectorHealth: staff (active, staff or superuser) are told once per silence of an
 * exporter that sent within a day, again only after it came back and fell silent anew; a decode
 * error jump above max(100, 1 % of the datagrams since the previous check) is told once per burst;
 * nothing is judged silent while no listener runs; what the previous check saw survives in
 * PostgreSQL. Time moves by the `now` handed in, the rows by direct updates.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { collectorExporters, collectorListeners, notifications, systemState, users } from "~db/postgres/schema";
import { checkCollectorHealth, COLLECTOR_HEALTH_KEY } from "~/features/collector/data-sources/collector-health.server";
import { createRouter } from "~/features/inventory/inventory.server";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

let stores: TestStores;
const ids = { superuser: 0, staff: 0, inactiveStaff: 0, user: 0 };
const T0 = new Date("2026-03-02T10:00:00Z").getTime();
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

async function insertUser(email: string, extra: Partial<typeof users.$inferInsert>) {
  const [row] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true, ...extra })
    .returning({ id: users.id });
  return row.id;
}

/** Titles each user got, in order. */
async function told(): Promise<Record<string, string[]>> {
  const rows = await stores.pg.db.select().from(notifications).orderBy(notifications.id);
  const byUser: Record<string, string[]> = {};
  for (const [name, id] of Object.entries(ids)) byUser[name] = rows.filter((r) => r.userId === id).map((r) => r.title);
  return byUser;
}
const superuserTitles = async () => (await told()).superuser;

async function heartbeat(minutes: number) {
  await stores.pg.db
    .insert(collectorListeners)
    .values({ component: "flows-netflow", address: "0.0.0.0:2055", host: "h", pid: 1, startedAt: at(-600), heartbeatAt: at(minutes) })
    .onConflictDoUpdate({
      target: [collectorListeners.component, collectorListeners.host, collectorListeners.pid],
      set: { heartbeatAt: at(minutes) },
    });
}

/** The exporter sent at `minutes`: last seen moves, counters add. */
async function sent(address: string, minutes: number, datagrams = 0, decodeErrors: Record<string, number> = {}) {
  const [row] = await stores.pg.db.select().from(collectorExporters).where(eq(collectorExporters.address, address));
  if (!row) {
    await stores.pg.db
      .insert(collectorExporters)
      .values({ address, protocol: "netflow9", firstSeen: at(minutes), lastSeen: at(minutes), datagrams, decodeErrors });
    return;
  }
  const errors = { ...row.decodeErrors };
  for (const [k, n] of Object.entries(decodeErrors)) errors[k] = (errors[k] ?? 0) + n;
  await stores.pg.db
    .update(collectorExporters)
    .set({ lastSeen: at(minutes), datagrams: row.datagrams + datagrams, decodeErrors: errors })
    .where(eq(collectorExporters.address, address));
}

/** A check at `minutes`, the listener alive. */
async function check(minutes: number) {
  await heartbeat(minutes);
  return checkCollectorHealth(stores, at(minutes));
}

beforeAll(async () => {
  stores = await openTestStores({ env: { FLOWS_SILENT_AFTER: "10" } });
  ids.superuser = await insertSuperuser(stores, "root@health.test");
  ids.staff = await insertUser("staff@health.test", { isStaff: true });
  ids.inactiveStaff = await insertUser("gone@health.test", { isStaff: true, isActive: false });
  ids.user = await insertUser("user@health.test", {});
  await createRouter(stores, {
    name: "fra1-r1",
    city: "Frankfurt",
    country: "Germany",
    loopback: "198.51.100.1",
    exporters: ["192.0.2.1"],
  });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

beforeEach(async () => {
  await stores.pg.db.delete(notifications);
  await stores.pg.db.delete(collectorExporters);
  await stores.pg.db.delete(collectorListeners);
  await stores.pg.db.delete(systemState).where(eq(systemState.key, COLLECTOR_HEALTH_KEY));
});

describe("silent exporters", () => {
  it("are told once per silence, to active staff and superusers only; again after they came back and fell silent anew", async () => {
    // ::ffff: spelling of the router's exporter address: named by the router.
    await sent("::ffff:192.0.2.1", 0, 10);
    expect((await check(5)).silent).toEqual([]);
    expect((await check(10)).silent).toEqual(["fra1-r1"]);
    expect(await told()).toEqual({
      superuser: ["Exporter fra1-r1 is silent"],
      staff: ["Exporter fra1-r1 is silent"],
      inactiveStaff: [],
      user: [],
    });
    const [n] = await stores.pg.db.select().from(notifications).where(eq(notifications.userId, ids.staff));
    expect(n.doPopUp).toBe(true);
    expect(n.message).toBe(
      "Nothing received from fra1-r1 (192.0.2.1) for 10 min (FLOWS_SILENT_AFTER is 10 minutes). See Site settings › Data sources.",
    );
    // Still silent: nothing new, over many checks.
    for (const minute of [11, 12, 30, 120]) expect((await check(minute)).silent).toEqual([]);
    expect(await superuserTitles()).toEqual(["Exporter fra1-r1 is silent"]);
    // Back: not silent while it sends.
    await sent("::ffff:192.0.2.1", 121, 5);
    const back = await check(122);
    expect(back.back).toEqual(["fra1-r1"]);
    expect(back.silent).toEqual([]);
    // Silent again: told again, once.
    expect((await check(131)).silent).toEqual(["fra1-r1"]);
    expect((await check(132)).silent).toEqual([]);
    expect(await superuserTitles()).toEqual(["Exporter fra1-r1 is silent", "Exporter fra1-r1 is silent"]);
  });

  it("an exporter unknown to the inventory is named by its address; one silent for more than a day is not told", async () => {
    await sent("203.0.113.5", 0, 1);
    await sent("203.0.113.6", -25 * 60, 1);
    expect((await check(15)).silent).toEqual(["203.0.113.5"]);
    expect(await superuserTitles()).toEqual(["Exporter 203.0.113.5 is silent"]);
  });

  it("a silence sent in one datagram apart is a new silence: told again", async () => {
    await sent("203.0.113.5", 0, 1);
    expect((await check(10)).silent).toEqual(["203.0.113.5"]);
    await sent("203.0.113.5", 12, 1);
    expect((await check(30)).silent).toEqual(["203.0.113.5"]);
    expect(await superuserTitles()).toHaveLength(2);
  });

  it("are not judged while no listener runs (nothing can arrive), nor told twice after the check's memory is read again", async () => {
    await sent("203.0.113.5", 0, 1);
    const outcome = await checkCollectorHealth(stores, at(20));
    expect(outcome).toMatchObject({ listening: false, silent: [] });
    expect((await check(21)).silent).toEqual(["203.0.113.5"]);
    // The memory is in PostgreSQL: a restarted process (a fresh call) does not repeat it.
    expect((await check(22)).silent).toEqual([]);
    const [state] = await stores.pg.db.select().from(systemState).where(eq(systemState.key, COLLECTOR_HEALTH_KEY));
    expect(state.value).toMatchObject({ exporters: { "203.0.113.5": { silenceOf: at(0).getTime() } } });
  });
});

describe("decode errors", () => {
  it("a jump above max(100, 1 % of the datagrams) is told once per burst, with the reasons as labels", async () => {
    await sent("192.0.2.1", 0, 1_000, { truncated: 5 });
    expect((await check(0.5)).decodeErrors).toEqual([]); // the first sight is the baseline
    await sent("192.0.2.1", 1, 1_000, { truncated: 100 });
    expect((await check(1.5)).decodeErrors).toEqual([]); // 100 is not more than 100
    await sent("192.0.2.1", 2, 50_000, { truncated: 400, "bad-record": 100 });
    expect((await check(2.5)).decodeErrors).toEqual([]); // 500 is not more than 1 % of 50,000
    await sent("192.0.2.1", 3, 1_000, { truncated: 150, "bad-template": 30 });
    expect((await check(3.5)).decodeErrors).toEqual(["fra1-r1"]);
    const rows = await stores.pg.db.select().from(notifications).where(eq(notifications.userId, ids.staff));
    expect(rows.map((r) => [r.title, r.message])).toEqual([
      [
        "Decode errors from fra1-r1",
        "180 decode errors from fra1-r1 (192.0.2.1) since the previous check, with 1,000 datagrams (Truncated datagram: 150, Malformed template: 30). See Site settings › Data sources.",
      ],
    ]);
    // The burst goes on: not told every minute.
    await sent("192.0.2.1", 4, 1_000, { truncated: 500 });
    expect((await check(4.5)).decodeErrors).toEqual([]);
    // Calm, then a new burst: told again.
    await sent("192.0.2.1", 5, 1_000, { truncated: 1 });
    expect((await check(5.5)).decodeErrors).toEqual([]);
    await sent("192.0.2.1", 6, 20_000, { "bad-set": 201 });
    expect((await check(6.5)).decodeErrors).toEqual(["fra1-r1"]);
    expect(await superuserTitles()).toEqual(["Decode errors from fra1-r1", "Decode errors from fra1-r1"]);
  });

  it("counters that went back are a new baseline, not a burst", async () => {
    await sent("192.0.2.1", 0, 10_000, { truncated: 5_000 });
    await check(0.5);
    await stores.pg.db.delete(collectorExporters);
    await sent("192.0.2.1", 1, 10, { truncated: 200 });
    expect((await check(1.5)).decodeErrors).toEqual([]);
  });

  it("elements skipped as not decoded and sampled frames that are not IP are no burst, however many; malformed ones are, and only they are named", async () => {
    await sent("192.0.2.1", 0, 1_000, { "unknown-element": 5 });
    await check(0.5);
    // Every record of a template with a vendor element skips it: 50,000 of them in 1,000 datagrams.
    await sent("192.0.2.1", 1, 1_000, { "unknown-element": 50_000, header_not_ip: 900 });
    expect((await check(1.5)).decodeErrors).toEqual([]);
    await sent("192.0.2.1", 2, 1_000, { "unknown-element": 50_000, "bad-element": 150 });
    expect((await check(2.5)).decodeErrors).toEqual(["fra1-r1"]);
    const rows = await stores.pg.db.select().from(notifications).where(eq(notifications.userId, ids.staff));
    expect(rows.map((r) => r.message)).toEqual([
      "150 decode errors from fra1-r1 (192.0.2.1) since the previous check, with 1,000 datagrams (Information element of a length it cannot have (skipped): 150). See Site settings › Data sources.",
    ]);
  });
});
