/**
 * Ping and traceroute jobs through api/netcommand/ and api/netcommand/{jobId}/ on the test's
 * PostgreSQL (server or PGlite): a real ping to 127.0.0.1 run by the worker and polled by the
 * browser's client, the job states as stored, access (flag, public Looking Glass), ownership,
 * validation before anything is stored, the limits, and the reset of jobs whose server died.
 */
import { eq, sql } from "drizzle-orm";
import { spawnSync } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { findVantagePoint } from "~/features/routing/vantage-point-names";
import { listVantagePoints } from "~/features/routing/vantage-points.server";
import { featureFlags, netcommandJobs, siteSettings, userFeatureFlags, userPermissions, users, vantagePoints } from "~db/postgres/schema";
import {
  claimNextJob,
  createNetcommandJob,
  finishJob,
  MAX_ATTEMPTS,
  readNetcommandJob,
  resetStaleJobs,
  RETRY_DELAY_MS,
  STALE_AFTER_MS,
  STALE_FAILURE_TEXT,
  STALE_RETRY_TEXT,
  waitForJob,
  type JobOwner,
} from "~/features/netcommand/jobs.server";
import { NETCOMMAND_LIMITS } from "~/features/netcommand/limits.server";
import { NetcommandRunner } from "~/features/netcommand/runner.server";
import { NON_PUBLIC_TARGET_REFUSED, type NetcommandScope } from "~/features/netcommand/targets";
import { parseNetworkList } from "~/lib/ip";
import { createApiClient } from "~/lib/api-client";
import { MESSAGES } from "~/lib/messages";
import { runNetcommand, type NetcommandJob } from "~/lib/netcommand-client";
import * as createRoute from "~/routes/api.netcommand";
import * as jobRoute from "~/routes/api.netcommand.$jobId";
import { trustProxy } from "~/server/auth/session.server";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, CSRF_TOKEN, ORIGIN, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
/**
 * alice: staff with PRIVATE_LOOKING_GLASS (every vantage point; 127.0.0.0/8 allowed to staff below);
 * bob: PRIVATE_LOOKING_GLASS, not staff; dave: neither (a delegated user, say); carol: no flag.
 */
const ids = { alice: 0, bob: 0, carol: 0, dave: 0 };
const cookies = { alice: "", bob: "", carol: "", dave: "" };
const STAFF_RANGES = "127.0.0.0/8";
const ALICE_SCOPE: NetcommandScope = { vantagePoints: "all", allowedInternalRanges: parseNetworkList(STAFF_RANGES) };

const PING = (target = "127.0.0.1", networkElement = "lab-local") => ({
  networkElement,
  protocol: null,
  queryType: "PingQuery",
  sourceAddress: null,
  targetAddress: target,
});
const jobCount = async () => Number((await stores.pg.db.select({ n: sql<number>`count(*)` }).from(netcommandJobs))[0].n);
const stateOf = async (id: string) => (await stores.pg.db.select().from(netcommandJobs).where(eq(netcommandJobs.id, id)))[0];
const post = (body: unknown, cookie?: string, extra: { csrf?: boolean } = {}) =>
  callRoute(createRoute, "/api/netcommand/", { method: "POST", body, cookie, ...extra });
const get = (id: string, cookie?: string) => callRoute(jobRoute, `/api/netcommand/${id}/`, { cookie, params: { jobId: id } });

async function createUser(
  email: string,
  withFlag: boolean,
  options: { isStaff?: boolean; privateLookingGlass?: boolean } = {},
): Promise<number> {
  const [row] = await stores.pg.db
    .insert(users)
    .values({
      email,
      firstName: email,
      passwordHash: "unused",
      hasConsented: true,
      consentedAt: new Date(),
      isStaff: options.isStaff ?? false,
    })
    .returning({ id: users.id });
  if (withFlag) await stores.pg.db.insert(userFeatureFlags).values({ userId: row.id, flag: "canInvokeNetcommandApi" });
  if (options.privateLookingGlass)
    await stores.pg.db.insert(userPermissions).values({ userId: row.id, permission: "PRIVATE_LOOKING_GLASS" });
  return row.id;
}

async function setPublic(on: boolean) {
  await stores.pg.db.update(siteSettings).set({ publicLookingGlassEnabled: on }).where(eq(siteSettings.id, 1));
  await stores.pg.db.update(featureFlags).set({ enabledForAll: on }).where(eq(featureFlags.name, "canInvokeNetcommandApi"));
}

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  await stores.pg.db.insert(vantagePoints).values([
    { key: "lab-local", city: "Lab", country: "Nowhere", router: "lab-r1", ip: "192.0.2.1", isPublic: false },
    { key: "lab-public", city: "Zurich", country: "Switzerland", router: "zrh-r1", ip: "192.0.2.2", isPublic: true },
  ]);
  (stores.config as { NETCOMMAND_STAFF_ALLOWED_RANGES: unknown }).NETCOMMAND_STAFF_ALLOWED_RANGES = parseNetworkList(STAFF_RANGES);
  ids.alice = await createUser("alice@netcommand.test", true, { isStaff: true, privateLookingGlass: true });
  ids.bob = await createUser("bob@netcommand.test", true, { privateLookingGlass: true });
  ids.carol = await createUser("carol@netcommand.test", false);
  ids.dave = await createUser("dave@netcommand.test", true);
  for (const name of ["alice", "bob", "carol", "dave"] as const) cookies[name] = await sessionCookie(stores, ids[name]);
}, 120_000);

afterEach(async () => {
  // Each test starts without jobs (the limits count them) and with the public Looking Glass off.
  await stores.pg.db.delete(netcommandJobs);
  await setPublic(false);
  trustProxy(false);
});

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

function pingInstalled(): boolean {
  return spawnSync("ping", ["-V"], { stdio: "ignore" }).error === undefined;
}

describe("a ping to 127.0.0.1", () => {
  it("is created through the route, run by the worker and polled by the client until SUCCESS", async (ctx) => {
    if (!pingInstalled()) {
      const reason = "ping is not installed (Debian: apt-get install iputils-ping; npm test installs it when run as root)";
      if (process.env.CI === "true") throw new Error(reason);
      console.warn(`skipped: ${reason}`);
      ctx.skip();
    }
    const runner = new NetcommandRunner(stores, { pollIntervalMs: 100 }).start();
    try {
      // The browser's client, its fetch answered by the two route modules with alice's session.
      const client = createApiClient({
        fetch: async (url, init) => {
          const request = new Request(`${ORIGIN}${url}`, {
            ...init,
            headers: { ...(init.headers as Record<string, string>), Cookie: cookies.alice, "X-CSRFToken": CSRF_TOKEN },
          });
          const jobId = /^\/api\/netcommand\/([^/]+)\/$/.exec(url)?.[1];
          const module = jobId ? jobRoute : createRoute;
          const handler = (request.method === "GET" ? module.loader : module.action) as (a: unknown) => Promise<Response>;
          return handler({ request, params: jobId ? { jobId } : {}, context: {} });
        },
      });
      const seen: NetcommandJob[] = [];
      const outcome = await runNetcommand(
        client,
        { networkElement: "lab-local", queryType: "PingQuery", targetAddress: "127.0.0.1" },
        { pollIntervalMs: 200, onUpdate: (j) => seen.push(j) },
      );
      expect(outcome.status).toBe("Completed");
      const job = (outcome as { job: NetcommandJob }).job;
      expect(job.state, job.result).toBe("SUCCESS");
      expect(job.result).toContain("PING 127.0.0.1");
      expect(job.result).toMatch(/4 packets transmitted, 4 received, 0% packet loss/);
      expect(seen[0].state).toBe("PENDING");

      const [row] = await stores.pg.db.select().from(netcommandJobs);
      expect(row).toMatchObject({
        state: "SUCCESS",
        queryType: "PingQuery",
        vantagePoint: "lab-local",
        targetAddress: "127.0.0.1",
        ownerUserId: ids.alice,
        attempts: 1,
        workerId: runner.workerId,
      });
      expect(row.startedAt!.getTime()).toBeGreaterThanOrEqual(row.createdAt.getTime());
      expect(row.finishedAt!.getTime()).toBeGreaterThanOrEqual(row.startedAt!.getTime());
      expect(await readNetcommandJob(stores, row.id, { userId: ids.alice, visitor: null, clientAddress: "unknown" })).toEqual({
        state: "SUCCESS",
        result: row.result,
      });
    } finally {
      await runner.stop();
    }
  }, 60_000);
});

describe("which names pick a vantage point", () => {
  const owner = (): JobOwner => ({ userId: ids.alice, visitor: null, clientAddress: "unknown" });
  const jobFrom = async (networkElement: string, scope: NetcommandScope) => {
    const { jobID } = await createNetcommandJob(stores, {
      owner: owner(),
      scope,
      networkElement,
      queryType: "PingQuery",
      targetAddress: "8.8.8.8",
    });
    const { vantagePoint } = await stateOf(jobID);
    await stores.pg.db.delete(netcommandJobs); // the limits count unfinished jobs
    return vantagePoint;
  };

  it("the Looking Glass's rule: display name of the variant, key, router; each names one", async () => {
    const publicScope: NetcommandScope = { vantagePoints: "public", allowedInternalRanges: [] };
    // The private variant's display name is 'Router City, Country', the public one's 'City, Country'.
    expect(await jobFrom("lab-r1 Lab, Nowhere", ALICE_SCOPE)).toBe("lab-local");
    expect(await jobFrom("Zurich, Switzerland", publicScope)).toBe("lab-public");
    expect(await jobFrom("lab-local", ALICE_SCOPE)).toBe("lab-local");
    expect(await jobFrom("zrh-r1", publicScope)).toBe("lab-public");
    // The same names the Looking Glass resolves (one rule, one answer).
    const available = await listVantagePoints(stores, { variant: "private" });
    for (const name of ["lab-r1 Lab, Nowhere", "lab-local", "lab-r1", "zrh-r1 Zurich, Switzerland"])
      expect(await jobFrom(name, ALICE_SCOPE)).toBe(findVantagePoint(available, name)!.key);
    // A private vantage point is unknown to the public scope, whatever it is called.
    await expect(jobFrom("lab-r1", publicScope)).rejects.toThrow('Unknown vantage point "lab-r1".');
  });
});

describe("job states in PostgreSQL", () => {
  const alice = (): JobOwner => ({ userId: ids.alice, visitor: null, clientAddress: "unknown" });

  it("PENDING → STARTED → SUCCESS, each step written as it happens", async () => {
    const { jobID } = await createNetcommandJob(stores, {
      owner: alice(),
      scope: ALICE_SCOPE,
      networkElement: "lab-r1",
      queryType: "TRACEROUTE_QUERY",
      targetAddress: "2A00:1450::1",
    });
    expect(await stateOf(jobID)).toMatchObject({
      state: "PENDING",
      attempts: 0,
      vantagePoint: "lab-local",
      queryType: "TracerouteQuery",
      targetAddress: "2a00:1450::1",
      startedAt: null,
    });
    expect((await get(jobID, cookies.alice)).status).toBe(200);
    expect(await (await get(jobID, cookies.alice)).json()).toEqual({ state: "PENDING", result: "" });

    const claimed = (await claimNextJob(stores.pg.db, "worker-a"))!;
    expect(claimed.id).toBe(jobID);
    expect(await stateOf(jobID)).toMatchObject({ state: "STARTED", attempts: 1, workerId: "worker-a" });
    expect(await claimNextJob(stores.pg.db, "worker-b")).toBeNull();
    expect(await (await get(jobID, cookies.alice)).json()).toEqual({ state: "STARTED", result: "" });

    expect(await finishJob(stores.pg.db, claimed, { ok: true, output: " 1  2001:db8::1  0.1 ms\n" })).toBe("SUCCESS");
    expect(await stateOf(jobID)).toMatchObject({ state: "SUCCESS", result: " 1  2001:db8::1  0.1 ms\n" });
    expect(await (await get(jobID, cookies.alice)).json()).toEqual({ state: "SUCCESS", result: " 1  2001:db8::1  0.1 ms\n" });
    expect(await waitForJob(stores, jobID, 1_000)).toEqual({ state: "SUCCESS", result: " 1  2001:db8::1  0.1 ms\n" });
  });

  it("a transient failure is retried once after a delay, then the job fails with the reason", async () => {
    const { jobID } = await createNetcommandJob(stores, {
      owner: alice(),
      scope: ALICE_SCOPE,
      networkElement: "lab-local",
      queryType: "PingQuery",
      targetAddress: "9.9.9.9",
    });
    const first = (await claimNextJob(stores.pg.db, "worker-a"))!;
    const now = new Date();
    expect(await finishJob(stores.pg.db, first, { ok: false, message: "Could not connect to the router.", transient: true }, now)).toBe(
      "RETRY",
    );
    expect(await stateOf(jobID)).toMatchObject({ state: "RETRY", result: "Could not connect to the router." });
    expect(await (await get(jobID, cookies.alice)).json()).toEqual({ state: "RETRY", result: "Could not connect to the router." });
    expect(await claimNextJob(stores.pg.db, "worker-b", new Date(now.getTime() + RETRY_DELAY_MS - 100))).toBeNull();
    const second = (await claimNextJob(stores.pg.db, "worker-b", new Date(now.getTime() + RETRY_DELAY_MS + 100)))!;
    expect(second).toMatchObject({ id: jobID, attempts: MAX_ATTEMPTS, state: "STARTED", workerId: "worker-b" });
    // The first worker, late, can no longer write.
    await finishJob(stores.pg.db, first, { ok: true, output: "late" });
    expect((await stateOf(jobID)).state).toBe("STARTED");
    expect(await finishJob(stores.pg.db, second, { ok: false, message: "Could not connect to the router.", transient: true })).toBe(
      "FAILURE",
    );
    expect(await (await get(jobID, cookies.alice)).json()).toEqual({ state: "FAILURE", result: "Could not connect to the router." });
  });

  it("the worker stores a missing tool as FAILURE with what to install", async () => {
    const { jobID } = await createNetcommandJob(stores, {
      owner: alice(),
      scope: ALICE_SCOPE,
      networkElement: "lab-local",
      queryType: "PingQuery",
      targetAddress: "9.9.9.9",
    });
    const enoent = () => {
      throw Object.assign(new Error("spawn ping ENOENT"), { code: "ENOENT" });
    };
    const runner = new NetcommandRunner(stores, { pollIntervalMs: 50, spawn: enoent }).start();
    try {
      expect(await waitForJob(stores, jobID, 10_000, 50)).toEqual({
        state: "FAILURE",
        result: "ping is not installed on the server (install iputils-ping).",
      });
    } finally {
      await runner.stop();
    }
  });

  it("STARTED jobs of a server that died are run again once, then failed", async () => {
    const old = new Date(Date.now() - STALE_AFTER_MS - 60_000);
    const fresh = new Date(Date.now() - 10_000);
    const base = {
      queryType: "PingQuery" as const,
      vantagePoint: "lab-local",
      targetAddress: "9.9.9.9",
      ownerUserId: ids.alice,
      clientAddress: "unknown",
      state: "STARTED" as const,
      workerId: "dead",
    };
    const [once, twice, running] = await stores.pg.db
      .insert(netcommandJobs)
      .values([
        { ...base, attempts: 1, startedAt: old },
        { ...base, attempts: 2, startedAt: old },
        { ...base, attempts: 1, startedAt: fresh },
      ])
      .returning();
    expect(await resetStaleJobs(stores.pg.db)).toBe(2);
    expect(await stateOf(once.id)).toMatchObject({ state: "RETRY", result: STALE_RETRY_TEXT, workerId: null });
    expect(await stateOf(twice.id)).toMatchObject({ state: "FAILURE", result: STALE_FAILURE_TEXT });
    expect((await stateOf(running.id)).state).toBe("STARTED");
    expect((await claimNextJob(stores.pg.db, "worker-c"))!.id).toBe(once.id);
  });
});

describe("POST api/netcommand/ and GET api/netcommand/{jobId}/", () => {
  it("answers [{jobID}] and then {state, result} to the owner", async () => {
    const res = await post(PING(), cookies.alice);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual([{ jobID: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
    const poll = await get(body[0].jobID, cookies.alice);
    expect(poll.status).toBe(200);
    expect(await poll.json()).toEqual({ state: "PENDING", result: "" });
    // Legacy query type code and a router name for the vantage point.
    expect((await post({ ...PING("9.9.9.9", "lab-r1"), queryType: "TRACEROUTE_QUERY" }, cookies.alice)).status).toBe(200);
  });

  it("refuses callers without the flag (403) and anonymous callers while the public Looking Glass is off", async () => {
    const carol = await post(PING(), cookies.carol);
    expect(carol.status).toBe(403);
    expect(await carol.json()).toMatchObject({ exception_code: "permission_denied", detail: MESSAGES.permissionDenied });
    const anonymous = await post(PING("9.9.9.9", "lab-public"), `csrftoken=${CSRF_TOKEN}`);
    expect(anonymous.status).toBe(403);
    expect(await anonymous.json()).toMatchObject({ exception_code: "not_authenticated" });
    expect((await get("0b5c3f1e-8a4e-4c1e-9a55-2b1d6c1f0a11", cookies.carol)).status).toBe(403);
    expect((await post(PING(), cookies.alice, { csrf: false })).status).toBe(403);
    expect(await jobCount()).toBe(0);
  });

  it.each([
    ["an invalid target", PING("127.0.0.1; reboot"), "targetAddress", MESSAGES.invalidIpAddress],
    ["a prefix", PING("192.0.2.0/24"), "targetAddress", MESSAGES.invalidIpAddress],
    ["a host name", PING("localhost"), "targetAddress", MESSAGES.invalidIpAddress],
    ["no target", { networkElement: "lab-local", queryType: "PingQuery" }, "targetAddress", MESSAGES.invalidIpAddress],
    ["an unknown vantage point", PING("127.0.0.1", "nowhere"), "networkElement", 'Unknown vantage point "nowhere".'],
    [
      "a routing query type",
      { ...PING(), queryType: "AsPathQuery" },
      "queryType",
      'Unknown query type "AsPathQuery": use PingQuery or TracerouteQuery.',
    ],
    [
      "a source address",
      { ...PING(), sourceAddress: "192.0.2.1" },
      "sourceAddress",
      "sourceAddress must be null: the vantage point uses its own address.",
    ],
  ])("answers 400 for %s, and stores nothing", async (_name, body, field, message) => {
    const res = await post(body, cookies.alice);
    expect(res.status).toBe(400);
    const data = await res.json();
    expect(data.errors).toEqual([{ field, message }]);
    expect(await jobCount()).toBe(0);
  });

  it("answers 404 for another user's job, an unknown id and a malformed id", async () => {
    const { jobID } = (await (await post(PING(), cookies.alice)).json())[0];
    const bob = await get(jobID, cookies.bob);
    expect(bob.status).toBe(404);
    expect(await bob.json()).toEqual({ detail: "Job not found." });
    expect((await get("0b5c3f1e-8a4e-4c1e-9a55-2b1d6c1f0a11", cookies.alice)).status).toBe(404);
    expect((await get("not-a-uuid'--", cookies.alice)).status).toBe(404);
    expect((await get(jobID, cookies.alice)).status).toBe(200);
  });

  it("lets anonymous callers use public vantage points and public addresses while the public Looking Glass and the flag for everybody are on", async () => {
    await setPublic(true);
    const visitor = "csrftoken=visitor-token-0123456789abcdef";
    const res = await post(PING("9.9.9.9", "lab-public"), visitor, { csrf: false });
    expect(res.status).toBe(200);
    const { jobID } = (await res.json())[0];
    expect(await (await get(jobID, visitor)).json()).toEqual({ state: "PENDING", result: "" });
    // Another visitor, or a logged-in user of another account, learns nothing from the id.
    expect((await get(jobID, "csrftoken=another-visitor-0123456789abc")).status).toBe(404);
    expect((await get(jobID, cookies.alice)).status).toBe(404);
    // The same browser after logging in still reads it.
    expect((await get(jobID, cookies.alice.replace(`csrftoken=${CSRF_TOKEN}`, visitor))).status).toBe(200);

    const refused = await post(PING("127.0.0.1", "lab-public"), visitor, { csrf: false });
    expect(refused.status).toBe(400);
    expect((await refused.json()).detail).toBe(NON_PUBLIC_TARGET_REFUSED);
    const privateVp = await post(PING("9.9.9.9", "lab-local"), visitor, { csrf: false });
    expect(privateVp.status).toBe(400);
    expect((await privateVp.json()).detail).toBe('Unknown vantage point "lab-local".');

    // A client without the visitor cookie gets one with the job, and reads the job back with it.
    const bare = await post(PING("9.9.9.10", "lab-public"), undefined, { csrf: false });
    expect(bare.status).toBe(200);
    const cookie = bare.headers.get("Set-Cookie")!.split(";")[0];
    expect(cookie).toMatch(/^csrftoken=/);
    expect((await get((await bare.json())[0].jobID, cookie)).status).toBe(200);
    expect(await jobCount()).toBe(2);
  });

  it("limits the jobs a user runs at once and per 10 minutes (429 with Retry-After)", async () => {
    for (let i = 0; i < NETCOMMAND_LIMITS.perUser.running; i++) expect((await post(PING(), cookies.alice)).status).toBe(200);
    const busy = await post(PING(), cookies.alice);
    expect(busy.status).toBe(429);
    expect(busy.headers.get("Retry-After")).toBe(String(NETCOMMAND_LIMITS.runningRetryAfterSeconds));
    expect((await busy.json()).detail).toBe(
      "Too many network commands at once: at most 3 may run at the same time. Please try again when one has finished.",
    );
    // Bob is not affected by alice's jobs.
    expect((await post(PING("9.9.9.9"), cookies.bob)).status).toBe(200);

    // Finished jobs still count within the window: alice reaches 20 in 10 minutes.
    const created = new Date(Date.now() - 4 * 60_000);
    await stores.pg.db
      .update(netcommandJobs)
      .set({ state: "SUCCESS", createdAt: created })
      .where(eq(netcommandJobs.ownerUserId, ids.alice));
    const more = NETCOMMAND_LIMITS.perUser.perWindow - NETCOMMAND_LIMITS.perUser.running;
    await stores.pg.db.insert(netcommandJobs).values(
      Array.from({ length: more }, () => ({
        queryType: "PingQuery" as const,
        vantagePoint: "lab-local",
        targetAddress: "127.0.0.1",
        ownerUserId: ids.alice,
        clientAddress: "unknown",
        state: "SUCCESS" as const,
      })),
    );
    const full = await post(PING(), cookies.alice);
    expect(full.status).toBe(429);
    const retryAfter = Number(full.headers.get("Retry-After"));
    // The oldest job (4 minutes old) leaves the 10-minute window in about 6 minutes.
    expect(retryAfter).toBeGreaterThan(5 * 60);
    expect(retryAfter).toBeLessThanOrEqual(6 * 60);
    expect((await full.json()).detail).toBe(
      `Too many network commands: at most 20 in 10 minutes. Please try again in ${retryAfter} seconds.`,
    );
    expect(await jobCount()).toBe(NETCOMMAND_LIMITS.perUser.perWindow + 1);
  });

  it("limits anonymous callers per client address", async () => {
    await setPublic(true);
    trustProxy(true);
    const from = (address: string, i: number) =>
      createRoute.action({
        request: new Request(`${ORIGIN}/api/netcommand/`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Forwarded-For": address, Cookie: `csrftoken=visitor-${i}-0123456789abcdefgh` },
          body: JSON.stringify(PING(`9.9.9.${i + 1}`, "lab-public")),
        }),
        params: {},
        context: {},
      } as never);
    let accepted = 0;
    for (let i = 0; i < NETCOMMAND_LIMITS.perAddress.perWindow; i++) {
      const res = await from("203.0.113.5", i);
      expect(res.status).toBe(200);
      accepted++;
      // Finish each job, so only the per-window count applies.
      await stores.pg.db.update(netcommandJobs).set({ state: "SUCCESS" });
    }
    expect(accepted).toBe(10);
    const limited = await from("203.0.113.5", 99);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Cookies do not matter, the address does; another address is not affected.
    expect((await from("203.0.113.6", 100)).status).toBe(200);
  });
});

describe("what a caller may ping and trace, and from where", () => {
  const refusedTarget = async (res: Response) => {
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      detail: NON_PUBLIC_TARGET_REFUSED,
      errors: [{ field: "targetAddress", message: NON_PUBLIC_TARGET_REFUSED }],
    });
  };
  const INTERNAL = [
    "127.0.0.1",
    "10.0.0.1",
    "169.254.169.254",
    "64:ff9b::10.0.0.1",
    "2002:a00:1::1",
    "::10.0.0.1",
    "::ffff:169.254.169.254",
    "2001:0:a00:1::1",
    "198.51.100.7",
  ];

  it("a user with the flag but without PRIVATE_LOOKING_GLASS runs jobs from public vantage points only", async () => {
    const privateVp = await post(PING("9.9.9.9", "lab-local"), cookies.dave);
    expect(privateVp.status).toBe(400);
    expect(await privateVp.json()).toMatchObject({ errors: [{ field: "networkElement", message: 'Unknown vantage point "lab-local".' }] });
    expect((await post(PING("9.9.9.9", "lab-r1"), cookies.dave)).status).toBe(400);
    expect((await post(PING("9.9.9.9", "lab-public"), cookies.dave)).status).toBe(200);
    // With PRIVATE_LOOKING_GLASS the private vantage point is usable.
    expect((await post(PING("9.9.9.9", "lab-local"), cookies.bob)).status).toBe(200);
  });

  it.each(INTERNAL)("refuses %s to every caller but staff allowed the range, anonymous ones included", async (target) => {
    await refusedTarget(await post(PING(target, "lab-public"), cookies.dave));
    await refusedTarget(await post(PING(target, "lab-local"), cookies.bob));
    await setPublic(true);
    await refusedTarget(await post(PING(target, "lab-public"), "csrftoken=visitor-token-0123456789abcdef", { csrf: false }));
    expect(await jobCount()).toBe(0);
  });

  it("staff may target the configured internal ranges (here 127.0.0.0/8) and nothing else internal", async () => {
    expect((await post(PING("127.0.0.1", "lab-local"), cookies.alice)).status).toBe(200);
    expect((await post(PING("::ffff:127.0.0.2", "lab-local"), cookies.alice)).status).toBe(200);
    await refusedTarget(await post(PING("169.254.169.254", "lab-local"), cookies.alice));
    await refusedTarget(await post(PING("10.0.0.1", "lab-local"), cookies.alice));
  });

  it("an anonymous job is its browser's: a forged X-Forwarded-For of the creator's address reads nothing", async () => {
    await setPublic(true);
    trustProxy(true);
    const call = (method: "POST" | "GET", cookie: string, jobId?: string) => {
      const headers: Record<string, string> = { "Content-Type": "application/json", "X-Forwarded-For": "203.0.113.5", Cookie: cookie };
      const url = jobId ? `${ORIGIN}/api/netcommand/${jobId}/` : `${ORIGIN}/api/netcommand/`;
      const request = new Request(url, {
        method,
        headers,
        body: method === "POST" ? JSON.stringify(PING("9.9.9.9", "lab-public")) : undefined,
      });
      const module = jobId ? jobRoute : createRoute;
      return (method === "GET" ? module.loader : module.action)({
        request,
        params: jobId ? { jobId } : {},
        context: {},
      } as never) as Promise<Response>;
    };
    const created = await call("POST", "csrftoken=creator-token-0123456789abcdef");
    expect(created.status).toBe(200);
    const { jobID } = (await created.json())[0];
    expect((await call("GET", "csrftoken=creator-token-0123456789abcdef", jobID)).status).toBe(200);
    // Same (forged) address, another browser; and no cookie at all.
    expect((await call("GET", "csrftoken=attacker-token-0123456789abcdef", jobID)).status).toBe(404);
    expect((await call("GET", "", jobID)).status).toBe(404);
  });
});
