/**
 * The RPKI to Router client against a cache the test runs (tests/helpers/rtr-cache.ts) on a port
 * of its own: the whole set on a Reset Query, serial updates with withdrawals on a Serial Notify,
 * Cache Reset, a malformed PDU (Error Report, closed, connected again), duplicate announcements and
 * unknown withdrawals, the fallback to version 0, No Data Available, expiry, and a restart that
 * resumes the session. What counts is what reaches PostgreSQL and the ROA index.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { rpkiSources, rpkiVrps } from "~db/postgres/schema";
import { DEFAULT_RTR_SETTINGS, rpkiRtr, RtrClient, type RtrSettings } from "~/features/routing/rpki/rtr-client.server";
import { encodePrefix, encodeRouterKey, RTR_ERROR } from "~/features/routing/rpki/rtr-pdu";
import { currentRoaIndex } from "~/features/routing/rpki/vrp-store.server";
import { componentEnv } from "~/server/components/contract.server";
import { ConfigError } from "~/server/env.server";
import { TestRtrCache, type CacheVrp } from "../helpers/rtr-cache";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
const clients: RtrClient[] = [];
const caches: TestRtrCache[] = [];
const logs: string[] = [];

const log = {
  debug: () => {},
  info: (m: string) => logs.push(`info ${m}`),
  warn: (m: string) => logs.push(`warn ${m}`),
  error: (m: string) => logs.push(`error ${m}`),
};

const INITIAL: CacheVrp[] = [
  { prefix: "192.0.2.0/24", maxLength: 24, asn: 64500 },
  { prefix: "198.51.100.0/22", maxLength: 24, asn: 64501 },
  { prefix: "203.0.113.0/24", maxLength: 24, asn: 0 },
  { prefix: "2001:db8::/32", maxLength: 48, asn: 64510 },
  { prefix: "2001:db8:ff00::/40", maxLength: 40, asn: 64511 },
];

const text = (v: { prefix: string; maxLength: number; asn: number }) => `${v.prefix} ${v.maxLength} ${v.asn}`;

async function storedRtr(): Promise<string[]> {
  const rows = await stores.pg.db.select().from(rpkiVrps).where(eq(rpkiVrps.source, "rtr"));
  return rows.map(text).sort();
}

async function source() {
  const [row] = await stores.pg.db.select().from(rpkiSources).where(eq(rpkiSources.source, "rtr"));
  return row;
}

/** Polls until `check` holds (each try up to 20 ms apart); the test's own time-out bounds the wait. */
async function until(check: () => boolean | Promise<boolean>, what: string, tries = 500): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`gave up waiting: ${what}\n${logs.slice(-10).join("\n")}`);
}

async function startCache(initial = INITIAL) {
  const cache = await TestRtrCache.start(initial);
  caches.push(cache);
  return cache;
}

async function startClient(cache: TestRtrCache, settings: Partial<RtrSettings> = {}) {
  const client = new RtrClient(
    stores,
    {
      host: "127.0.0.1",
      port: cache.port,
      ...DEFAULT_RTR_SETTINGS,
      minBackoffMs: 20,
      maxBackoffMs: 100,
      expiryCheckMs: 50,
      ...settings,
    },
    log,
  );
  clients.push(client);
  await client.start();
  return client;
}

const sameAsCache = (cache: TestRtrCache) => async () =>
  JSON.stringify(await storedRtr()) === JSON.stringify([...cache.vrps.values()].map(text).sort());

beforeAll(async () => {
  stores = await openTestStores();
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.stop();
  for (const cache of caches.splice(0)) await cache.close();
  // Each test starts from no RTR data.
  await stores.pg.db.delete(rpkiVrps);
  await stores.pg.db.delete(rpkiSources);
  logs.length = 0;
});

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

describe("RTR client", () => {
  it("loads the whole set with a Reset Query (version 1), skipping Router Key PDUs, and validates with it", async () => {
    const cache = await startCache();
    cache.extraPdus = [encodeRouterKey(1, 64496, Buffer.alloc(91, 7))];
    cache.intervals = { refresh: 900, retry: 300, expire: 3600 };
    const client = await startClient(cache);
    await until(sameAsCache(cache), "the cache's set in rpki_vrps");
    expect(cache.queries()).toEqual(["reset v1"]);
    expect(await source()).toMatchObject({
      cache: `127.0.0.1:${cache.port}`,
      sessionId: 4242,
      serial: 1,
      protocolVersion: 1,
      refreshSeconds: 900,
      retrySeconds: 300,
      expireSeconds: 3600,
      vrpCount: 5,
      connected: true,
    });
    expect(client.health()).toMatchObject({ ok: true });
    const index = await currentRoaIndex(stores);
    expect(index?.validatePrefix("198.51.101.0/24", 64501)).toBe("valid");
    expect(index?.validatePrefix("203.0.113.0/24", 64500)).toBe("invalid");
    expect(index?.validatePrefix("2001:db8:ff00::/44", 64511)).toBe("invalid");
    expect(cache.errorReports()).toEqual([]);
  });

  it("a Serial Notify brings the changes since its serial: withdrawals and announcements, in one write", async () => {
    const cache = await startCache();
    await startClient(cache);
    await until(sameAsCache(cache), "the first set");
    const generation = (await source()).generation;
    cache.update({ withdraw: [INITIAL[0], INITIAL[3]], announce: [{ prefix: "192.0.2.0/25", maxLength: 25, asn: 64500 }] });
    cache.update({ announce: [{ prefix: "2001:db8:1::/48", maxLength: 48, asn: 64512 }] });
    cache.notify();
    await until(async () => (await source()).serial === 3, "serial 3 stored");
    expect(await storedRtr()).toEqual([...cache.vrps.values()].map(text).sort());
    expect(cache.queries()).toEqual(["reset v1", "serial v1 4242 1"]);
    expect((await source()).generation).toBe(generation + 1);
    const index = await currentRoaIndex(stores);
    expect(index?.validatePrefix("192.0.2.0/24", 64500)).toBe("not-found");
    expect(index?.validatePrefix("192.0.2.0/25", 64500)).toBe("valid");
    expect(index?.validatePrefix("2001:db8:1::/48", 64512)).toBe("valid");
  });

  it("answers a Cache Reset with a Reset Query and replaces the set", async () => {
    const cache = await startCache();
    await startClient(cache);
    await until(sameAsCache(cache), "the first set");
    cache.update({ withdraw: [INITIAL[1]], announce: [{ prefix: "10.0.0.0/8", maxLength: 8, asn: 64520 }] });
    cache.forgetHistory();
    cache.notify();
    await until(async () => (await source()).serial === 2, "serial 2 stored");
    expect(cache.queries()).toEqual(["reset v1", "serial v1 4242 1", "reset v1"]);
    expect(await storedRtr()).toEqual([...cache.vrps.values()].map(text).sort());
  });

  it("a malformed PDU is answered with an Error Report; the connection is opened again and the set kept meanwhile", async () => {
    const cache = await startCache();
    await startClient(cache);
    await until(sameAsCache(cache), "the first set");
    cache.sendRaw(Buffer.from("01630000" + "00000008", "hex"));
    await until(() => cache.errorReports().length === 1, "an Error Report");
    expect(cache.errorReports()[0]).toMatchObject({
      code: RTR_ERROR.UNSUPPORTED_PDU_TYPE,
      text: "malformed PDU: PDU type 99 is not one of RFC 8210",
    });
    // Still there while the client reconnects.
    expect(await storedRtr()).toHaveLength(5);
    await until(() => cache.connections === 2 && cache.queries().length === 2, "a second session");
    // After a protocol error the next session starts from the whole set.
    expect(cache.queries()).toEqual(["reset v1", "reset v1"]);
    await until(async () => (await source()).connected && (await storedRtr()).length === 5, "loaded again");
    expect((await source()).lastError).toContain("PDU type 99");
    expect(logs.some((l) => l.startsWith("warn") && l.includes("PDU type 99"))).toBe(true);
  });

  it("a truncated stream of garbage (an impossible length) ends the session the same way", async () => {
    const cache = await startCache();
    await startClient(cache);
    await until(sameAsCache(cache), "the first set");
    cache.sendRaw(Buffer.from("0104000000000003deadbeef", "hex"));
    await until(() => cache.errorReports().length === 1, "an Error Report");
    expect(cache.errorReports()[0].code).toBe(RTR_ERROR.CORRUPT_DATA);
    await until(() => cache.connections === 2, "a new connection");
    await until(sameAsCache(cache), "the set again");
  });

  it("refuses a duplicate announcement (7) and a withdrawal of an unknown VRP (6); nothing of those answers is stored", async () => {
    const cache = await startCache();
    await startClient(cache);
    await until(sameAsCache(cache), "the first set");
    cache.serial = 2;
    cache.nextSerialAnswer = [encodePrefix(1, true, "10.9.0.0/16", 16, 1), encodePrefix(1, true, INITIAL[0].prefix, 24, 64500)];
    cache.notify();
    await until(() => cache.errorReports().length === 1, "the first Error Report");
    expect(cache.errorReports()[0]).toMatchObject({ code: RTR_ERROR.DUPLICATE_ANNOUNCEMENT });
    await until(() => cache.queries().length === 3, "the session after it");
    expect(cache.queries()).toEqual(["reset v1", "serial v1 4242 1", "reset v1"]);
    await until(async () => (await source()).serial === 2, "serial 2 from the reset");
    expect(await storedRtr()).not.toContain("10.9.0.0/16 16 1");

    cache.serial = 3;
    cache.nextSerialAnswer = [encodePrefix(1, false, "10.8.0.0/16", 16, 1)];
    cache.notify();
    await until(() => cache.errorReports().length === 2, "the second Error Report");
    expect(cache.errorReports()[1]).toMatchObject({ code: RTR_ERROR.WITHDRAWAL_OF_UNKNOWN_RECORD });
    await until(async () => (await source()).serial === 3, "serial 3 from the reset");
    expect(await storedRtr()).toEqual([...cache.vrps.values()].map(text).sort());
  });

  it("falls back to version 0 when the cache answers Unsupported Protocol Version, with the RFC's default intervals", async () => {
    const cache = await startCache();
    cache.versions = [0];
    await startClient(cache);
    await until(sameAsCache(cache), "the set over version 0");
    expect(cache.queries()).toEqual(["reset v1", "reset v0"]);
    expect(await source()).toMatchObject({ protocolVersion: 0, refreshSeconds: 3600, retrySeconds: 600, expireSeconds: 7200 });
    expect(logs.some((l) => l.includes("falling back to version 0"))).toBe(true);
  });

  it("No Data Available: asks again on the same session, and loads once the cache has data", async () => {
    const cache = await startCache();
    cache.noData = true;
    await startClient(cache);
    await until(() => cache.queries().length >= 2, "asked twice");
    expect(cache.connections).toBe(1);
    expect(await storedRtr()).toEqual([]);
    cache.noData = false;
    await until(sameAsCache(cache), "the set once there is one");
    expect(cache.connections).toBe(1);
  });

  it("drops the data once it is older than the expire interval without a successful refresh", { timeout: 30_000 }, async () => {
    const cache = await startCache();
    // Refreshed every second while the cache answers; three seconds without a refresh and the data is gone.
    cache.intervals = { refresh: 1, retry: 1, expire: 3 };
    await startClient(cache);
    await until(sameAsCache(cache), "the set");
    expect(await currentRoaIndex(stores)).not.toBeNull();
    await cache.close();
    await until(async () => (await storedRtr()).length === 0, "the set dropped");
    const row = await source();
    expect(row).toMatchObject({ vrpCount: 0, sessionId: null, serial: null, connected: false });
    // Why the set went is logged and stored; the client keeps retrying every second, so by the time the row is read a
    // later attempt's refusal may have replaced the stored reason.
    expect(logs.some((l) => l.startsWith("warn") && l.includes("(the expire interval): its VRPs are dropped"))).toBe(true);
    expect(row.lastError).toMatch(/the expire interval|ECONNREFUSED/);
    expect(await currentRoaIndex(stores)).toBeNull();
  });

  it("a restart resumes the stored session with a Serial Query", async () => {
    const cache = await startCache();
    const first = await startClient(cache);
    await until(sameAsCache(cache), "the set");
    await first.stop();
    expect((await source()).connected).toBe(false);
    cache.update({ withdraw: [INITIAL[4]] });
    await startClient(cache);
    await until(async () => (await source()).serial === 2, "serial 2");
    expect(cache.queries()).toEqual(["reset v1", "serial v1 4242 1"]);
    expect(await storedRtr()).toEqual([...cache.vrps.values()].map(text).sort());
  });

  it("is configured by RPKI_RTR_CACHE only; a bad value names the variable", () => {
    expect(rpkiRtr.configure(componentEnv("rpki-rtr", {}))).toBeNull();
    expect(rpkiRtr.configure(componentEnv("rpki-rtr", { RPKI_RTR_CACHE: "rpki.example.net:3323" }))).toMatchObject({
      host: "rpki.example.net",
      port: 3323,
    });
    expect(rpkiRtr.configure(componentEnv("rpki-rtr", { RPKI_RTR_CACHE: "[2001:db8::1]:8282" }))).toMatchObject({
      host: "2001:db8::1",
      port: 8282,
    });
    for (const bad of [":3323", "rpki.example.net", "rpki.example.net:0", "rpki.example.net:70000"])
      expect(() => rpkiRtr.configure(componentEnv("rpki-rtr", { RPKI_RTR_CACHE: bad }))).toThrow(ConfigError);
    expect(() => rpkiRtr.configure(componentEnv("rpki-rtr", { RPKI_RTR_CACHE: ":3323" }))).toThrow(/RPKI_RTR_CACHE/);
  });
});
