/**
 * The Raw Network Analyzer's calls (api/rna/, api/rna/timeseries/, api/rna/dateswithdata/) on chDB
 * over fixture records written to flows_raw, every figure recomputed in TypeScript from the fixture:
 * the columns' values and labels, prefix aggregation (IPv4 and IPv6, mixed sampling rates, /32 and
 * /128 as identity), the sums against the Flow Explorer's own service, keyset pages with ties, each
 * 'Show in RNA' filter kind, the nfdump expression, the delegated restriction in the table and the
 * timeseries (forged page keys), the raw-flow database override, the row limit, and the 400s.
 */
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asInfo,
  delegationRestrictions,
  featureFlags,
  tagGroupMembers,
  tagGroups,
  tags,
  tagValues,
  userPermissions,
  users,
} from "~db/postgres/schema";
import { flowTable } from "~/features/flows/service.server";
import { AGGREGATION_MESSAGES } from "~/features/rna/query";
import type { RnaPage } from "~/features/rna/query";
import { addressText } from "~/features/rna/query.server";
import type { Permission } from "~/lib/permissions";
import { formatInZone } from "~/lib/date-format";
import * as rnaRoute from "~/routes/api.rna";
import * as datesRoute from "~/routes/api.rna.dateswithdata";
import * as seriesRoute from "~/routes/api.rna.timeseries";
import { chCommand, chInsert } from "~/server/clickhouse/query.server";
import { runInRequestScope } from "~/server/request-scope.server";
import { useServicesForTests } from "~/server/services.server";
import { getRequest, jsonRequest, runRoute, sessionCookie, type Outcome } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const OPERATOR = 64500;
const NOW = Math.floor(Date.now() / 1000);
/** The records lie in the 50 minutes before BASE + 3000; an aligned 5-minute grid for the Flow Explorer. */
const BASE = Math.floor((NOW - 3300) / 300) * 300;

type Fixture = {
  time_received: number;
  exporter_name: string;
  exporter_address: string;
  ingress_router: string;
  in_if: string;
  in_if_index: number;
  sampling_rate: number;
  ip_version: number;
  src_addr: string;
  dst_addr: string;
  protocol: number;
  src_port: number;
  dst_port: number;
  tcp_flags: number;
  bytes: number;
  packets: number;
  as_src: number;
  as_hnd: number;
  as_nxt: number;
  as_dst: number;
  next_hop: string;
  vrf_name: string;
  counted: number;
  forwarding_status: number;
  icmp_type: number | null;
  icmp_code: number | null;
};

/** A small deterministic generator, so a failure repeats. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

function fixtures(): Fixture[] {
  const r = random(27);
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)];
  const rows: Fixture[] = [];
  for (let i = 0; i < 360; i++) {
    const v6 = r() < 0.4;
    const exporter = pick(["r1", "r2"] as const);
    const protocol = pick([6, 6, 17, 1]);
    rows.push({
      // Several records per second: ties in time.
      time_received: BASE + Math.floor(i / 3) * 25,
      exporter_name: exporter,
      exporter_address: exporter === "r1" ? "::ffff:192.0.2.1" : "2001:db8:ffff::2",
      ingress_router: exporter,
      in_if: r() < 0.2 ? "" : pick(["et-0/0/1", "et-0/0/2"]),
      in_if_index: pick([11, 12, 13]),
      sampling_rate: pick([1, 10, 100, 1000]),
      ip_version: v6 ? 6 : 4,
      src_addr: v6
        ? `2001:db8:${pick(["a", "b"])}${pick(["0", "1"])}::${Math.floor(r() * 50) + 1}`
        : `::ffff:10.${pick([1, 2])}.${pick([3, 200])}.${Math.floor(r() * 250) + 1}`,
      dst_addr: v6 ? `2001:db8:${pick(["c", "d"])}::${Math.floor(r() * 9) + 1}` : `::ffff:198.51.100.${Math.floor(r() * 250) + 1}`,
      protocol,
      src_port: 1000 + i,
      dst_port: pick([53, 80, 443]),
      tcp_flags: protocol === 6 ? pick([0x02, 0x12, 0x10, 0x11]) : 0,
      bytes: 40 + Math.floor(r() * 1500),
      packets: 1 + Math.floor(r() * 9),
      as_src: pick([64501, 64502, 15169, -1]),
      as_hnd: pick([OPERATOR, 3356, 3356]),
      as_nxt: pick([OPERATOR, 64501]),
      as_dst: pick([64501, 64502, 15169]),
      next_hop: pick(["::ffff:192.0.2.9", "::ffff:192.0.2.10", "2001:db8:ffff::9"]),
      vrf_name: pick(["", "", "CUST_A"]),
      counted: r() < 0.15 ? 0 : 1,
      forwarding_status: r() < 0.1 ? 0x82 : pick([0, 0x40]),
      icmp_type: protocol === 1 ? pick([8, 0, 3]) : null,
      icmp_code: protocol === 1 ? pick([0, 3]) : null,
    });
  }
  // Records equal in every column: ties the keyset must page through without losing or repeating one.
  rows[100].counted = 1;
  rows[200].counted = 1;
  for (let k = 0; k < 5; k++) rows.push({ ...rows[100] });
  for (let k = 0; k < 3; k++) rows.push({ ...rows[200] });
  return rows;
}

const ROWS = fixtures();
const FIRST = Math.min(...ROWS.map((r) => r.time_received));
const LAST = Math.max(...ROWS.map((r) => r.time_received));
const FULL = { startTimestamp: FIRST - 60, endTimestamp: LAST + 60 };

let stores: TestStores;
const cookies = { admin: "", analyst: "", restricted: "", delegated: "", none: "" };
let restrictedId = 0;

async function createUser(
  email: string,
  permissions: Permission[],
  restriction?: { dimension: string; constrained_values: string[]; output: string }[],
  isDelegated = false,
) {
  const [row] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true, isDelegated })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
  if (restriction) await stores.pg.db.insert(delegationRestrictions).values({ userId: row.id, flowsViewsRestrictions: restriction });
  return row.id;
}

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  await stores.pg.db.insert(asInfo).values([
    { asn: OPERATOR, name: "Operator", category: "operator" },
    { asn: 64501, name: "Customer One" },
    { asn: 15169, name: "Google" },
  ]);
  // The fixture's ASes are tracked, so the aggregates keep their numbers (the top-200 fold, docs/architecture.md §4).
  await chInsert(stores.ch, {
    name: "test.trackedAs",
    table: "tracked_as",
    values: [OPERATOR, 64501, 64502, 15169, 3356].map((asn, rank) => ({ asn, rank, updated_at: NOW })),
  });
  await chInsert(stores.ch, { name: "test.rnaFixtures", table: "flows_raw", values: ROWS });
  cookies.admin = await sessionCookie(stores, await insertSuperuser(stores, "admin@rna.test"));
  cookies.analyst = await sessionCookie(stores, await createUser("analyst@rna.test", ["RAW_NETWORK_ANALYZER", "API_FLOWS_4D"]));
  // A restriction row applies whether or not the account is flagged as delegated (delegation-policy.server.ts).
  restrictedId = await createUser(
    "restricted@rna.test",
    ["RAW_NETWORK_ANALYZER", "API_FLOWS_4D"],
    [{ dimension: "AS_DST_INGRESS", constrained_values: ["64501"], output: "AS_SRC_INGRESS" }],
  );
  cookies.restricted = await sessionCookie(stores, restrictedId);
  cookies.delegated = await sessionCookie(
    stores,
    await createUser(
      "delegated@rna.test",
      ["RAW_NETWORK_ANALYZER"],
      [{ dimension: "AS_DST_INGRESS", constrained_values: ["64501"], output: "AS_SRC_INGRESS" }],
      true,
    ),
  );
  cookies.none = await sessionCookie(stores, await createUser("none@rna.test", ["API_FLOWS_4D"]));
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

function served(fn: unknown, request: Request): Promise<Outcome> {
  return runInRequestScope(Object.fromEntries(request.headers), () => runRoute(fn, request));
}

const rna = (body: object, cookie = cookies.admin) => served(rnaRoute.action, jsonRequest("/api/rna/", body, { cookie }));
const series = (body: object, cookie = cookies.admin) => served(seriesRoute.action, jsonRequest("/api/rna/timeseries/", body, { cookie }));

const COLUMNS = [
  "time_received",
  "exporter_name",
  "src_addr",
  "dst_addr",
  "src_port",
  "dst_port",
  "protocol",
  "bytes",
  "packets",
  "sampling_rate",
];

/** A record's identity in the tests: the columns COLUMNS reads. */
const identity = (f: Fixture) =>
  [
    f.time_received,
    f.exporter_name,
    addressText(f.src_addr),
    addressText(f.dst_addr),
    f.src_port,
    f.dst_port,
    f.protocol,
    f.bytes,
    f.packets,
    f.sampling_rate,
  ].join(" ");
const identityOfRow = (row: RnaPage["rows"][number]) => COLUMNS.map((c) => row.values[c as keyof typeof row.values]).join(" ");

const dropped = (f: Fixture) => f.forwarding_status >> 6 === 2;
const sorted = (list: string[]) => [...list].sort();

/** Every page of a query, by following `next`. */
async function allPages(body: object, cookie = cookies.admin): Promise<RnaPage[]> {
  const pages: RnaPage[] = [];
  let after: string | null = null;
  for (let i = 0; i < 500; i++) {
    const res = await rna({ ...body, after }, cookie);
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    pages.push(res.data as RnaPage);
    after = (res.data as RnaPage).next;
    if (!after) return pages;
  }
  throw new Error("The pages do not end");
}

describe("POST api/rna/: records", () => {
  it("gives the counted records of the range newest first, with their values and labels, and their sums", async () => {
    const res = await rna({
      ...FULL,
      enabledColumns: [...COLUMNS, "tcp_flags", "as_src", "in_if", "icmp_type", "forwarding_status"],
      pageSize: 1000,
    });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    const page = res.data as RnaPage;
    const counted = ROWS.filter((f) => f.counted === 1);
    expect(page.rows).toHaveLength(counted.length);
    expect(page.total).toEqual({ count: counted.length, exact: true });
    expect(sorted(page.rows.map(identityOfRow))).toEqual(sorted(counted.map(identity)));
    const times = page.rows.map((r) => r.values.time_received as number);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const carried = counted.filter((f) => !dropped(f));
    expect(page.sums).toEqual({
      bytes: carried.reduce((a, f) => a + f.bytes * f.sampling_rate, 0),
      packets: carried.reduce((a, f) => a + f.packets * f.sampling_rate, 0),
      flows: carried.length,
    });
    expect(page.dropped.flows).toBe(counted.filter(dropped).length);
    // Labels people read.
    const tcp = page.rows.find((r) => r.values.protocol === 6 && r.values.tcp_flags === 0x12)!;
    expect(tcp.labels.protocol).toBe("TCP");
    expect(tcp.labels.tcp_flags).toBe("AS");
    expect(tcp.labels.time_received).toBe(formatInZone((tcp.values.time_received as number) * 1000, "UTC", "DD.MM.YYYY HH:mm:ss"));
    const google = page.rows.find((r) => r.values.as_src === 15169)!;
    expect(google.labels.as_src).toBe("AS15169 Google");
    expect(page.rows.find((r) => r.values.as_src === -1)!.labels.as_src).toBe("Not routable");
    const unknownIf = page.rows.find((r) => typeof r.values.in_if === "number")!;
    expect(unknownIf.labels.in_if).toMatch(/^ifIndex 1[123]$/);
    expect(page.rows.find((r) => r.values.protocol === 1 && r.values.icmp_type === 8)!.labels.icmp_type).toMatch(/^Echo Request/);
    const drop = page.rows.find((r) => r.values.forwarding_status === 0x82)!;
    expect(drop.dropped).toBe(true);
    expect(drop.labels.forwarding_status).toBe("dropped by the router (ACL drop)");
    expect(page.rows.find((r) => r.labels.src_addr?.includes(":"))).toBeTruthy();
    expect(page.rows.find((r) => /^10\./.test(String(r.values.src_addr)))).toBeTruthy();
  });

  it("includes the re-exported copies when asked, shown as copies", async () => {
    const page = (await rna({ ...FULL, enabledColumns: ["time_received", "counted", "bytes_scaled"], includeCopies: true, pageSize: 1000 }))
      .data as RnaPage;
    expect(page.rows).toHaveLength(ROWS.length);
    expect(page.rows.filter((r) => r.labels.counted === "re-exported copy")).toHaveLength(ROWS.filter((f) => f.counted === 0).length);
  });

  it("equals the Flow Explorer's total for the same range and filters", async () => {
    const range = { start: BASE + 600, end: BASE + 2100 };
    const operator = OPERATOR;
    for (const filters of [
      [],
      [{ dimension: "AS_SRC_INGRESS", values: ["64501", "15169"] }],
      [{ dimension: "IANA_PROTOCOL", values: ["!6"] }],
    ]) {
      const page = (
        await rna({ startTimestamp: range.start, endTimestamp: range.end, enabledColumns: ["bytes_scaled"], filters, pageSize: 1 })
      ).data as RnaPage;
      expect(page.range).toEqual(range);
      const table = await flowTable(stores, null, "ROUTER_IN", {
        range,
        filters: filters.flatMap((f) =>
          f.values.map((v) => ({ dimension: f.dimension as "AS_SRC_INGRESS", value: v.replace("!", ""), isNegation: v.startsWith("!") })),
        ),
        operatorAsn: operator,
        ipVersion: "all",
        window: 300,
      });
      const explorer = table.reduce((a, r) => a + Number(r.bytes), 0);
      expect(explorer).toBeGreaterThan(0);
      expect(page.sums.bytes).toBe(explorer);
    }
  });

  it("pages by keyset: the pages concatenated are the whole sorted set, ties included", async () => {
    for (const sort of [null, { column: "protocol", direction: "asc" }, { column: "bytes", direction: "desc" }]) {
      const body = { ...FULL, enabledColumns: COLUMNS, pageSize: 41, sort };
      const pages = await allPages(body);
      const rows = pages.flatMap((p) => p.rows);
      const full = (await rna({ ...body, pageSize: 1000 })).data as RnaPage;
      expect(rows.map((r) => r.key)).toEqual(full.rows.map((r) => r.key));
      expect(sorted(rows.map(identityOfRow))).toEqual(sorted(ROWS.filter((f) => f.counted === 1).map(identity)));
      expect(pages.slice(0, -1).every((p) => p.rows.length === 41)).toBe(true);
      if (sort) {
        const values = rows.map((r) => r.values[sort.column as "protocol"] as number);
        expect(values).toEqual([...values].sort((a, b) => (sort.direction === "asc" ? a - b : b - a)));
      }
    }
    // Records equal in every column, two to a page: each copy comes once, across the page ends.
    const twin = ROWS[100];
    const near = { startTimestamp: twin.time_received, endTimestamp: twin.time_received + 1 };
    const expected = ROWS.filter((f) => f.counted === 1 && f.time_received === twin.time_received);
    expect(expected.filter((f) => identity(f) === identity(twin))).toHaveLength(6);
    for (const sort of [null, { column: "protocol", direction: "desc" }]) {
      const pages = await allPages({ ...near, enabledColumns: COLUMNS, pageSize: 2, sort });
      expect(sorted(pages.flatMap((p) => p.rows.map(identityOfRow)))).toEqual(sorted(expected.map(identity)));
    }
  }, 180_000);
});

/** An address folded to a prefix, as the test reads it: IPv4 a.b.c.d/n, IPv6 compressed/n. */
function fold(column: string, v4: number | null, v6: number | null): string {
  const mapped = /^::ffff:(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(column);
  if (mapped) {
    const value = mapped.slice(1).reduce((a, p) => (a << 8n) | BigInt(p), 0n);
    const len = v4 ?? 32;
    const net = (value >> BigInt(32 - len)) << BigInt(32 - len);
    const text = [24n, 16n, 8n, 0n].map((s) => String((net >> s) & 255n)).join(".");
    return v4 === null ? text : `${text}/${len}`;
  }
  const [head, tail = ""] = column.split("::");
  const parts = (s: string) => (s ? s.split(":") : []);
  const groups = [...parts(head), ...Array(8 - parts(head).length - parts(tail).length).fill("0"), ...parts(tail)];
  const value = groups.reduce((a, g) => (a << 16n) | BigInt(parseInt(g, 16)), 0n);
  const len = v6 ?? 128;
  const net = len === 0 ? 0n : (value >> BigInt(128 - len)) << BigInt(128 - len);
  const hex = Array.from({ length: 8 }, (_, i) => ((net >> BigInt(112 - 16 * i)) & 0xffffn).toString(16));
  // The compressed form: the longest run of zero groups as "::".
  let best = [-1, 0];
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && hex[j] === "0") j++;
    if (j - i > best[1]) best = [i, j - i];
    i = j;
  }
  const text = best[1] >= 2 ? `${hex.slice(0, best[0]).join(":")}::${hex.slice(best[0] + best[1]).join(":")}` : hex.join(":");
  return v6 === null ? text : `${text}/${len}`;
}

describe("POST api/rna/: prefix aggregation", () => {
  const cases = [
    { v4: 24, v6: 48 },
    { v4: 16, v6: null },
    { v4: null, v6: 32 },
    { v4: 32, v6: 128 },
  ];
  for (const aggregation of cases) {
    it(`groups by the folded addresses and the other columns, sums scaled per record (v4 ${aggregation.v4}, v6 ${aggregation.v6})`, async () => {
      const res = await rna({
        ...FULL,
        enabledColumns: ["src_addr", "dst_addr", "protocol", "bytes_scaled", "packets_scaled", "flows", "bytes", "share"],
        aggregationPrefixes: aggregation,
        pageSize: 1000,
      });
      expect(res.status, JSON.stringify(res.data)).toBe(200);
      const page = res.data as RnaPage;
      const expected = new Map<string, { bytes: number; packets: number; flows: number; sampled: number }>();
      for (const f of ROWS.filter((x) => x.counted === 1)) {
        const key = [fold(f.src_addr, aggregation.v4, aggregation.v6), fold(f.dst_addr, aggregation.v4, aggregation.v6), f.protocol].join(
          " ",
        );
        const e = expected.get(key) ?? { bytes: 0, packets: 0, flows: 0, sampled: 0 };
        e.bytes += f.bytes * f.sampling_rate;
        e.packets += f.packets * f.sampling_rate;
        e.flows += 1;
        e.sampled += f.bytes;
        expected.set(key, e);
      }
      const got = new Map(
        page.rows.map((r) => [
          [r.values.src_addr, r.values.dst_addr, r.values.protocol].join(" "),
          { bytes: r.values.bytes_scaled, packets: r.values.packets_scaled, flows: r.values.flows, sampled: r.values.bytes },
        ]),
      );
      expect(got).toEqual(expected);
      expect(page.total).toEqual({ count: expected.size, exact: true });
      const all = [...expected.values()].reduce((a, e) => a + e.bytes, 0);
      for (const r of page.rows) expect(r.values.share).toBeCloseTo((r.values.bytes_scaled as number) / all, 12);
      const order = page.rows.map((r) => r.values.bytes_scaled as number);
      expect(order).toEqual([...order].sort((a, b) => b - a));
    });
  }

  it("/32 and /128 group by the whole addresses", async () => {
    const identityGroups = new Set(ROWS.filter((f) => f.counted).map((f) => `${addressText(f.src_addr)} ${addressText(f.dst_addr)}`));
    const page = (
      await rna({ ...FULL, enabledColumns: ["src_addr", "dst_addr", "flows"], aggregationPrefixes: { v4: 32, v6: 128 }, pageSize: 1000 })
    ).data as RnaPage;
    expect(
      new Set(
        page.rows.map(
          (r) => `${String(r.values.src_addr).replace(/\/(32|128)$/, "")} ${String(r.values.dst_addr).replace(/\/(32|128)$/, "")}`,
        ),
      ),
    ).toEqual(identityGroups);
  });

  it("refuses lengths out of range and what is no length, with the spec's four messages", async () => {
    const check = async (aggregationPrefixes: object, field: string, message: string) => {
      const res = await rna({ ...FULL, enabledColumns: ["src_addr"], aggregationPrefixes });
      expect(res.status).toBe(400);
      expect(res.data.errors).toContainEqual({ field, message });
    };
    await check({ v4: 0, v6: null }, "aggregationPrefixes.v4", AGGREGATION_MESSAGES.v4Range);
    await check({ v4: 33, v6: null }, "aggregationPrefixes.v4", "Please type a prefix between /1 and /32 to aggregate the data");
    await check({ v4: null, v6: 129 }, "aggregationPrefixes.v6", "Please type a prefix between /1 and /128 to aggregate the data");
    await check({ v4: null, v6: 0 }, "aggregationPrefixes.v6", AGGREGATION_MESSAGES.v6Range);
    await check({ v4: "24a", v6: null }, "aggregationPrefixes.v4", "Wrong IPv4 prefix format");
    await check({ v4: null, v6: 12.5 }, "aggregationPrefixes.v6", "Wrong IPv6 prefix format");
  });

  it("pages the groups beyond the top N, then an Others row sums the rest", async () => {
    const { runRnaQuery } = await import("~/features/rna/query.server");
    const [admin] = await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@rna.test"));
    const { loadUserContext } = await import("~/server/auth/user-context.server");
    const user = (await loadUserContext(stores.pg.db, admin.id))!;
    const query = {
      start: FULL.startTimestamp,
      end: FULL.endTimestamp,
      columns: ["dst_addr", "bytes_scaled", "flows"] as const,
      filters: [],
      expression: "",
      aggregation: { v4: 28, v6: 64 },
      includeCopies: false,
      sort: null,
      after: null,
      pageSize: 2,
    };
    const first = await runRnaQuery(stores, user, { ...query, columns: [...query.columns] }, { topGroups: 3 });
    expect(first.total.exact).toBe(false);
    const second = await runRnaQuery(stores, user, { ...query, columns: [...query.columns], after: first.next }, { topGroups: 3 });
    expect(second.next).toBeNull();
    expect(second.rows).toHaveLength(2);
    const others = second.rows[1];
    expect(others.isOthers).toBe(true);
    expect(others.labels.dst_addr).toBe("Others");
    const counted = ROWS.filter((f) => f.counted === 1);
    const all = counted.reduce((a, f) => a + f.bytes * f.sampling_rate, 0);
    const top = [...first.rows, second.rows[0]].reduce((a, r) => a + (r.values.bytes_scaled as number), 0);
    expect(others.values.bytes_scaled).toBe(all - top);
    expect(others.values.flows).toBe(counted.length - [...first.rows, second.rows[0]].reduce((a, r) => a + (r.values.flows as number), 0));
    expect(first.total).toEqual({ count: 3, exact: false });
    expect(second.total).toEqual({ count: 3, exact: false });
    // With room for every group, each page states their exact number (counted after its cursor, plus those before).
    const groups = new Set(counted.map((f) => fold(f.dst_addr, 28, 64))).size;
    let after: string | null = null;
    let pages = 0;
    do {
      const page = await runRnaQuery(stores, user, { ...query, columns: [...query.columns], pageSize: 7, after });
      expect(page.total).toEqual({ count: groups, exact: true });
      after = page.next;
      pages++;
    } while (after);
    expect(pages).toBe(Math.ceil(groups / 7));
  });
});

describe("POST api/rna/: filters", () => {
  const counted = ROWS.filter((f) => f.counted === 1);
  const inV4 = (addr: string, prefix: string, len: number) => {
    const m = /^::ffff:(.*)$/.exec(addr);
    if (!m) return false;
    const n = (s: string) => s.split(".").reduce((a, p) => a * 256 + Number(p), 0);
    const size = 2 ** (32 - len);
    return Math.floor(n(m[1]) / size) === Math.floor(n(prefix) / size);
  };
  const cases: { filter: string; keep: (f: Fixture) => boolean }[] = [
    { filter: "DST_PREFIX:198.51.100.0/25", keep: (f) => inV4(f.dst_addr, "198.51.100.0", 25) },
    { filter: "SRC_PREFIX:2001:db8:a0::/44", keep: (f) => /^2001:db8:a[01]::/.test(f.src_addr) },
    { filter: "PREFIX:10.1.0.0/16", keep: (f) => inV4(f.src_addr, "10.1.0.0", 16) || inV4(f.dst_addr, "10.1.0.0", 16) },
    { filter: "AS_DST:64501", keep: (f) => f.as_dst === 64501 },
    { filter: "AS_SRC:!15169", keep: (f) => f.as_src !== 15169 },
    { filter: "AS:15169", keep: (f) => f.as_src === 15169 || f.as_dst === 15169 },
    { filter: "NEXT_HOP:192.0.2.9", keep: (f) => f.next_hop === "::ffff:192.0.2.9" },
    { filter: "NEXT_HOP:2001:db8:ffff::/48", keep: (f) => f.next_hop.startsWith("2001:db8:ffff:") },
    { filter: "EXPORTER:r2", keep: (f) => f.exporter_name === "r2" },
    { filter: "EXPORTER:192.0.2.1", keep: (f) => f.exporter_address === "::ffff:192.0.2.1" },
    { filter: "DST_PREFIX:198.51.100.0/24@CUST_A", keep: (f) => inV4(f.dst_addr, "198.51.100.0", 24) && f.vrf_name === "CUST_A" },
    // The Looking Glass's 'Show in RNA' for a route of VRF CUST_A's table: each kind scoped to that VRF's flows.
    { filter: "AS_DST:64501@CUST_A", keep: (f) => f.as_dst === 64501 && f.vrf_name === "CUST_A" },
    { filter: "NEXT_HOP:192.0.2.9@CUST_A", keep: (f) => f.next_hop === "::ffff:192.0.2.9" && f.vrf_name === "CUST_A" },
    { filter: "NEXT_HOP:2001:db8:ffff::9@CUST_A", keep: (f) => f.next_hop === "2001:db8:ffff::9" && f.vrf_name === "CUST_A" },
    { filter: "DST_PREFIX:!198.51.100.0/24@CUST_A", keep: (f) => !(inV4(f.dst_addr, "198.51.100.0", 24) && f.vrf_name === "CUST_A") },
    { filter: "AS_DST_INGRESS:64501", keep: (f) => f.as_dst === 64501 && f.as_hnd !== OPERATOR },
    { filter: "IANA_PROTOCOL:!6", keep: (f) => f.protocol !== 6 },
  ];
  for (const c of cases) {
    it(`${c.filter} gives only the matching records`, async () => {
      const pages = await allPages({ ...FULL, enabledColumns: COLUMNS, filters: [c.filter], pageSize: 1000 });
      const rows = pages.flatMap((p) => p.rows);
      const expected = counted.filter(c.keep);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(counted.length);
      expect(sorted(rows.map(identityOfRow))).toEqual(sorted(expected.map(identity)));
    });
  }

  it("expands tags and tag groups in the Flow Explorer's filters, negated too", async () => {
    const tag = async (name: string, dimension: "AS_NUMBER" | "IANA_PROTOCOL", values: string[]) => {
      const [row] = await stores.pg.db.insert(tags).values({ name, dimension }).returning({ id: tags.id });
      await stores.pg.db.insert(tagValues).values(values.map((value) => ({ tagId: row.id, value })));
      return row.id;
    };
    const customers = await tag("Customers", "AS_NUMBER", ["64501", "64502"]);
    const tcp = await tag("TCP", "IANA_PROTOCOL", ["6"]);
    const icmp = await tag("ICMP", "IANA_PROTOCOL", ["1"]);
    const [group] = await stores.pg.db
      .insert(tagGroups)
      .values({ name: "TCP and ICMP", dimension: "IANA_PROTOCOL" })
      .returning({ id: tagGroups.id });
    await stores.pg.db.insert(tagGroupMembers).values([
      { groupId: group.id, tagId: tcp },
      { groupId: group.id, tagId: icmp },
    ]);
    try {
      const checks: { filter: string; keep: (f: Fixture) => boolean }[] = [
        { filter: `AS_DST_INGRESS:#${customers}`, keep: (f) => [64501, 64502].includes(f.as_dst) && f.as_hnd !== OPERATOR },
        { filter: `IANA_PROTOCOL:#g${group.id}`, keep: (f) => f.protocol === 6 || f.protocol === 1 },
        { filter: `IANA_PROTOCOL:!#g${group.id}`, keep: (f) => f.protocol !== 6 && f.protocol !== 1 },
        { filter: `IANA_PROTOCOL:!#${tcp}`, keep: (f) => f.protocol !== 6 },
      ];
      for (const c of checks) {
        const rows = (await allPages({ ...FULL, enabledColumns: COLUMNS, filters: [c.filter], pageSize: 1000 })).flatMap((p) => p.rows);
        const expected = counted.filter(c.keep);
        expect(expected.length, c.filter).toBeGreaterThan(0);
        expect(expected.length, c.filter).toBeLessThan(counted.length);
        expect(sorted(rows.map(identityOfRow)), c.filter).toEqual(sorted(expected.map(identity)));
      }
    } finally {
      await stores.pg.db.delete(tagGroups).where(eq(tagGroups.id, group.id));
      await stores.pg.db.delete(tags).where(inArray(tags.id, [customers, tcp, icmp]));
    }
  });

  it("applies the nfdump expression and names the column of an error", async () => {
    const page = (
      await rna({
        ...FULL,
        enabledColumns: COLUMNS,
        filterExpression: "proto udp and dst port 53 and not src net 10.2.0.0/16",
        pageSize: 1000,
      })
    ).data as RnaPage;
    const expected = counted.filter((f) => f.protocol === 17 && f.dst_port === 53 && !inV4(f.src_addr, "10.2.0.0", 16));
    expect(sorted(page.rows.map(identityOfRow))).toEqual(sorted(expected.map(identity)));
    const bad = await rna({ ...FULL, enabledColumns: COLUMNS, filterExpression: "proto tcp port 80" });
    expect(bad.status).toBe(400);
    expect(bad.data.errors).toEqual([{ field: "filterExpression", message: expect.stringContaining("column 11") }]);
  });

  it("answers bad filters, columns, cursors and ranges with a 400 naming the field", async () => {
    const cases: [object, string][] = [
      [{ ...FULL, enabledColumns: [] }, "enabledColumns"],
      [{ ...FULL, enabledColumns: ["nope"] }, "enabledColumns.0"],
      [{ ...FULL, enabledColumns: ["src_addr"], filters: ["DST_PREFIX:300.1.2.0/24"] }, "filters.0.values.0"],
      [{ ...FULL, enabledColumns: ["src_addr"], filters: [{ dimension: "AS_DST", values: ["64501", "x"] }] }, "filters.0.values.1"],
      [{ ...FULL, enabledColumns: ["src_addr"], filters: ["WHATEVER:1"] }, "filters.0"],
      [{ ...FULL, enabledColumns: ["src_addr"], after: "bm9wZQ" }, "after"],
      [{ ...FULL, enabledColumns: ["src_addr"], sort: { column: "dst_addr", direction: "asc" } }, "sort.column"],
      [{ startTimestamp: 10, endTimestamp: 5, enabledColumns: ["src_addr"] }, "startTimestamp"],
      [{ ...FULL, enabledColumns: ["src_addr"], pageSize: 0 }, "pageSize"],
    ];
    for (const [body, field] of cases) {
      const res = await rna(body);
      expect(res.status, `${field}: ${JSON.stringify(res.data)}`).toBe(400);
      expect(res.data.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    // A cursor of another query, and one whose values were changed: refused, not read.
    const first = (await rna({ ...FULL, enabledColumns: COLUMNS, pageSize: 3 })).data as RnaPage;
    const other = await rna({ ...FULL, enabledColumns: ["src_addr"], after: first.next });
    expect(other.status).toBe(400);
    const forged = JSON.parse(Buffer.from(first.next!, "base64url").toString());
    forged[1][0] = "not a time";
    const tampered = await rna({ ...FULL, enabledColumns: COLUMNS, after: Buffer.from(JSON.stringify(forged)).toString("base64url") });
    expect(tampered.status).toBe(400);
    expect(tampered.data.errors[0].field).toBe("after");
  });

  it("keeps application and infrastructure for RNA_APPLICATIONS_AND_INFRASTRUCTURE, the tags for rnaTagColumn", async () => {
    const app = await rna({ ...FULL, enabledColumns: ["src_addr", "application"] }, cookies.analyst);
    expect(app.status).toBe(400);
    expect(app.data.errors).toEqual([{ field: "enabledColumns.1", message: expect.stringContaining("Application") }]);
    expect((await rna({ ...FULL, enabledColumns: ["src_addr", "tags"] }, cookies.analyst)).status).toBe(400);
    expect((await rna({ ...FULL, enabledColumns: ["src_addr", "application"] })).status).toBe(200);
  });

  it("names in the tags column the tags whose values match the record's ASes, routers or interfaces", async () => {
    const tag = async (name: string, dimension: "AS_NUMBER" | "ROUTER" | "INTERFACE", values: string[]) => {
      const [row] = await stores.pg.db.insert(tags).values({ name, dimension }).returning({ id: tags.id });
      await stores.pg.db.insert(tagValues).values(values.map((value) => ({ tagId: row.id, value })));
      return row.id;
    };
    // The column comes with the feature flag rnaTagColumn: on for everybody while this test runs.
    await stores.pg.db
      .insert(featureFlags)
      .values({ name: "rnaTagColumn", enabledForAll: true })
      .onConflictDoUpdate({ target: featureFlags.name, set: { enabledForAll: true } });
    const ids = [
      await tag("Customer One", "AS_NUMBER", ["64501"]),
      await tag("Router one", "ROUTER", ["r1"]),
      await tag("r2 port 1", "INTERFACE", ["r2|et-0/0/1"]),
    ];
    try {
      const columns = ["time_received", "exporter_name", "src_addr", "dst_addr", "src_port", "dst_port", "as_dst", "in_if", "tags"];
      const answer = await rna({ ...FULL, enabledColumns: columns, pageSize: 1000 });
      expect(answer.status, JSON.stringify(answer.data)).toBe(200);
      const page = answer.data as RnaPage;
      const keyColumns = ["time_received", "exporter_name", "src_addr", "dst_addr", "src_port", "dst_port"] as const;
      const expectedTags = (f: Fixture) =>
        [
          ...([f.as_src, f.as_hnd, f.as_nxt, f.as_dst].includes(64501) ? ["Customer One"] : []),
          ...(f.ingress_router === "r1" ? ["Router one"] : []),
          ...(f.ingress_router === "r2" && f.in_if === "et-0/0/1" ? ["r2 port 1"] : []),
        ]
          .sort()
          .join(", ");
      const expected = ROWS.filter((f) => f.counted === 1).map(
        (f) =>
          `${[f.time_received, f.exporter_name, addressText(f.src_addr), addressText(f.dst_addr), f.src_port, f.dst_port].join(" ")} → ${expectedTags(f)}`,
      );
      const shown = page.rows.map(
        (row) =>
          `${keyColumns.map((c) => row.values[c]).join(" ")} → ${String(row.labels.tags ?? "")
            .split(", ")
            .filter(Boolean)
            .sort()
            .join(", ")}`,
      );
      expect(sorted(shown)).toEqual(sorted(expected));
      // Each tag kind is matched somewhere in the fixture.
      for (const name of ["Customer One", "Router one", "r2 port 1"])
        expect(
          shown.some((s) => s.includes(name)),
          name,
        ).toBe(true);
    } finally {
      for (const id of ids) await stores.pg.db.delete(tags).where(eq(tags.id, id));
      await stores.pg.db.update(featureFlags).set({ enabledForAll: false }).where(eq(featureFlags.name, "rnaTagColumn"));
    }
  });

  it("needs RAW_NETWORK_ANALYZER, which a delegated account may hold", async () => {
    expect((await rna({ ...FULL, enabledColumns: ["src_addr"] }, cookies.none)).status).toBe(403);
    // RAW_NETWORK_ANALYZER is delegable: a delegated account given it reads the records inside its restriction only.
    const delegated = await rna({ ...FULL, enabledColumns: COLUMNS, pageSize: 1000 }, cookies.delegated);
    expect(delegated.status).toBe(200);
    const inside = ROWS.filter((f) => f.counted === 1 && f.as_dst === 64501 && f.as_hnd !== OPERATOR);
    expect(sorted((delegated.data as RnaPage).rows.map(identityOfRow))).toEqual(sorted(inside.map(identity)));
  });
});

describe("a restricted account", () => {
  const inside = (f: Fixture) => f.as_dst === 64501 && f.as_hnd !== OPERATOR;
  it("sees only the records inside its restriction, whatever it filters", async () => {
    const page = (await rna({ ...FULL, enabledColumns: COLUMNS, pageSize: 1000 }, cookies.restricted)).data as RnaPage;
    const expected = ROWS.filter((f) => f.counted === 1 && inside(f));
    expect(sorted(page.rows.map(identityOfRow))).toEqual(sorted(expected.map(identity)));
    const widened = await rna({ ...FULL, enabledColumns: COLUMNS, filters: ["AS_DST_INGRESS:64502"] }, cookies.restricted);
    expect(widened.status).toBe(400);
    const other = await rna({ ...FULL, enabledColumns: COLUMNS, filters: ["AS_HND_INGRESS:3356"] }, cookies.restricted);
    expect(other.status).toBe(403);
    const raw = (await rna({ ...FULL, enabledColumns: COLUMNS, filters: ["AS_DST:64502"], pageSize: 1000 }, cookies.restricted))
      .data as RnaPage;
    expect(raw.rows).toEqual([]);
  });

  it("reads nothing outside it in the timeseries, even for forged page keys", async () => {
    const outsider = ROWS.find(
      (f) => f.counted === 1 && !dropped(f) && !inside(f) && !ROWS.some((g) => g.src_addr === f.src_addr && inside(g)),
    )!;
    const forgedKey = Buffer.from(JSON.stringify({ src_addr: outsider.src_addr })).toString("base64url");
    const body = {
      epochStart: FULL.startTimestamp,
      epochEnd: FULL.endTimestamp,
      filters: [],
      groupedColumn: "src_addr",
      currentPageData: [forgedKey],
    };
    const admin = await series(body);
    expect(admin.status, JSON.stringify(admin.data)).toBe(200);
    const adminBits = admin.data.series[0].values.reduce((a: number, v: number) => a + v, 0);
    expect(adminBits).toBeGreaterThan(0);
    const restricted = await series(body, cookies.restricted);
    expect(restricted.status).toBe(200);
    expect(restricted.data.series[0].values.every((v: number) => v === 0)).toBe(true);
    const garbage = await series({ ...body, currentPageData: ["x", forgedKey] });
    expect(garbage.status).toBe(400);
    expect(garbage.data.errors[0].field).toBe("currentPageData.0");
  });
});

describe("POST api/rna/timeseries/", () => {
  it("gives bit/s per bucket for each value of the grouped column among the page's rows", async () => {
    const page = (
      await rna({ ...FULL, enabledColumns: ["dst_addr", "protocol", "bytes_scaled"], aggregationPrefixes: { v4: 24, v6: 48 }, pageSize: 5 })
    ).data as RnaPage;
    const res = await series({
      epochStart: FULL.startTimestamp,
      epochEnd: FULL.endTimestamp,
      aggregationPrefixes: { v4: 24, v6: 48 },
      filters: [],
      groupedColumn: "protocol",
      currentPageData: page.rows,
    });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    const protocols = [...new Set(page.rows.map((r) => String(r.values.protocol)))];
    expect(res.data.series.map((s: { key: string }) => s.key)).toEqual(protocols);
    const window = res.data.window as number;
    for (const s of res.data.series as { key: string; label: string; values: number[] }[]) {
      const expected = (res.data.buckets as number[]).map(
        (b) =>
          (ROWS.filter(
            (f) => f.counted === 1 && !dropped(f) && String(f.protocol) === s.key && f.time_received >= b && f.time_received < b + window,
          ).reduce((a, f) => a + f.bytes * f.sampling_rate, 0) *
            8) /
          window,
      );
      s.values.forEach((v, i) => expect(v).toBeCloseTo(expected[i], 6));
    }
    expect(res.data.series.find((s: { key: string }) => s.key === "6")?.label ?? "TCP").toBe("TCP");
  });
});

describe("the raw-flow database override and the row limit", () => {
  it("reads flows_raw from the user's raw-flow database, and GET api/rna/dateswithdata/ too", async () => {
    const dates = await served(datesRoute.loader, getRequest("/api/rna/dateswithdata/", cookies.admin));
    expect(dates.data).toEqual([{ minTimestamp: FIRST, maxTimestamp: LAST }]);
    await chCommand(stores.ch, { name: "test.archive", sql: "CREATE DATABASE IF NOT EXISTS raw_archive" });
    await chCommand(stores.ch, { name: "test.archive", sql: "CREATE TABLE IF NOT EXISTS raw_archive.flows_raw AS flows_raw" });
    await chCommand(stores.ch, {
      name: "test.archive",
      sql: "INSERT INTO raw_archive.flows_raw (time_received, exporter_name, bytes, packets, sampling_rate, src_addr) VALUES (toDateTime({t:UInt32}, 'UTC'), 'archive', 7, 1, 3, toIPv6('::ffff:203.0.113.7'))",
      params: { t: LAST - 10 },
    });
    await stores.pg.db.update(users).set({ overrideClickhouseRawFlowDb: "raw_archive" }).where(eq(users.email, "admin@rna.test"));
    try {
      const page = (await rna({ ...FULL, enabledColumns: ["exporter_name", "src_addr", "bytes_scaled"], pageSize: 1000 })).data as RnaPage;
      expect(page.rows.map((r) => [r.values.exporter_name, r.values.src_addr, r.values.bytes_scaled])).toEqual([
        ["archive", "203.0.113.7", 21],
      ]);
      expect(page.sums).toEqual({ bytes: 21, packets: 3, flows: 1 });
      const archived = await served(datesRoute.loader, getRequest("/api/rna/dateswithdata/", cookies.admin));
      expect(archived.data).toEqual([{ minTimestamp: LAST - 10, maxTimestamp: LAST - 10 }]);
      // Another user still reads the application's database.
      const analyst = (await rna({ ...FULL, enabledColumns: ["exporter_name"], pageSize: 1 }, cookies.analyst)).data as RnaPage;
      expect(analyst.sums.flows).toBe(ROWS.filter((f) => f.counted === 1 && !dropped(f)).length);
    } finally {
      await stores.pg.db.update(users).set({ overrideClickhouseRawFlowDb: null }).where(eq(users.email, "admin@rna.test"));
    }
  });

  it("answers a query past RNA_MAX_ROWS_TO_READ with the too-broad answer instead of running on", async () => {
    const config = stores.config as { RNA_MAX_ROWS_TO_READ: number };
    const before = config.RNA_MAX_ROWS_TO_READ;
    config.RNA_MAX_ROWS_TO_READ = 10;
    try {
      const res = await rna({ ...FULL, enabledColumns: ["src_addr"] });
      expect(res.status).toBe(503);
      expect(res.data.exception_code).toBe("query_too_broad");
      expect(res.data.detail).toContain("more than 10 rows");
    } finally {
      config.RNA_MAX_ROWS_TO_READ = before;
    }
  });
});

it("clamps a range before the records' TTL to the first record, saying so", async () => {
  const res = await rna({ startTimestamp: NOW - 30 * 86_400, endTimestamp: NOW, enabledColumns: ["src_addr"], pageSize: 1 });
  expect(res.status).toBe(200);
  const page = res.data as RnaPage;
  expect(page.range).toEqual({ start: FIRST, end: LAST + 1 });
  expect(page.notices.join(" ")).toMatch(/^Start date unavailable: raw flow records are kept for 7 days/);
  void restrictedId;
});

it("moves a range after the last record to the last 30 minutes of records, with their rows and sums", async () => {
  // The sums are first read over the range asked for; a range without records is read again where it moved.
  const res = await rna({ startTimestamp: LAST + 3600, endTimestamp: LAST + 7200, enabledColumns: COLUMNS, pageSize: 1000 });
  expect(res.status).toBe(200);
  const page = res.data as RnaPage;
  expect(page.notices.join(" ")).toMatch(/^No data for the chosen start or end: the time range is set to the last 30 minutes/);
  expect(page.range).toEqual({ start: LAST + 1 - 1800, end: LAST + 1 });
  const inside = ROWS.filter((f) => f.counted === 1 && f.time_received >= page.range.start && f.time_received < page.range.end);
  expect(inside.length).toBeGreaterThan(0);
  expect(sorted(page.rows.map(identityOfRow))).toEqual(sorted(inside.map(identity)));
  expect(page.sums.flows + page.dropped.flows).toBe(inside.length);
  expect(page.sums.bytes).toBe(inside.filter((f) => !dropped(f)).reduce((a, f) => a + f.bytes * f.sampling_rate, 0));
});
