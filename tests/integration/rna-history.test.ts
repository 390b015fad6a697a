/**
 * The Raw Network Analyzer's query history: recordRnaQuery and GET usertracking/rna_history/ on the
 * test stores. What the test records is its own list; every page is checked against that list
 * (newest first, trimmed to the last 100, 20 a page), each entry's re-run link against the query's
 * fields read back from the link, the retention notice against the 7 days flows_raw keeps; a query
 * that cannot be stored never fails its caller; everyone reads only their own entries; bad pages
 * and missing permissions are refused.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { rnaQueryHistory, userPermissions, users } from "~db/postgres/schema";
import { RNA_HISTORY_KEPT, RNA_HISTORY_PAGE_SIZE, type RnaHistoryQuery } from "~/features/rna/history-schema";
import { recordRnaQuery, rnaHistoryPage } from "~/features/rna/history.server";
import * as historyRoute from "~/routes/usertracking.rna_history";
import { DEFAULT_LAYOUT } from "~/server/clickhouse-migrations.server";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

const DAY = 86_400;
const NOW = Math.floor(Date.now() / 1000);

let stores: TestStores;
const uid = { analyst: 0, other: 0, noRna: 0, delegated: 0 };

async function createUser(email: string, permissions: "RAW_NETWORK_ANALYZER"[], extra: Partial<typeof users.$inferInsert> = {}) {
  const [row] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "R", passwordHash: "!unusable", hasConsented: true, ...extra })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
  return row.id;
}

/** A query of the analyzer as its core hands it over: with its paging fields, which the history drops. */
function query(n: number, extra: Partial<RnaHistoryQuery> = {}): RnaHistoryQuery & { after: string | null; pageSize: number } {
  return {
    start: NOW - 3600 - n,
    end: NOW - n,
    columns: ["time_received", "src_addr", "dst_addr", "bytes"],
    filters: [],
    expression: "",
    aggregation: { v4: null, v6: null },
    includeCopies: false,
    sort: null,
    after: "opaque-cursor",
    pageSize: 50,
    ...extra,
  };
}

const historyOf = async (userId: number, page?: string) => {
  const res = await callRoute(historyRoute, `/usertracking/rna_history/${page === undefined ? "" : `?page=${page}`}`, {
    cookie: userId ? await sessionCookie(stores, userId) : undefined,
  });
  return { status: res.status, data: await res.json() };
};

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  uid.analyst = await createUser("analyst@rna.test", ["RAW_NETWORK_ANALYZER"]);
  uid.other = await createUser("other@rna.test", ["RAW_NETWORK_ANALYZER"]);
  uid.noRna = await createUser("nopermission@rna.test", []);
  uid.delegated = await createUser("delegated@rna.test", ["RAW_NETWORK_ANALYZER"], { isDelegated: true, delegatedById: uid.analyst });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

describe("recording", () => {
  it("keeps the caller's last 100, newest first, 20 a page; every page is what was recorded, in order", async () => {
    // 105 queries, each told apart by its start and its row count; the first five are trimmed.
    const recorded: { start: number; rowCount: number; durationMs: number }[] = [];
    for (let n = 0; n < RNA_HISTORY_KEPT + 5; n++) {
      const q = query(n);
      await recordRnaQuery(stores, { id: uid.analyst }, { query: q, total: { count: 1000 + n, exact: n % 2 === 0 }, durationMs: 10 + n });
      recorded.push({ start: q.start, rowCount: 1000 + n, durationMs: 10 + n });
    }
    const stored = await stores.pg.db.select().from(rnaQueryHistory).where(eq(rnaQueryHistory.userId, uid.analyst));
    expect(stored).toHaveLength(RNA_HISTORY_KEPT);

    const expected = recorded.slice(5).reverse();
    const seen: { start: number; rowCount: number; durationMs: number; exact: boolean }[] = [];
    for (let page = 1; page <= RNA_HISTORY_KEPT / RNA_HISTORY_PAGE_SIZE; page++) {
      const { status, data } = await historyOf(uid.analyst, String(page));
      expect(status).toBe(200);
      expect(data).toMatchObject({ page, pageSize: RNA_HISTORY_PAGE_SIZE, count: RNA_HISTORY_KEPT, pages: 5, kept: 100, retentionDays: 7 });
      expect(data.entries).toHaveLength(RNA_HISTORY_PAGE_SIZE);
      for (const e of data.entries)
        seen.push({ start: e.query.start, rowCount: e.rowCount, durationMs: e.durationMs, exact: e.rowCountExact });
    }
    expect(seen.map(({ exact: _exact, ...rest }) => rest)).toEqual(expected);
    expect(seen.map((e) => e.exact)).toEqual(expected.map((e) => (e.rowCount - 1000) % 2 === 0));
    // No page parameter: the first, newest page.
    const first = await historyOf(uid.analyst);
    expect(first.data.entries.map((e: { query: { start: number } }) => e.query.start)).toEqual(expected.slice(0, 20).map((e) => e.start));
    // The paging fields of the analyzer's query are not part of what is stored.
    expect(Object.keys(first.data.entries[0].query).sort()).toEqual(
      ["aggregation", "columns", "end", "expression", "filters", "includeCopies", "sort", "start"].sort(),
    );
    const times = first.data.entries.map((e: { time: string }) => Date.parse(e.time));
    expect(times.every((t: number, i: number) => i === 0 || t <= times[i - 1])).toBe(true);
    expect(Math.abs(times[0] / 1000 - NOW)).toBeLessThan(600);
  }, 120_000);

  it("never fails the query it records: a query that does not fit, or a store error, is logged and dropped", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const before = (await stores.pg.db.select().from(rnaQueryHistory)).length;
      await expect(
        recordRnaQuery(stores, { id: uid.other }, { query: query(1, { columns: [] }), total: { count: 1, exact: true }, durationMs: 1 }),
      ).resolves.toBeUndefined();
      await expect(
        recordRnaQuery(
          stores,
          { id: uid.other },
          { query: query(1, { aggregation: { v4: 33, v6: null } }), total: { count: 1, exact: true }, durationMs: 1 },
        ),
      ).resolves.toBeUndefined();
      // No such user: the store refuses the row (its foreign key); the promise still resolves.
      await expect(
        recordRnaQuery(stores, { id: 2_000_000_000 }, { query: query(1), total: { count: 1, exact: true }, durationMs: 1 }),
      ).resolves.toBeUndefined();
      expect((await stores.pg.db.select().from(rnaQueryHistory)).length).toBe(before);
      const lines = logged.mock.calls.map((c) => String(c[0]));
      expect(lines.filter((l) => l.includes("rna history: query of user")).length).toBe(3);
      expect(lines.some((l) => l.includes(`user ${uid.other} not recorded: columns`))).toBe(true);
    } finally {
      logged.mockRestore();
    }
  });
});

describe("entries", () => {
  it("give the /rna address that runs the query again, with every field of the query", async () => {
    const q = query(0, {
      start: NOW - 7200,
      end: NOW - 600,
      columns: ["time_received", "exporter_name", "src_addr", "dst_port", "bytes"],
      filters: [
        { dimension: "DST_PREFIX", values: ["192.0.2.0/24", "!2001:db8::/32"] },
        { dimension: "EXPORTER", values: ["fra1-r1"] },
      ],
      expression: "proto tcp and dst port in [80 443]",
      aggregation: { v4: 24, v6: 48 },
      includeCopies: true,
      sort: { column: "bytes", direction: "desc" },
    });
    await recordRnaQuery(stores, { id: uid.other }, { query: q, total: { count: 5000, exact: false }, durationMs: 321.6 });
    const { data } = await historyOf(uid.other);
    expect(data.count).toBe(1);
    const [entry] = data.entries;
    expect(entry).toMatchObject({ rowCount: 5000, rowCountExact: false, durationMs: 322, rangeLeftRetention: null, notice: null });
    const url = new URL(entry.rerunUrl, "http://x");
    expect(url.pathname).toBe("/rna");
    expect(url.searchParams.getAll("filter")).toEqual(["DST_PREFIX:192.0.2.0/24", "DST_PREFIX:!2001:db8::/32", "EXPORTER:fra1-r1"]);
    expect(url.searchParams.get("q")).toBe(q.expression);
    expect(url.searchParams.get("columns")?.split(",")).toEqual(q.columns);
    expect([url.searchParams.get("aggregationPrefixV4"), url.searchParams.get("aggregationPrefixV6")]).toEqual(["24", "48"]);
    expect(url.searchParams.get("copies")).toBe("1");
    expect(url.searchParams.get("sort")).toBe("bytes:desc");
    expect([Number(url.searchParams.get("start")), Number(url.searchParams.get("end"))]).toEqual([q.start, q.end]);

    // A plain query leaves out what is off.
    await recordRnaQuery(
      stores,
      { id: uid.other },
      { query: query(0, { sort: { column: "src_addr", direction: "asc" } }), total: { count: 0, exact: true }, durationMs: 5 },
    );
    const plain = new URL((await historyOf(uid.other)).data.entries[0].rerunUrl, "http://x");
    expect([...plain.searchParams.keys()].sort()).toEqual(["columns", "end", "sort", "start"]);
    expect(plain.searchParams.get("sort")).toBe("src_addr:asc");
  });

  it("say so when the range has left the 7 days raw flows are kept, partly or entirely", async () => {
    const ttl = DEFAULT_LAYOUT.rawTtlDays * DAY;
    const user = await createUser("ttl@rna.test", ["RAW_NETWORK_ANALYZER"]);
    const ranges = [
      { start: NOW - ttl - 3 * DAY, end: NOW - ttl - 2 * DAY, expected: "entirely" },
      { start: NOW - ttl - DAY, end: NOW - ttl + DAY, expected: "partly" },
      { start: NOW - ttl + 3600, end: NOW - ttl + 7200, expected: null },
    ] as const;
    for (const r of ranges)
      await recordRnaQuery(stores, { id: user }, { query: query(0, r), total: { count: 3, exact: true }, durationMs: 2 });
    const { data } = await historyOf(user);
    const shown = [...data.entries].reverse();
    expect(shown.map((e: { rangeLeftRetention: string | null }) => e.rangeLeftRetention)).toEqual(ranges.map((r) => r.expected));
    expect(shown[0].notice).toMatch(/ended more than 7 days ago.*finds no rows/);
    expect(shown[1].notice).toMatch(/Part of its range is older than the 7 days raw flows are kept/);
    expect(shown[2].notice).toBeNull();
    // Each still has its link: the analyzer clamps the range and says so itself.
    expect(shown.every((e: { rerunUrl: string | null }) => e.rerunUrl?.startsWith("/rna?"))).toBe(true);
    // The same entries 90 minutes later: the range of the third (an hour to two hours inside the 7 days) has started to leave.
    const later = await rnaHistoryPage(stores, { id: user }, 1, NOW + 5400);
    expect(later.entries.map((e) => e.rangeLeftRetention).reverse()).toEqual(["entirely", "partly", "partly"]);
  });

  it("of a row this version cannot read are shown without a link, with a notice", async () => {
    const user = await createUser("old@rna.test", ["RAW_NETWORK_ANALYZER"]);
    await stores.pg.db.insert(rnaQueryHistory).values({ userId: user, query: { enabledColumns: ["x"] }, rowCount: 1, durationMs: 1 });
    const { status, data } = await historyOf(user);
    expect(status).toBe(200);
    expect(data.entries[0]).toMatchObject({ query: null, rerunUrl: null, rangeLeftRetention: null });
    expect(data.entries[0].notice).toMatch(/cannot be run again/);
  });
});

describe("access", () => {
  it("shows everyone only their own entries; an empty history is one empty page", async () => {
    const mine = await historyOf(uid.analyst, "1");
    const theirs = await historyOf(uid.other, "1");
    const ownIds = new Set(
      (await stores.pg.db.select().from(rnaQueryHistory).where(eq(rnaQueryHistory.userId, uid.other))).map((r) => r.id),
    );
    expect(theirs.data.entries.every((e: { id: number }) => ownIds.has(e.id))).toBe(true);
    expect(mine.data.entries.some((e: { id: number }) => ownIds.has(e.id))).toBe(false);
    expect(mine.data.entries).toHaveLength(RNA_HISTORY_PAGE_SIZE);
    const fresh = await createUser("fresh@rna.test", ["RAW_NETWORK_ANALYZER"]);
    expect((await historyOf(fresh)).data).toMatchObject({ page: 1, count: 0, pages: 1, entries: [] });
    // A page within the bounds beyond what is kept: empty, not an error.
    expect((await historyOf(fresh, "5")).data).toMatchObject({ page: 5, count: 0, entries: [] });
  });

  it("answers a delegated account (RAW_NETWORK_ANALYZER is delegable) with its own entries only", async () => {
    await recordRnaQuery(stores, { id: uid.delegated }, { query: query(42), total: { count: 7, exact: true }, durationMs: 3 });
    const page = await rnaHistoryPage(stores, { id: uid.delegated }, 1);
    expect(page.entries.map((e) => [e.query?.start, e.rowCount])).toEqual([[NOW - 3600 - 42, 7]]);
    const call = await historyOf(uid.delegated);
    expect(call.status).toBe(200);
    expect(JSON.stringify(call.data)).toContain(String(NOW - 3600 - 42));
    // Only its own: the analyst's entries recorded above are not in it.
    expect(call.data.entries.map((e: { rowCount: number }) => e.rowCount)).toEqual([7]);
  });

  it("refuses callers without RAW_NETWORK_ANALYZER and anonymous ones", async () => {
    const refused = await historyOf(uid.noRna);
    expect([refused.status, refused.data.exception_code]).toEqual([403, "permission_denied"]);
    const anonymous = await historyOf(0);
    expect([anonymous.status, anonymous.data.exception_code]).toEqual([403, "not_authenticated"]);
  });

  it.each(["0", "6", "abc", "1.5", "-1", "", "1000"])("answers page=%j with a 400 naming the field", async (page) => {
    const { status, data } = await historyOf(uid.analyst, page);
    expect(status).toBe(400);
    expect(data.errors.map((e: { field: string }) => e.field)).toEqual(["page"]);
    expect(data.errors[0].message).toMatch(/whole number from 1 to 5/);
  });
});
