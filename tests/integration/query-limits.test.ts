/**
 * The query door on real stores: an analytics query past max_execution_time answers 503 with
 * Retry-After and the spec's server-error text, on a screen's loader (a thrown response the
 * error boundary shows) and on a JSON endpoint; a user over their own limit gets a fast 429.
 * Requests run inside a request scope, as server.mjs runs them.
 */
import { z } from "zod";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import * as flowsApi from "~/routes/api.flows";
import * as flowExplorer from "~/routes/_app.flow-explorer";
import { runInRequestScope } from "~/server/request-scope.server";
import { useServicesForTests } from "~/server/services.server";
import { demoTestNow } from "../helpers/clock";
import { getRequest, jsonRequest, runRoute, sessionCookie, type Outcome } from "../helpers/http";
import { openDemoStores } from "../helpers/demo-template";
import { type TestStores } from "../helpers/stores";
import { chQuery } from "~/server/clickhouse/query.server";

const NOW = demoTestNow();
const DAY = 86_400;

let stores: TestStores;
let cookie: string;

/** A loader or action as served: inside the request scope server.mjs gives every request. */
function served(fn: unknown, request: Request): Promise<Outcome> {
  return runInRequestScope(Object.fromEntries(request.headers), () => runRoute(fn, request));
}

beforeAll(async () => {
  // A limit no flows query can meet: every analytics query runs past it.
  stores = await openDemoStores({ now: NOW, days: 2, env: { QUERY_MAX_EXECUTION_SECONDS: "0.000001" } });
  useServicesForTests(stores);
  const [admin] = await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@flowlens.example"));
  cookie = await sessionCookie(stores, admin.id);
}, 300_000);

afterAll(async () => {
  await stores?.dispose();
});

describe("a query past max_execution_time", () => {
  it("answers 503 with Retry-After and the server-error text on the Flow Explorer screen", async () => {
    const outcome = await served(flowExplorer.loader, getRequest(`/flow-explorer?dimension=AS_SRC_INGRESS`, cookie));
    expect(outcome.status).toBe(503);
    expect(Number(outcome.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(outcome.data).toMatchObject({ detail: MESSAGES.serverError, exception_code: "query_timeout" });
  });

  it("answers 503 with Retry-After and a JSON error on api/flows/", async () => {
    const request = jsonRequest("/api/flows/", { dimension: "AS_SRC_INGRESS", startTimestamp: NOW - DAY, endTimestamp: NOW }, { cookie });
    const outcome = await served(flowsApi.action, request);
    expect(outcome.status).toBe(503);
    expect(outcome.headers.get("Content-Type")).toContain("application/json");
    expect(Number(outcome.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(outcome.data).toMatchObject({ detail: MESSAGES.serverError, exception_code: "query_timeout" });
  });

  it("leaves background work (outside a request) without a time limit", async () => {
    // chDB keeps a SET for the session: the request's limit must not stick to the next query.
    await served(
      flowsApi.action,
      jsonRequest("/api/flows/", { dimension: "AS_SRC_INGRESS", startTimestamp: NOW - DAY, endTimestamp: NOW }, { cookie }),
    );
    const [row] = await chQuery(stores.ch, {
      name: "test.count",
      sql: "SELECT toUInt64(count()) AS n FROM flows_5m",
      schema: z.object({ n: z.number() }),
    });
    expect(Number(row.n)).toBeGreaterThan(0);
  });
});

describe("a user over their own limit", () => {
  it("gets a fast 429 with Retry-After while their earlier queries hold the slots", async () => {
    const limiter = stores.ch.limiter!;
    const { perUser, queuePerUser } = limiter.settings;
    const [admin] = await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@flowlens.example"));
    // Queries of the earlier requests that were still queued when their request failed finish first.
    for (let i = 0; i < 500 && (limiter.snapshot().running > 0 || limiter.snapshot().waiting > 0); i++)
      await new Promise((r) => setTimeout(r, 20));
    // Hold the admin's slots and queue places with queries that do not finish during the test.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const holders = Array.from({ length: perUser + queuePerUser }, () => limiter.run(`user:${admin.id}`, () => gate));
    try {
      const request = jsonRequest("/api/flows/", { dimension: "AS_SRC_INGRESS", startTimestamp: NOW - DAY, endTimestamp: NOW }, { cookie });
      const outcome = await served(flowsApi.action, request);
      expect(outcome.status).toBe(429);
      expect(Number(outcome.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
      // 429 and not a wait: the held queries never finish during the test, so a queued request could only end in 503.
      expect(outcome.data.exception_code).toBe("too_many_queries");
    } finally {
      open();
      await Promise.allSettled(holders);
    }
  });
});
