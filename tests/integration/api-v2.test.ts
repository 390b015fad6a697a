/**
 * The second client (api/v2/): a heavy call answered Started, then its result, equal to its api/
 * twin's answer; Failed results both ways; results/{id}/ and its 404s; one computation for ten
 * identical requests (counted at the query door); no sharing across restrictions or database
 * overrides; the per-user bound; a computation nobody asks for is cancelled; a row left by a
 * stopped process reads Failed.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ASES } from "~db/demo/catalog";
import { apiV2Results, delegationRestrictions, userPermissions, users } from "~db/postgres/schema";
import type { Permission } from "~/lib/permissions";
import { MESSAGES } from "~/lib/messages";
import * as flowsRoute from "~/routes/api.flows";
import * as sankeyRoute from "~/routes/api.sankey";
import * as v2Route from "~/routes/api.v2.$";
import {
  answerCall,
  INTERRUPTED_DETAIL,
  OWNER,
  abandonedDetail,
  outcomeOf,
  runningJobs,
  setJobTimingForTests,
  tick,
} from "~/features/api-v2/jobs.server";
import { resolvedQuery, resultKeyOf } from "~/features/api-v2/key.server";
import { dataRange } from "~/features/flows/data-range.server";
import { observeQueries } from "~/server/clickhouse/query.server";
import { runInRequestScope } from "~/server/request-scope.server";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, CSRF_TOKEN, ORIGIN, sessionCookie } from "../helpers/http";
import { openDemoStores } from "../helpers/demo-template";
import type { TestStores } from "../helpers/stores";
import { demoTestNow } from "../helpers/clock";

const DAY = 86_400;
const NOW = demoTestNow();
const RANGE = { start: NOW - DAY, end: NOW };
const TOP_CUSTOMER = DEMO_ASES.filter((a) => a.connection === "customer").sort((a, b) => b.weight - a.weight)[0].asn;

let stores: TestStores;
const uid = { admin: 0, full: 0, restricted: 0, restricted2: 0 };
const cookie = { admin: "", full: "", restricted: "", restricted2: "" };

async function createUser(email: string, permissions: Permission[], restricted: boolean) {
  const [row] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true, isDelegated: restricted })
    .returning({ id: users.id });
  await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
  if (restricted)
    await stores.pg.db.insert(delegationRestrictions).values({
      userId: row.id,
      flowsViewsRestrictions: [{ dimension: "AS_DST_INGRESS", constrained_values: [String(TOP_CUSTOMER)], output: "AS_SRC_INGRESS" }],
    });
  return row.id;
}

beforeAll(async () => {
  stores = await openDemoStores({ now: NOW, days: 2 });
  useServicesForTests(stores);
  const [admin] = await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@flowlens.example"));
  uid.admin = admin.id;
  uid.full = await createUser("full@v2.test", ["API_FLOWS_4D", "SANKEY_TOPOLOGY"], false);
  uid.restricted = await createUser("restricted@v2.test", ["API_FLOWS_4D", "SANKEY_TOPOLOGY"], true);
  uid.restricted2 = await createUser("restricted2@v2.test", ["API_FLOWS_4D", "SANKEY_TOPOLOGY"], true);
  for (const k of Object.keys(uid) as (keyof typeof uid)[]) cookie[k] = await sessionCookie(stores, uid[k]);
}, 300_000);

afterAll(async () => {
  setJobTimingForTests(null);
  await stores?.dispose();
}, 60_000);

afterEach(async () => {
  // Each test starts from an empty store (the computations of the last have finished or been cancelled).
  await expect.poll(() => runningJobs(), { timeout: 30_000 }).toBe(0);
  await stores.pg.db.delete(apiV2Results);
});

const flowsBody = (extra: Record<string, unknown> = {}) => ({
  dimension: "AS_SRC_INGRESS",
  startTimestamp: RANGE.start,
  endTimestamp: RANGE.end,
  window: 900,
  ...extra,
});

type Json = Record<string, unknown>;

async function send(
  call: string,
  who: keyof typeof cookie,
  body: unknown,
  method = "POST",
): Promise<{ status: number; data: Json; headers: Headers }> {
  const response = await callRoute(v2Route, `/api/v2/${call}`, { method, cookie: cookie[who], body, params: { "*": call } });
  return { status: response.status, data: (await response.json()) as Json, headers: response.headers };
}

/** Sends the call again until it is no longer Started (the second client's loop, without waits beyond 50 ms). */
async function until(call: string, who: keyof typeof cookie, body: unknown): Promise<{ status: number; data: Json; answers: Json[] }> {
  const answers: Json[] = [];
  for (let i = 0; i < 600; i++) {
    const { status, data } = await send(call, who, body);
    answers.push(data);
    if (data.status !== "Started") return { status, data, answers };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("still Started after 600 answers");
}

async function twin(route: typeof flowsRoute, path: string, who: keyof typeof cookie, body: unknown): Promise<Json> {
  const response = await callRoute(route, path, { method: "POST", cookie: cookie[who], body });
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

describe("api/v2/<call>", () => {
  it("answers Started with an id, then Started again, then the result: the api/ twin's answer", async () => {
    const body = flowsBody();
    const first = await send("flows/", "admin", body);
    expect(first.status).toBe(200);
    expect(first.data).toEqual({ status: "Started", id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });
    const done = await until("flows/", "admin", body);
    expect(done.status).toBe(200);
    // Every Started answer before the result names the same computation.
    for (const a of done.answers.slice(0, -1)) expect(a).toEqual({ status: "Started", id: first.data.id });
    const expected = await twin(flowsRoute, "/api/flows/", "admin", body);
    expect(done.data).toEqual(expected);
    expect((done.data.table as unknown[]).length).toBeGreaterThan(0);
    // The stored result by id, and the call answered at once now.
    const byId = await send(`results/${first.data.id as string}/`, "admin", undefined, "GET");
    expect([byId.status, byId.data]).toEqual([200, expected]);
    expect((await send("flows/", "admin", body)).data).toEqual(expected);
  });

  it("sankey/ too, with its twin's permission rule checked before anything starts", async () => {
    const body = { dimensions: ["AS_SRC_INGRESS", "AS_DST_INGRESS"], startTimestamp: RANGE.start, endTimestamp: RANGE.end };
    const done = await until("sankey/", "full", body);
    expect(done.data).toEqual(await twin(sankeyRoute as typeof flowsRoute, "/api/sankey/", "full", body));
    await stores.pg.db.delete(userPermissions).where(eq(userPermissions.userId, uid.full));
    await stores.pg.db.insert(userPermissions).values({ userId: uid.full, permission: "API_FLOWS_4D" });
    const refused = await send("sankey/", "full", { ...body, topN: 3 });
    expect(refused.status).toBe(403);
    expect(await stores.pg.db.select().from(apiV2Results)).toHaveLength(1);
    await stores.pg.db.insert(userPermissions).values({ userId: uid.full, permission: "SANKEY_TOPOLOGY" });
  });

  it("a bad body is the twin's 400 at once; unknown calls are 404", async () => {
    const bad = await send("flows/", "admin", { dimension: "AS_SRC_INGRESS" });
    expect(bad.status).toBe(400);
    expect(bad.data.detail).toBe("Invalid request body.");
    expect((await send("nothing/", "admin", {})).status).toBe(404);
    expect((await send("flows/export/", "admin", {})).status).toBe(404);
  });

  it("a Failed result the user can resolve: the handler's 400 with its reason, answered once", async () => {
    // A dimension the user holds no permission for passes the schema; the handler refuses it.
    const body = flowsBody({ dimension: "VRF_NAME" });
    const refused = await callRoute(flowsRoute, "/api/flows/", { method: "POST", cookie: cookie.full, body });
    expect(refused.status).toBe(400);
    const reason = (await refused.json()) as { detail: string; errors: { message: string }[] };
    const done = await until("flows/", "full", body);
    expect(done.data).toEqual({
      status: "Failed",
      id: done.answers[0].id,
      resolvable: true,
      detail: [reason.detail, ...reason.errors.map((e) => e.message)].join(" "),
    });
    // Answered once: the next request computes anew.
    expect((await send("flows/", "full", body)).data.status).toBe("Started");
  });

  it("Failed both ways from the handler's response: 4xx and busy codes resolvable, the rest internal", async () => {
    const config = stores.config;
    const user = await outcomeOf(
      { config },
      Response.json({ detail: "Invalid filters.", errors: [{ field: "f", message: "Unknown AS." }] }, { status: 400 }),
    );
    expect(user).toEqual({ state: "Failed", resolvable: true, detail: "Invalid filters. Unknown AS." });
    const broad = await outcomeOf({ config }, Response.json({ detail: "Narrow it.", exception_code: "query_too_broad" }, { status: 503 }));
    expect(broad).toMatchObject({ resolvable: true, detail: "Narrow it." });
    const internal = await outcomeOf({ config }, Response.json({ detail: "stack trace here" }, { status: 500 }));
    expect(internal).toEqual({ state: "Failed", resolvable: false, detail: MESSAGES.serverError });
    const timeout = await outcomeOf(
      { config },
      Response.json({ detail: MESSAGES.serverError, exception_code: "query_timeout" }, { status: 503 }),
    );
    expect(timeout.resolvable).toBe(false);
    // And an internal failure as the client reads it: a handler that throws.
    const key = `test-${randomBytes(4).toString("hex")}`;
    const first = await answerCall({
      services: stores,
      key,
      call: "flows/",
      userId: uid.admin,
      compute: async () => {
        throw new Error("boom");
      },
    });
    const id = ((await first.json()) as Json).id as string;
    await expect.poll(async () => (await send(`results/${id}/`, "admin", undefined, "GET")).data.status).toBe("Failed");
    expect((await send(`results/${id}/`, "admin", undefined, "GET")).data).toEqual({
      status: "Failed",
      id,
      resolvable: false,
      detail: MESSAGES.serverError,
    });
  });

  it("results/{id}/: 404 for any id that names no result, whatever its form; 403 without a session", async () => {
    for (const id of ["AAAAAAAAAAAAAAAAAAAAAA", "x", "../flows", "a/b", "%00", "é", "z".repeat(300), "1;DROP TABLE api_v2_results"]) {
      const response = await callRoute(v2Route, `/api/v2/results/${encodeURIComponent(id)}/`, {
        cookie: cookie.admin,
        params: { "*": `results/${id}/` },
      });
      expect([id, response.status]).toEqual([id, 404]);
    }
    const anonymous = await callRoute(v2Route, "/api/v2/results/x/", { params: { "*": "results/x/" } });
    expect(anonymous.status).toBe(403);
  });

  it("ten identical requests at once cost the queries of one computation", async () => {
    const names: string[] = [];
    // The queries of one api/flows/ answer (caches warmed by a first call).
    await twin(flowsRoute, "/api/flows/", "admin", flowsBody({ limit: 7 }));
    let stop = observeQueries((e) => names.push(e.name));
    await twin(flowsRoute, "/api/flows/", "admin", flowsBody({ limit: 8 }));
    stop();
    // The range lookup is cached apart (and read by the key's resolution): the computation's own reads are compared.
    const computed = (list: string[]) => list.filter((n) => n.startsWith("flows.") && n !== "flows.dataRange").sort();
    const one = computed(names);
    expect(one.length).toBeGreaterThan(0);
    names.length = 0;
    stop = observeQueries((e) => names.push(e.name));
    const body = flowsBody({ limit: 9 });
    const firsts = await Promise.all(Array.from({ length: 10 }, () => send("flows/", "admin", body)));
    const ids = new Set(firsts.map((f) => f.data.id));
    expect(ids.size).toBe(1);
    const results = await Promise.all(Array.from({ length: 10 }, () => until("flows/", "admin", body)));
    stop();
    for (const r of results) expect(r.data).toEqual(results[0].data);
    expect(computed(names)).toEqual(one);
  });

  it("never shares across restrictions: a delegated user, another one and a full user with the same body", async () => {
    const body = flowsBody({ limit: 5 });
    const [a, b, c] = await Promise.all([
      send("flows/", "admin", body),
      send("flows/", "restricted", body),
      send("flows/", "restricted2", body),
    ]);
    expect(new Set([a.data.id, b.data.id, c.data.id]).size).toBe(3);
    const restricted = await until("flows/", "restricted", body);
    expect(restricted.data).toEqual(await twin(flowsRoute, "/api/flows/", "restricted", body));
    const full = await until("flows/", "admin", body);
    expect(full.data).not.toEqual(restricted.data);
    await until("flows/", "restricted2", body);
  });

  it("the key is the resolved query: the restriction in force, the override, the version and the range's resolved end", async () => {
    const admin = (await stores.pg.db.select().from(users).where(eq(users.id, uid.admin)))[0];
    const context = { id: admin.id, isDelegated: false, permissions: ["API_FLOWS_4D"] } as never;
    const range = await dataRange(stores);
    const input = {
      call: "flows/",
      method: "POST",
      version: 17,
      query: {},
      body: flowsBody(),
      filters: [],
      dataEnd: range.maxTimestamp! + 300,
    };
    const base = await resultKeyOf(stores, context, input);
    expect(await resultKeyOf(stores, context, { ...input })).toBe(base);
    expect(await resultKeyOf(stores, context, { ...input, version: 16 })).not.toBe(base);
    // A new bucket of data is a new result for a range reaching it.
    const open = { ...input, body: flowsBody({ endTimestamp: RANGE.end + DAY }) };
    expect(await resultKeyOf(stores, context, { ...open, dataEnd: input.dataEnd + 300 })).not.toBe(
      await resultKeyOf(stores, context, open),
    );
    // Ends past the newest bucket with data resolve to the same end…
    const resolved = await resolvedQuery(stores, context, input);
    const later = await resolvedQuery(stores, context, { ...input, body: flowsBody({ endTimestamp: RANGE.end + DAY }) });
    expect(later.end).toBe(resolved.end);
    // …an earlier end does not.
    expect(await resultKeyOf(stores, context, { ...input, body: flowsBody({ endTimestamp: RANGE.end - 3600 }) })).not.toBe(base);
    // A database override (read from the request's user) is part of the key.
    await stores.pg.db.insert(userPermissions).values({ userId: admin.id, permission: "CLICKHOUSE_DIRECT_QUERY" }).onConflictDoNothing();
    await stores.pg.db.update(users).set({ overrideClickhouseDb: "flows_archive" }).where(eq(users.id, admin.id));
    const headers = { cookie: cookie.admin };
    const overridden = await runInRequestScope(headers, () => resultKeyOf(stores, context, input));
    await stores.pg.db.update(users).set({ overrideClickhouseDb: null }).where(eq(users.id, admin.id));
    const plain = await runInRequestScope(headers, () => resultKeyOf(stores, context, input));
    expect(plain).toBe(base);
    expect(overridden).not.toBe(base);
  });

  it("at most API_V2_PENDING_PER_USER pending computations per user: then 429 with Retry-After; joining stays free", async () => {
    const limit = stores.config.API_V2_PENDING_PER_USER;
    // Pending computations of the user on other replicas (their process stamps them).
    for (let i = 0; i < limit; i++)
      await stores.pg.db.insert(apiV2Results).values({
        id: `pending${i}`,
        key: `pending-${i}`,
        call: "flows/",
        userId: uid.full,
        owner: "other-replica",
        expiresAt: new Date(Date.now() + 600_000),
      });
    const refused = await send("flows/", "full", flowsBody({ limit: 3 }));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Another user is not bound by it, and the first user may join that user's computation.
    const other = await send("flows/", "admin", flowsBody({ limit: 3 }));
    expect(other.data.status).toBe("Started");
    await until("flows/", "admin", flowsBody({ limit: 3 }));
    await stores.pg.db.delete(apiV2Results).where(eq(apiV2Results.owner, "other-replica"));
  });

  it("a computation nobody asks for is cancelled: its signal aborts and its result reads Failed (resolvable)", async () => {
    setJobTimingForTests({ heartbeatMs: 100, staleMs: 1_000 });
    const saved = stores.config.API_V2_ABANDON_SECONDS;
    stores.config.API_V2_ABANDON_SECONDS = 1;
    try {
      let aborted = false;
      const first = await answerCall({
        services: stores,
        key: "never-asked",
        call: "flows/",
        userId: uid.admin,
        compute: (signal) =>
          new Promise<Response>((resolve) =>
            signal.addEventListener("abort", () => {
              aborted = true;
              resolve(Response.json({ late: true }));
            }),
          ),
      });
      const id = ((await first.json()) as Json).id as string;
      await new Promise((r) => setTimeout(r, 1_300));
      await tick();
      expect(aborted).toBe(true);
      const [row] = await stores.pg.db.select().from(apiV2Results).where(eq(apiV2Results.id, id));
      expect(row).toMatchObject({ state: "Failed", resolvable: true, detail: abandonedDetail(1) });
    } finally {
      stores.config.API_V2_ABANDON_SECONDS = saved;
      setJobTimingForTests(null);
    }
  });

  it("a computation whose process stopped reads Failed (resolvable) at the next poll, never Started forever", async () => {
    setJobTimingForTests({ heartbeatMs: 100, staleMs: 1_000 });
    try {
      await stores.pg.db.insert(apiV2Results).values({
        id: "orphan",
        key: "orphan-key",
        call: "flows/",
        userId: uid.admin,
        owner: `gone:${OWNER}`,
        heartbeatAt: new Date(Date.now() - 5_000),
        expiresAt: new Date(Date.now() + 600_000),
      });
      const polled = await send("results/orphan/", "admin", undefined, "GET");
      expect(polled.data).toEqual({ status: "Failed", id: "orphan", resolvable: true, detail: INTERRUPTED_DETAIL });
    } finally {
      setJobTimingForTests(null);
    }
  });
});

// The CSRF check of the twin applies to api/v2/ as well.
describe("api/v2/ and CSRF", () => {
  it("refuses a POST without the CSRF header like the twin", async () => {
    const response = await v2Route.action({
      request: new Request(`${ORIGIN}/api/v2/flows/`, {
        method: "POST",
        headers: { Cookie: cookie.admin, "Content-Type": "application/json", "X-CSRFToken": `${CSRF_TOKEN}-wrong` },
        body: JSON.stringify(flowsBody()),
      }),
      params: { "*": "flows/" },
      context: {},
    });
    expect(response.status).toBe(403);
  });
});
