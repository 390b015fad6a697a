/**
 * Ending a user's access (endUserAccess in account-admin.server.ts): what each reason ends, and
 * that every change that ends sessions — deactivating, deleting, a password set with a link,
 * a 2FA reset, "Log out everywhere" — ends exactly that, through the services that make the change.
 */
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTokens, netcommandJobs, passwordResetTokens, sessions, users } from "~db/postgres/schema";
import { ACCESS_ENDS, endUserAccess, JOB_CANCELLED_TEXT, type AccessEndReason } from "~/server/auth/account-admin.server";
import { checkResetToken, confirmReset, issueResetToken } from "~/server/auth/password-reset.server";
import { endUserSessions, resetTwoFactor, updateUser } from "~/server/auth/user-admin.server";
import { loadUserContext, type UserContext } from "~/server/auth/user-context.server";
import { sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
const db = () => stores.pg.db;
let serial = 0;
let admin: UserContext;

/** An account with an open session, an API token, an unfinished job and an unused reset link. */
async function accountWithAccess(): Promise<{ id: number; link: string }> {
  serial += 1;
  const [row] = await db()
    .insert(users)
    .values({ email: `access${serial}@end.test`, passwordHash: "!unusable", hasConsented: true })
    .returning({ id: users.id });
  await sessionCookie(stores, row.id);
  await db()
    .insert(apiTokens)
    .values({ userId: row.id, tokenHash: `end-access-${serial}`, name: "ci" });
  await db()
    .insert(netcommandJobs)
    .values({ queryType: "PingQuery", vantagePoint: "vp", targetAddress: "192.0.2.1", ownerUserId: row.id, clientAddress: "198.51.100.1" });
  return { id: row.id, link: await issueResetToken(db(), row.id) };
}

/** What of the account's access is left. */
async function leftOf(id: number, link: string) {
  const open = await db()
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, id), isNull(sessions.revokedAt)));
  const tokens = await db().select().from(apiTokens).where(eq(apiTokens.userId, id));
  const jobs = await db().select().from(netcommandJobs).where(eq(netcommandJobs.ownerUserId, id));
  const [resetLink] = await db().select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, id));
  return {
    sessions: open.length,
    apiTokens: tokens.length,
    jobRunning: jobs.some((j) => j.state === "PENDING"),
    resetLink: Boolean(resetLink && !resetLink.usedAt && (await checkResetToken(db(), link)) !== null),
  };
}

beforeAll(async () => {
  stores = await openTestStores();
  const [row] = await db()
    .insert(users)
    .values({ email: "root@end.test", passwordHash: "!unusable", isSuperuser: true, isStaff: true, hasConsented: true })
    .returning({ id: users.id });
  admin = (await loadUserContext(db(), row.id))!;
}, 180_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

describe("endUserAccess", () => {
  // The decision per reason, written out: sessions always end, the rest as the reason requires.
  const EXPECTED: Record<AccessEndReason, { apiTokens: boolean; jobs: boolean; resetLinks: boolean }> = {
    deactivated: { apiTokens: true, jobs: true, resetLinks: true },
    deleted: { apiTokens: true, jobs: true, resetLinks: true },
    emailChanged: { apiTokens: true, jobs: false, resetLinks: true },
    passwordSet: { apiTokens: false, jobs: false, resetLinks: false },
    twoFactorReset: { apiTokens: false, jobs: false, resetLinks: false },
    loggedOutEverywhere: { apiTokens: false, jobs: false, resetLinks: false },
  };

  it("ends the sessions and, per reason, the API tokens, unfinished jobs and unused reset links", async () => {
    expect(ACCESS_ENDS).toEqual(EXPECTED);
    for (const reason of Object.keys(EXPECTED) as AccessEndReason[]) {
      const { id, link } = await accountWithAccess();
      const ended = await db().transaction((tx) => endUserAccess(tx, id, reason));
      const ends = EXPECTED[reason];
      expect(ended, reason).toEqual({
        sessions: 1,
        tokens: ends.apiTokens ? 1 : 0,
        jobs: ends.jobs ? 1 : 0,
        resetLinks: ends.resetLinks ? 1 : 0,
      });
      expect(await leftOf(id, link), reason).toEqual({
        sessions: 0,
        apiTokens: ends.apiTokens ? 0 : 1,
        jobRunning: !ends.jobs,
        resetLink: !ends.resetLinks,
      });
      if (ends.jobs) {
        const [job] = await db().select().from(netcommandJobs).where(eq(netcommandJobs.ownerUserId, id));
        expect(job).toMatchObject({ state: "FAILURE", result: JOB_CANCELLED_TEXT });
      }
    }
  });
});

describe("the changes that end sessions", () => {
  it("deactivating ends everything, and a link mailed before does not work after reactivation", async () => {
    const { id, link } = await accountWithAccess();
    await updateUser(db(), admin, id, { is_active: false });
    await updateUser(db(), admin, id, { is_active: true });
    expect(await leftOf(id, link)).toEqual({ sessions: 0, apiTokens: 0, jobRunning: false, resetLink: false });
  });

  it("a 2FA reset and 'Log out everywhere' end the sessions only: integrations and jobs go on", async () => {
    for (const change of [resetTwoFactor, endUserSessions]) {
      const { id, link } = await accountWithAccess();
      await change(db(), admin, id);
      expect(await leftOf(id, link), change.name).toEqual({ sessions: 0, apiTokens: 1, jobRunning: true, resetLink: true });
    }
  });

  it("a password set with a reset link ends the other sessions; API tokens stay", async () => {
    const { id, link } = await accountWithAccess();
    expect(await confirmReset(db(), link, "a-good-long-password")).toEqual({ ok: true, userId: id });
    expect(await leftOf(id, link)).toEqual({ sessions: 0, apiTokens: 1, jobRunning: true, resetLink: false });
  });
});
