/**
 * The lists of senders the inventory does not know (unknown-senders.ts): the flow exporters and
 * the BMP sources the Data sources page offers to adopt show at most UNKNOWN_SENDERS_MAX, the most
 * recently heard, and none not heard for UNKNOWN_SENDERS_MAX_AGE_MS; the BMP station's table
 * keeps only what its list shows, so a scan of many addresses leaves a bounded table.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bmpUnknownSources, collectorExporters } from "~db/postgres/schema";
import { recordUnknownSource } from "~/features/collector/bmp/sources.server";
import { loadDataSourcesScreen } from "~/features/collector/data-sources/data-sources-screen.server";
import { UNKNOWN_SENDERS_MAX, UNKNOWN_SENDERS_MAX_AGE_MS } from "~/features/collector/unknown-senders";
import { useServicesForTests } from "~/server/services.server";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

let stores: TestStores;
let adminId = 0;
const NOW = new Date("2026-11-20T12:00:00Z");
const minutesBefore = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);
const address = (i: number) => `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}`;

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  adminId = await insertSuperuser(stores, "admin@unknown-senders.test");
}, 120_000);
afterAll(() => stores?.dispose(), 60_000);
beforeEach(async () => {
  await stores.pg.db.delete(bmpUnknownSources);
  await stores.pg.db.delete(collectorExporters);
});

const storedSources = async () =>
  (await stores.pg.db.select().from(bmpUnknownSources)).sort((a, b) => b.lastSeen.getTime() - a.lastSeen.getTime());

describe("the BMP station's refused sources", () => {
  it(`200 addresses leave the ${UNKNOWN_SENDERS_MAX} most recent in the table; a source that tries again stays`, async () => {
    for (let i = 0; i < 200; i++) await recordUnknownSource(stores.pg.db, address(i), minutesBefore(200 - i));
    let rows = await storedSources();
    expect(rows).toHaveLength(UNKNOWN_SENDERS_MAX);
    expect(rows.map((r) => r.address)).toEqual(Array.from({ length: UNKNOWN_SENDERS_MAX }, (_, n) => address(199 - n)));

    // The oldest listed tries again, then a new address is refused: the next oldest goes, not the one that came back.
    await recordUnknownSource(stores.pg.db, address(100), NOW);
    await recordUnknownSource(stores.pg.db, "203.0.113.9", new Date(NOW.getTime() + 60_000));
    rows = await storedSources();
    expect(rows).toHaveLength(UNKNOWN_SENDERS_MAX);
    expect(rows.slice(0, 2)).toEqual([
      expect.objectContaining({ address: "203.0.113.9", attempts: 1 }),
      expect.objectContaining({ address: address(100), attempts: 2 }),
    ]);
    expect(rows.map((r) => r.address)).not.toContain(address(101));
  });

  it("a source not heard for a week ages out when the next one is refused", async () => {
    const later = new Date(NOW.getTime() + UNKNOWN_SENDERS_MAX_AGE_MS + 60_000);
    await recordUnknownSource(stores.pg.db, "203.0.113.1", NOW);
    await recordUnknownSource(stores.pg.db, "203.0.113.2", new Date(NOW.getTime() + 2 * 60_000));
    await recordUnknownSource(stores.pg.db, "203.0.113.3", later);
    expect((await storedSources()).map((r) => r.address)).toEqual(["203.0.113.3", "203.0.113.2"]);
  });
});

describe("the Data sources page's lists to adopt", () => {
  it(`show at most ${UNKNOWN_SENDERS_MAX} exporters and BMP sources, the most recently heard, none older than a week`, async () => {
    const old = new Date(NOW.getTime() - UNKNOWN_SENDERS_MAX_AGE_MS - 60_000);
    await stores.pg.db.insert(collectorExporters).values([
      ...Array.from({ length: 150 }, (_, i) => ({
        address: address(i),
        protocol: "netflow9",
        firstSeen: minutesBefore(1_000),
        lastSeen: minutesBefore(150 - i),
        datagrams: 1,
      })),
      { address: "203.0.113.50", protocol: "ipfix", firstSeen: old, lastSeen: old, datagrams: 9 },
    ]);
    await stores.pg.db.insert(bmpUnknownSources).values([
      { address: "203.0.113.60", firstSeen: old, lastSeen: old, attempts: 3 },
      { address: "203.0.113.61", firstSeen: minutesBefore(10), lastSeen: minutesBefore(5), attempts: 1 },
    ]);
    const screen = await loadDataSourcesScreen(stores, { id: adminId }, NOW);
    expect(screen.unknown.map((u) => u.address)).toEqual(Array.from({ length: UNKNOWN_SENDERS_MAX }, (_, n) => address(149 - n)));
    expect(screen.bmp.unknown.map((u) => u.address)).toEqual(["203.0.113.61"]);
  });
});
