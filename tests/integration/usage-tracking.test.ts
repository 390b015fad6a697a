/**
 * Usage tracking: POST usertracking/interaction/ stores user, target and time for a user who gave
 * consent and nothing for one who has not (403 consent_required) or for a visitor; a URL with a query
 * is refused; a user is bounded per minute; the retention removes old events; the weekly report
 * counts events and distinct users per week and target; the browser's call resolves
 * {status: "error"} on failure without throwing.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageEvents, users } from "~db/postgres/schema";
import { trackInteraction } from "~/lib/usage-tracking";
import * as interaction from "~/routes/usertracking.interaction";
import { useServicesForTests } from "~/server/services.server";
import { USAGE_EVENTS_PER_MINUTE, pruneUsageEvents, usageLimiter, weeklyUsage } from "~/server/usage-tracking.server";
import { callRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
const ids = { consented: 0, other: 0, refusing: 0 };
const cookies = { consented: "", other: "", refusing: "" };

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const rows = await stores.pg.db
    .insert(users)
    .values([
      { email: "yes@example.org", passwordHash: "unused", hasConsented: true, consentedAt: new Date() },
      { email: "also@example.org", passwordHash: "unused", hasConsented: true, consentedAt: new Date() },
      { email: "no@example.org", passwordHash: "unused", hasConsented: false },
    ])
    .returning({ id: users.id });
  [ids.consented, ids.other, ids.refusing] = rows.map((r) => r.id);
  cookies.consented = await sessionCookie(stores, ids.consented);
  cookies.other = await sessionCookie(stores, ids.other);
  cookies.refusing = await sessionCookie(stores, ids.refusing);
}, 120_000);

afterAll(async () => {
  usageLimiter.clear();
  await stores?.dispose();
});

const track = (cookie: string | undefined, target: unknown) =>
  callRoute(interaction, "/usertracking/interaction/", { method: "POST", cookie, body: { target } });

describe("usage tracking", () => {
  it("stores user, target and time only with consent given", async () => {
    const before = Date.now();
    expect((await track(cookies.consented, "/flow-explorer")).status).toBe(200);
    const [row] = await stores.pg.db.select().from(usageEvents).where(eq(usageEvents.userId, ids.consented));
    expect(row.target).toBe("/flow-explorer");
    expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const refused = await track(cookies.refusing, "/flow-explorer");
    expect(refused.status).toBe(403);
    expect((await refused.json()).exception_code).toBe("consent_required");
    expect((await track(undefined, "/flow-explorer")).status).toBe(403);
    expect((await stores.pg.db.select().from(usageEvents)).map((r) => r.userId)).toEqual([ids.consented]);
  });

  it("takes a route path or a named action, never a URL with its query", async () => {
    expect((await track(cookies.consented, "flow-explorer.export")).status).toBe(200);
    for (const bad of ["/flow-explorer?src=10.0.0.1", "/rna#x", "https://evil.example/", "", "x".repeat(121), 42])
      expect([bad, (await track(cookies.consented, bad)).status]).toEqual([bad, 400]);
  });

  it("bounds the events of one user per minute", async () => {
    usageLimiter.clear();
    const statuses: number[] = [];
    for (let i = 0; i < USAGE_EVENTS_PER_MINUTE + 2; i++) statuses.push((await track(cookies.other, "/rna")).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(USAGE_EVENTS_PER_MINUTE);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    usageLimiter.clear();
  });

  it("reports events and distinct users per week, and forgets events past the retention", async () => {
    await stores.pg.db.delete(usageEvents);
    const at = (iso: string) => new Date(iso);
    await stores.pg.db.insert(usageEvents).values([
      { userId: ids.consented, target: "/rna", createdAt: at("2026-11-23T10:00:00Z") }, // Monday
      { userId: ids.consented, target: "/rna", createdAt: at("2026-11-29T23:00:00Z") }, // Sunday, same week
      { userId: ids.other, target: "/rna", createdAt: at("2026-11-25T10:00:00Z") },
      { userId: ids.other, target: "/links", createdAt: at("2026-11-30T00:30:00Z") }, // next Monday
      { userId: ids.other, target: "/links", createdAt: at("2026-08-01T00:00:00Z") }, // past 90 days by Dec 1
    ]);
    expect(await weeklyUsage(stores.pg.db, at("2026-11-01T00:00:00Z"))).toEqual([
      { week: "2026-11-30", target: "/links", events: 1, users: 1 },
      { week: "2026-11-23", target: "/rna", events: 3, users: 2 },
    ]);
    expect(await pruneUsageEvents(stores.pg.db, stores.config.USAGE_RETENTION_DAYS, at("2026-12-01T00:00:00Z"))).toBe(1);
    expect((await stores.pg.db.select().from(usageEvents)).length).toBe(4);
    expect(stores.config.USAGE_RETENTION_DAYS).toBe(90);
  });

  it("resolves the browser's call to {status: 'error'} when it fails, without throwing", async () => {
    expect(await trackInteraction("/rna", async () => new Response("{}", { status: 403 }))).toEqual({ status: "error" });
    expect(
      await trackInteraction("/rna", async () => {
        throw new TypeError("Failed to fetch");
      }),
    ).toEqual({ status: "error" });
    let sent: RequestInit | undefined;
    expect(
      await trackInteraction("/rna", async (_url, init) => {
        sent = init;
        return new Response('{"status":"ok"}', { status: 200 });
      }),
    ).toEqual({ status: "ok" });
    expect(JSON.parse(String(sent?.body))).toEqual({ target: "/rna" });
  });
});
