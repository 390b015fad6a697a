/**
 * Notifications the system makes by itself: who holds a permission (usersHoldingPermission), a new
 * applicant request told to every manager, account changes told to their owner (password set with a
 * reset link, 2FA device added or removed, recovery codes regenerated), build-out threshold
 * crossings told once per crossing, and flow / routing data that stops arriving told to staff once
 * per gap and once on its end. Time moves by the `now` handed in; the flows and routing rows are
 * inserted at times chosen by the test.
 */
import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  groupPermissions,
  groups,
  notifications,
  systemState,
  userGroups,
  userPermissions,
  userSettings,
  users,
} from "~db/postgres/schema";
import { confirmReset, issueResetToken } from "~/server/auth/password-reset.server";
import { confirmDevice, deleteDevice, generateKey, generateRecoveryCodes } from "~/server/auth/two-factor.server";
import { createUserRequest } from "~/server/auth/user-requests.server";
import { chCommand } from "~/server/clickhouse/query.server";
import { buildoutStateKey, notifyBuildoutThreshold, type BuildoutLink } from "~/server/notifications/buildout-threshold.server";
import { checkDataAvailability, DATA_AVAILABILITY_KEY } from "~/server/notifications/data-availability.server";
import { ACCOUNT_CHANGE_NOTICES, staffAndSuperusers, usersHoldingPermission } from "~/server/notifications/notifications.server";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

let stores: TestStores;
const ids = { superuser: 0, staff: 0, direct: 0, viaGroup: 0, inactive: 0, delegated: 0, plain: 0 };

async function insertUser(email: string, extra: Partial<typeof users.$inferInsert> = {}) {
  const [row] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "T", lastName: email.split("@")[0], passwordHash: "!unusable", hasConsented: true, ...extra })
    .returning({ id: users.id });
  return row.id;
}

/** Titles each named user got, in order. */
async function told(): Promise<Record<keyof typeof ids, string[]>> {
  const rows = await stores.pg.db.select().from(notifications).orderBy(notifications.id);
  const byUser = {} as Record<keyof typeof ids, string[]>;
  for (const [name, id] of Object.entries(ids)) byUser[name as keyof typeof ids] = rows.filter((r) => r.userId === id).map((r) => r.title);
  return byUser;
}
async function titlesOf(userId: number): Promise<string[]> {
  const rows = await stores.pg.db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(notifications.id);
  return rows.map((r) => r.title);
}

beforeAll(async () => {
  stores = await openTestStores({ env: { FLOWS_STALE_AFTER: "30", ROUTING_STALE_AFTER: "1440" } });
  ids.superuser = await insertSuperuser(stores, "root@notify.test");
  ids.staff = await insertUser("staff@notify.test", { isStaff: true });
  ids.direct = await insertUser("direct@notify.test");
  ids.viaGroup = await insertUser("group@notify.test");
  ids.inactive = await insertUser("inactive@notify.test", { isActive: false, isStaff: true });
  ids.delegated = await insertUser("delegated@notify.test", { isDelegated: true });
  ids.plain = await insertUser("plain@notify.test");
  const db = stores.pg.db;
  await db.insert(userPermissions).values([
    { userId: ids.direct, permission: "VIEW_USERS" },
    { userId: ids.inactive, permission: "VIEW_USERS" },
    { userId: ids.delegated, permission: "VIEW_USERS" },
    { userId: ids.plain, permission: "MANAGE_TAGS" },
  ]);
  const [group] = await db.insert(groups).values({ name: "user managers" }).returning({ id: groups.id });
  await db.insert(groupPermissions).values({ groupId: group.id, permission: "VIEW_USERS" });
  await db.insert(userGroups).values([
    { userId: ids.viaGroup, groupId: group.id },
    { userId: ids.delegated, groupId: group.id },
  ]);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

beforeEach(async () => {
  await stores.pg.db.delete(notifications);
});

describe("usersHoldingPermission", () => {
  it("finds active, non-delegated holders: directly, through a group, and superusers", async () => {
    expect(await usersHoldingPermission(stores.pg.db, "VIEW_USERS")).toEqual(
      [ids.superuser, ids.direct, ids.viaGroup].sort((a, b) => a - b),
    );
    expect(await usersHoldingPermission(stores.pg.db, "MANAGE_TAGS")).toEqual([ids.superuser, ids.plain].sort((a, b) => a - b));
    // Nobody holds it: only the superuser, who holds every permission.
    expect(await usersHoldingPermission(stores.pg.db, "MANAGE_DELEGATED_USERS")).toEqual([ids.superuser]);
  });

  it("staff and superusers: active and not delegated", async () => {
    expect(await staffAndSuperusers(stores.pg.db)).toEqual([ids.superuser, ids.staff].sort((a, b) => a - b));
  });
});

describe("applicant requests", () => {
  it("every manager is told the applicant's name and e-mail, with the way to the Users screen", async () => {
    const result = await createUserRequest(stores.pg.db, { email: "Ada@Example.org", first_name: "Ada", last_name: "Lovelace" });
    expect(result.ok).toBe(true);
    expect(await told()).toEqual({
      superuser: ["New user request: Ada Lovelace"],
      staff: [],
      direct: ["New user request: Ada Lovelace"],
      viaGroup: ["New user request: Ada Lovelace"],
      inactive: [],
      delegated: [],
      plain: [],
    });
    const [n] = await stores.pg.db.select().from(notifications).where(eq(notifications.userId, ids.direct));
    expect(n.message).toBe("Ada Lovelace (ada@example.org) asked for an account. Accept or reject the request under Users: /manage-users");
    expect(n.doPopUp).toBe(true);
  });

  it("a refused request tells nobody", async () => {
    const result = await createUserRequest(stores.pg.db, { email: "ada@example.org", first_name: "Ada", last_name: "Again" });
    expect(result.ok).toBe(false);
    expect(await stores.pg.db.select().from(notifications)).toEqual([]);
  });
});

describe("account changes", () => {
  const PASSWORD = "a-long-enough-passphrase";

  it("a password changed with a reset link is told to its owner; a first password (welcome link) is not", async () => {
    const owner = await insertUser("owner@notify.test", { passwordHash: "scrypt$old" });
    const token = await issueResetToken(stores.pg.db, owner);
    expect((await confirmReset(stores.pg.db, token, PASSWORD)).ok).toBe(true);
    expect(await titlesOf(owner)).toEqual([ACCOUNT_CHANGE_NOTICES.passwordChanged.title]);

    const newcomer = await insertUser("newcomer@notify.test", { passwordHash: null });
    const welcome = await issueResetToken(stores.pg.db, newcomer);
    expect((await confirmReset(stores.pg.db, welcome, PASSWORD)).ok).toBe(true);
    expect(await titlesOf(newcomer)).toEqual([]);
    // The same link again: refused, and nothing told.
    expect((await confirmReset(stores.pg.db, token, PASSWORD)).ok).toBe(false);
    expect(await titlesOf(owner)).toHaveLength(1);
  });

  it("2FA: a device confirmed, a confirmed device deleted and recovery codes regenerated are told; an unconfirmed enrolment deleted is not", async () => {
    const db = stores.pg.db;
    const owner = await insertUser("twofactor@notify.test");
    const changed = ACCOUNT_CHANGE_NOTICES.twoFactorChanged.title;
    const first = await generateKey(db, owner, "phone");
    await confirmDevice(db, owner, first.id, await generate({ secret: first.secret }));
    expect(await titlesOf(owner)).toEqual([changed]);
    await generateRecoveryCodes(db, owner);
    expect(await titlesOf(owner)).toEqual([changed, changed]);
    const second = await generateKey(db, owner, "tablet");
    await deleteDevice(db, owner, second.id);
    expect(await titlesOf(owner)).toEqual([changed, changed]);
    // 2FA is off (voluntary), so the last confirmed device may go.
    await deleteDevice(db, owner, first.id);
    expect(await titlesOf(owner)).toEqual([changed, changed, changed]);
    const [n] = await db.select().from(notifications).where(eq(notifications.userId, owner)).limit(1);
    expect(n.message).toBe(ACCOUNT_CHANGE_NOTICES.twoFactorChanged.message);
    expect(n.doPopUp).toBe(true);
  });
});

describe("build-out thresholds", () => {
  const link: BuildoutLink = { kind: "external", name: "et-0/0/1 (AS3320)", router: "fra1-r1" };
  let planner = 0;

  beforeAll(async () => {
    planner = await insertUser("planner@notify.test");
    // External links by days (90), internal links by percent (80).
    await stores.pg.db.insert(userSettings).values({ userId: planner, intlinksBuildoutType: "PERCENT", intlinksBuildoutThreshold: 80 });
  });
  beforeEach(async () => {
    await stores.pg.db.delete(systemState).where(eq(systemState.key, buildoutStateKey(planner)));
  });

  it("days: told once when the days left reach the threshold, again only after the link went back above it", async () => {
    const db = stores.pg.db;
    expect(await notifyBuildoutThreshold(db, planner, { ...link, daysLeft: 91 })).toBe("below");
    expect(await notifyBuildoutThreshold(db, planner, { ...link, daysLeft: 90 })).toBe("notified");
    expect(await notifyBuildoutThreshold(db, planner, { ...link, daysLeft: 60 })).toBe("already told");
    expect(await notifyBuildoutThreshold(db, planner, { ...link, daysLeft: 30.5 })).toBe("already told");
    const [n] = await db.select().from(notifications).where(eq(notifications.userId, planner));
    expect(n.title).toBe("Build-out due: et-0/0/1 (AS3320) on fra1-r1");
    expect(n.message).toBe("et-0/0/1 (AS3320) on fra1-r1 needs building out in 90 days (your threshold: 90 days). See the Border Planner.");
    // Another link crosses on its own.
    expect(await notifyBuildoutThreshold(db, planner, { ...link, router: "ber1-r1", daysLeft: 10 })).toBe("notified");
    // Back above (e.g. built out), then down again: a new crossing.
    expect(await notifyBuildoutThreshold(db, planner, { ...link, daysLeft: 400 })).toBe("below");
    expect(await notifyBuildoutThreshold(db, planner, { ...link, daysLeft: 400 })).toBe("below");
    expect(await notifyBuildoutThreshold(db, planner, { ...link, daysLeft: 20 })).toBe("notified");
    expect(await titlesOf(planner)).toEqual([
      "Build-out due: et-0/0/1 (AS3320) on fra1-r1",
      "Build-out due: et-0/0/1 (AS3320) on ber1-r1",
      "Build-out due: et-0/0/1 (AS3320) on fra1-r1",
    ]);
  });

  it("percent: the user's internal-link threshold; a figure of the other type does not count", async () => {
    const db = stores.pg.db;
    const core: BuildoutLink = { kind: "internal", name: "ae1", router: "fra1-r2" };
    expect(await notifyBuildoutThreshold(db, planner, { ...core, daysLeft: 1 })).toBe("no figure");
    expect(await notifyBuildoutThreshold(db, planner, { ...core, percent: 79.9 })).toBe("below");
    expect(await notifyBuildoutThreshold(db, planner, { ...core, percent: 85.25 })).toBe("notified");
    expect(await notifyBuildoutThreshold(db, planner, { ...core, percent: 99 })).toBe("already told");
    const rows = await db.select().from(notifications).where(eq(notifications.userId, planner));
    expect(rows.map((r) => [r.title, r.message])).toEqual([
      [
        "Build-out threshold reached: ae1 on fra1-r2",
        "ae1 on fra1-r2 is at 85.3 % utilisation (your threshold: 80 %). See the Core Planner.",
      ],
    ]);
    // A changed threshold while the link still crosses is a new crossing.
    await db.update(userSettings).set({ intlinksBuildoutThreshold: 90 }).where(eq(userSettings.userId, planner));
    expect(await notifyBuildoutThreshold(db, planner, { ...core, percent: 95 })).toBe("notified");
    await db.update(userSettings).set({ intlinksBuildoutThreshold: 80 }).where(eq(userSettings.userId, planner));
  });

  it("remembers across calls from another process: the state lives in PostgreSQL", async () => {
    const db = stores.pg.db;
    expect(await notifyBuildoutThreshold(db, planner, { ...link, daysLeft: 5 })).toBe("notified");
    const [state] = await db
      .select()
      .from(systemState)
      .where(eq(systemState.key, buildoutStateKey(planner)));
    expect(state.value).toEqual({ links: { "external|fra1-r1|et-0/0/1 (AS3320)": { type: "DAYS", threshold: 90 } } });
  });
});

describe("data availability", () => {
  // A 5-minute bucket start a few hours back (rows younger than the aggregates' TTL), and minutes after it.
  const T0 = Math.floor(Date.now() / 300_000) * 300_000 - 6 * 3_600_000;
  const at = (minutes: number) => new Date(T0 + minutes * 60_000);
  const unix = (minutes: number) => Math.floor((T0 + minutes * 60_000) / 1000);

  async function flowsAt(minutes: number) {
    await chCommand(stores.ch, {
      name: "test.flows",
      sql: "INSERT INTO flows_5m (time, bytes) VALUES (toDateTime({t:UInt32}, 'UTC'), 1000)",
      params: { t: unix(minutes) },
    });
  }
  async function ribAt(minutes: number) {
    await chCommand(stores.ch, {
      name: "test.rib",
      sql: "INSERT INTO rib_entries (timestamp, vantage_point, prefix, expire_at) VALUES (toDateTime({t:UInt32}, 'UTC'), 'vp1', '192.0.2.0/24', toDateTime('2100-01-01 00:00:00', 'UTC'))",
      params: { t: unix(minutes) },
    });
  }
  const check = (minutes: number) => checkDataAvailability(stores, at(minutes));
  const staffTitles = async () => {
    const t = await told();
    expect(t.staff).toEqual(t.superuser);
    return t.staff;
  };

  beforeAll(async () => {
    await chCommand(stores.ch, { name: "test.empty", sql: "TRUNCATE TABLE flows_5m" });
    await chCommand(stores.ch, { name: "test.empty", sql: "TRUNCATE TABLE rib_entries" });
    await stores.pg.db.delete(systemState).where(eq(systemState.key, DATA_AVAILABILITY_KEY));
  });

  it("an installation where no data ever arrived is not told anything", async () => {
    for (const minute of [0, 60, 6000]) expect(await check(minute)).toEqual({ stale: [], back: [] });
    expect(await stores.pg.db.select().from(notifications)).toEqual([]);
  });

  it("flows: told once when the newest bucket ends longer ago than FLOWS_STALE_AFTER, once more when data comes again", async () => {
    await flowsAt(0); // the bucket 0–5 min
    expect(await check(10)).toEqual({ stale: [], back: [] });
    expect(await check(34)).toEqual({ stale: [], back: [] });
    expect(await check(35)).toEqual({ stale: ["flows"], back: [] });
    for (const minute of [36, 60, 200]) expect(await check(minute)).toEqual({ stale: [], back: [] });
    expect(await staffTitles()).toEqual([`No new flow data since ${formatUtc(5)}`]);
    const t = await told();
    expect({ ...t, staff: [], superuser: [] }).toEqual({
      superuser: [],
      staff: [],
      direct: [],
      viaGroup: [],
      inactive: [],
      delegated: [],
      plain: [],
    });
    const [n] = await stores.pg.db.select().from(notifications).where(eq(notifications.userId, ids.staff));
    expect(n.message).toBe(
      "The newest flow data is 30 minutes old (FLOWS_STALE_AFTER is 30 minutes). See Site settings › Data sources: /site-settings/data-sources",
    );
    expect(n.doPopUp).toBe(true);

    // Data again: told once that it arrives, and the gap may be told anew later.
    await flowsAt(200);
    expect(await check(206)).toEqual({ stale: [], back: ["flows"] });
    expect(await check(207)).toEqual({ stale: [], back: [] });
    expect((await staffTitles()).slice(1)).toEqual(["Flow data arrives again"]);
    const [again] = await stores.pg.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, ids.staff))
      .orderBy(notifications.id)
      .offset(1);
    expect(again.message).toBe(`New flow data up to ${formatUtc(205)} arrived after the gap since ${formatUtc(5)}.`);
    expect(await check(235)).toEqual({ stale: ["flows"], back: [] });
    expect((await staffTitles()).slice(2)).toEqual([`No new flow data since ${formatUtc(205)}`]);
  });

  it("routing: judged only once a routing table was imported, against ROUTING_STALE_AFTER", async () => {
    await stores.pg.db.delete(notifications);
    await flowsAt(2000);
    expect(await check(2001)).toEqual({ stale: [], back: ["flows"] });
    await ribAt(2000);
    expect(await check(2000 + 1439)).toEqual({ stale: ["flows"], back: [] });
    expect(await check(2000 + 1440)).toEqual({ stale: ["routing"], back: [] });
    expect(await check(2000 + 1500)).toEqual({ stale: [], back: [] });
    await ribAt(3600);
    expect(await check(3601)).toEqual({ stale: [], back: ["routing"] });
    expect(await staffTitles()).toEqual([
      "Flow data arrives again",
      `No new flow data since ${formatUtc(2005)}`,
      `No new routing data since ${formatUtc(2000)}`,
      "Routing data arrives again",
    ]);
  });

  it("data that expired after a told gap is not told again; what was seen survives a restart (the state is in PostgreSQL)", async () => {
    await stores.pg.db.delete(notifications);
    await chCommand(stores.ch, { name: "test.empty", sql: "TRUNCATE TABLE flows_5m" });
    expect(await check(3700)).toEqual({ stale: [], back: [] });
    const [state] = await stores.pg.db.select().from(systemState).where(eq(systemState.key, DATA_AVAILABILITY_KEY));
    expect(state.value).toEqual({
      stores: {
        flows: { newest: at(2005).getTime(), toldStale: at(2005).getTime() },
        routing: { newest: at(3600).getTime(), toldStale: null },
      },
    });
    expect(await stores.pg.db.select().from(notifications)).toEqual([]);
  });

  it("times are written in each recipient's timezone", async () => {
    await stores.pg.db.delete(notifications);
    await stores.pg.db.delete(systemState).where(eq(systemState.key, DATA_AVAILABILITY_KEY));
    await chCommand(stores.ch, { name: "test.empty", sql: "TRUNCATE TABLE rib_entries" });
    await stores.pg.db.insert(userSettings).values({ userId: ids.staff, timezone: "Europe/Berlin" });
    await flowsAt(9000);
    expect(await check(9100)).toEqual({ stale: ["flows"], back: [] });
    const t = await told();
    expect(t.superuser).toEqual([`No new flow data since ${formatUtc(9005)}`]);
    expect(t.staff).toEqual([`No new flow data since ${formatZone(9005, "Europe/Berlin")}`]);
    expect(t.staff[0]).toMatch(/ Europe\/Berlin$/);
  });

  /** The long date format (dd.mm.yyyy hh:mm zone), computed here independently of the app's formatter. */
  function formatZone(minutes: number, timeZone: string) {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat("en-GB", {
        timeZone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      })
        .formatToParts(at(minutes))
        .map((p) => [p.type, p.value]),
    );
    return `${parts.day}.${parts.month}.${parts.year} ${parts.hour}:${parts.minute} ${timeZone}`;
  }
  function formatUtc(minutes: number) {
    return formatZone(minutes, "UTC");
  }
});
