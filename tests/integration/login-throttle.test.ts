/**
 * Login throttling and bounded hashing: guesses are counted before they are checked, failures lock
 * out the client that makes them (not the account), and anonymous floods get a quick 429/503 with
 * Retry-After while hashing never blocks the event loop.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { loginAttempts, users } from "~db/postgres/schema";
import * as loginApi from "~/routes/auth.login";
import * as loginPage from "~/routes/login";
import { PEER_ADDRESS_HEADER } from "~/server/auth/client-address.server";
import { accountBackoffMs, THROTTLE } from "~/server/auth/throttle.server";
import * as passwords from "~/server/password.server";
import { HASHING, hashPassword } from "~/server/password.server";
import { useServicesForTests } from "~/server/services.server";
import { formRequest, jsonRequest, runRoute } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
const PASSWORD = "throttle-password-1";

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  await stores.pg.db.insert(users).values([
    { email: "victim@throttle.test", passwordHash: await hashPassword(PASSWORD), hasConsented: true },
    { email: "other@throttle.test", passwordHash: await hashPassword(PASSWORD), hasConsented: true },
  ]);
}, 120_000);
afterAll(() => stores?.dispose(), 60_000);
afterEach(async () => {
  vi.restoreAllMocks();
  await stores.pg.db.delete(loginAttempts);
});

function login(email: string, password: string, from: string) {
  const request = jsonRequest("/auth/login/", { email, password });
  request.headers.set(PEER_ADDRESS_HEADER, from);
  return runRoute(loginApi.action, request);
}

describe("login throttling", () => {
  it("50 parallel wrong guesses from one client: at most the limit are checked, the rest 429 with Retry-After", async () => {
    const verify = vi.spyOn(passwords, "verifyPassword");
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => login("victim@throttle.test", `guess-${i}`, "203.0.113.9")));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(THROTTLE.perAccountAndClient);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(verify.mock.calls.length).toBeLessThanOrEqual(THROTTLE.perAccountAndClient);
    const refused = answers.find((a) => a.status === 429)!;
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(THROTTLE.windowMs / 1000 - 60);
    expect(retryAfter).toBeLessThanOrEqual(THROTTLE.windowMs / 1000);
    expect(refused.data.detail).toBe("Too many failed login attempts. Please wait 15 minutes and try again.");
    // Refused attempts were not kept: only the checked ones count.
    const rows = await stores.pg.db.select().from(loginAttempts).where(eq(loginAttempts.email, "victim@throttle.test"));
    expect(rows.length).toBe(statuses.filter((s) => s === 401).length);
    // Once the limit is reached, the right password from that client waits too.
    for (let i = rows.length; i < THROTTLE.perAccountAndClient; i++)
      expect((await login("victim@throttle.test", `more-${i}`, "203.0.113.9")).status).toBe(401);
    expect((await login("victim@throttle.test", PASSWORD, "203.0.113.9")).status).toBe(429);
  });

  it("after other clients' failures the right password from a fresh client still logs in (slowed, never locked)", async () => {
    for (let client = 0; client < 3; client++) {
      for (let i = 0; i < THROTTLE.perAccountAndClient; i++)
        expect((await login("victim@throttle.test", `wrong-${i}`, `198.51.100.${client + 1}`)).status).toBe(401);
      expect((await login("victim@throttle.test", PASSWORD, `198.51.100.${client + 1}`)).status).toBe(429);
    }
    const failures = 3 * THROTTLE.perAccountAndClient;
    expect(accountBackoffMs(failures)).toBeGreaterThan(0);
    const started = performance.now();
    const fresh = await login("victim@throttle.test", PASSWORD, "192.0.2.77");
    expect(fresh.status).toBe(200);
    expect(fresh.data).toEqual({ status: "LOGGED_IN" });
    // The account-wide back-off slowed it by at least its delay.
    expect(performance.now() - started).toBeGreaterThanOrEqual(accountBackoffMs(failures) - 10);
    // The page form logs in the same way.
    const page = formRequest("/login", { email: "victim@throttle.test", password: PASSWORD });
    page.headers.set(PEER_ADDRESS_HEADER, "192.0.2.78");
    expect((await runRoute(loginPage.action, page)).status).toBe(302);
  });

  it("limits one client's failures over all accounts, unknown addresses included", async () => {
    for (let i = 0; i < THROTTLE.perClient; i++) {
      expect((await login(`nobody-${i}@throttle.test`, "x", "203.0.113.200")).status).toBe(401);
    }
    const next = await login("other@throttle.test", PASSWORD, "203.0.113.200");
    expect(next.status).toBe(429);
    expect(Number(next.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await login("other@throttle.test", PASSWORD, "203.0.113.201")).status).toBe(200);
  }, 60_000);
});

describe("bounded hashing", () => {
  it(`runs at most ${HASHING.concurrent} hashes at a time, refuses a flood beyond the queue with 503 + Retry-After, and keeps the event loop free`, async () => {
    let maxRunning = 0;
    const sampler = setInterval(() => (maxRunning = Math.max(maxRunning, passwords.hashingLoad().running)), 5);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => login(`ghost-${i}@throttle.test`, "x", `192.0.2.${100 + i}`)));
    clearInterval(sampler);
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 401 && s !== 503)).toEqual([]);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(HASHING.anonymousQueue);
    const busy = answers.find((a) => a.status === 503)!;
    expect(busy.headers.get("Retry-After")).toBe(String(HASHING.retryAfterSeconds));
    expect(busy.data.detail).toBe("The server is busy checking other logins. Please try again in a few seconds.");
    expect(maxRunning).toBeGreaterThan(0);
    expect(maxRunning).toBeLessThanOrEqual(HASHING.concurrent);
  }, 60_000);

  it("hashes on the thread pool: the event loop turns while a password check runs", async () => {
    const stored = await hashPassword("some-password");
    // Were scrypt run on the event loop, the check would finish (and its continuation queue) before
    // the loop reached its check phase; on the thread pool the loop turns first. Order, not time.
    const order: string[] = [];
    const checks = Array.from({ length: 8 }, () => passwords.verifyPassword("x", stored).then(() => order.push("check")));
    setImmediate(() => order.push("loop"));
    await Promise.all(checks);
    expect(order[0]).toBe("loop");
    expect(order.filter((o) => o === "check")).toHaveLength(8);
  });
});
