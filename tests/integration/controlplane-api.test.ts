/**
 * api/controlplane/ and api/controlplane/dateswithdata/ on chDB with routing history this test
 * inserts into rib_entries, checked against a filter of the same rows in TypeScript (time range,
 * prefix containment by the demo generator's BigInt helpers, AS path patterns by hand-written
 * expectations); access and validation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePrefix } from "~db/demo/addresses";
import type { RibRow } from "~db/demo/rib";
import { userPermissions, users } from "~db/postgres/schema";
import { controlPlaneQuery } from "~/features/routing/controlplane.server";
import * as controlPlaneRoute from "~/routes/api.controlplane";
import * as datesRoute from "~/routes/api.controlplane.dateswithdata";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { chInsert } from "~/server/clickhouse/query.server";

const T0 = 1_790_000_000;
const HOUR = 3600;

function row(vp: string, prefix: string, timestamp: number, extra: Partial<RibRow> = {}): RibRow {
  const parsed = parsePrefix(prefix);
  return {
    timestamp,
    vantage_point: vp,
    router_ip: vp === "fra1" ? "192.0.2.1" : "192.0.2.3",
    peer_ip: "198.51.100.1",
    peer_asn: 3356,
    route_distinguisher: "",
    prefix,
    prefix_addr: prefix.split("/")[0],
    prefix_len: parsed.length,
    afi: parsed.family === 4 ? 1 : 2,
    safi: 1,
    is_withdrawn: 0,
    as_path: [3356, 64511],
    as_path_set: [],
    as_confed_seq: [],
    local_pref: 100,
    med: 0,
    bgp_next_hop: "198.51.100.1",
    origin: "IGP",
    aggregator: "",
    originator_id: "",
    communities: ["64500:100"],
    expire_at: 0,
    ...extra,
  };
}

const ROWS: RibRow[] = [
  row("fra1", "10.0.0.0/8", T0, { as_path: [1299] }),
  row("fra1", "10.1.2.0/24", T0 + 10 * 60),
  row("fra1", "10.1.2.0/24", T0 + HOUR + 5 * 60, { is_withdrawn: 1, as_path: [] }),
  row("fra1", "10.1.2.0/24", T0 + 2 * HOUR, { as_path: [174, 64511], peer_ip: "198.51.100.7", local_pref: 150 }),
  row("ber1", "10.1.0.0/16", T0 + HOUR + 30 * 60, {
    as_path: [3320, 64511],
    as_path_set: [64512, 64513],
    as_confed_seq: [65001],
    aggregator: "64511 203.0.113.1",
    originator_id: "192.0.2.9",
    communities: ["64500:100", "64500:1:3320"],
    origin: "INCOMPLETE",
    med: 5,
    expire_at: T0 + 48 * HOUR,
  }),
  row("ber1", "2001:db8::/32", T0 + 3 * HOUR, { as_path: [6939], bgp_next_hop: "2001:db8:ffff::1" }),
  row("ber1", "192.168.0.0/16", T0 + 4 * HOUR, { as_path: [] }),
];

function contains(prefix: string, inner: string): boolean {
  const outer = parsePrefix(prefix);
  const target = parsePrefix(inner.includes("/") ? inner : `${inner}/${inner.includes(":") ? 128 : 32}`);
  if (outer.family !== target.family || target.length < outer.length) return false;
  const shift = BigInt((outer.family === 4 ? 32 : 128) - outer.length);
  return outer.base >> shift === target.base >> shift;
}

const inRange = (start: number, end: number) => ROWS.filter((r) => r.timestamp >= start && r.timestamp <= end);
const ids = (rows: { timestamp: number; prefix: string; withdrawn?: boolean; is_withdrawn?: number }[]) =>
  rows.map((r) => `${r.timestamp} ${r.prefix} ${(r.withdrawn ?? r.is_withdrawn === 1) ? "W" : "A"}`).sort();

let stores: TestStores;
const uid = { cp: 0, noCp: 0 };

async function createUser(email: string, permissions: "CONTROL_PLANE"[]) {
  const [r] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: r.id, permission })));
  return r.id;
}

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  uid.cp = await createUser("cp@cp.test", ["CONTROL_PLANE"]);
  uid.noCp = await createUser("nocp@cp.test", []);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const query = async (body: unknown, userId = uid.cp) => {
  const res = await callRoute(controlPlaneRoute, "/api/controlplane/", {
    method: "POST",
    cookie: userId ? await sessionCookie(stores, userId) : undefined,
    body,
  });
  return { status: res.status, data: await res.json() };
};
const dates = async (userId = uid.cp) => {
  const res = await callRoute(datesRoute, "/api/controlplane/dateswithdata/", {
    cookie: userId ? await sessionCookie(stores, userId) : undefined,
  });
  return { status: res.status, data: await res.json() };
};

describe("control plane", () => {
  it("dates with data: nulls while the history is empty, then its first and last timestamp", async () => {
    expect(await dates()).toEqual({ status: 200, data: [{ minTimestamp: null, maxTimestamp: null }] });
    await chInsert(stores.ch, { name: "test.fixture", table: "rib_entries", values: ROWS });
    const res = await dates();
    expect(res.data).toEqual([
      { minTimestamp: Math.min(...ROWS.map((r) => r.timestamp)), maxTimestamp: Math.max(...ROWS.map((r) => r.timestamp)) },
    ]);
  });

  it("a prefix in a range: the prefix and its more-specifics, withdrawals included, newest first", async () => {
    const start = T0 + HOUR;
    const end = T0 + 2 * HOUR;
    const res = await query({ queryType: "IpPrefixQuery", queryTerm: "10.0.0.0/8", startDate: start, endDate: end });
    expect(res.status).toBe(200);
    const model = inRange(start, end).filter((r) => contains("10.0.0.0/8", r.prefix));
    expect(ids(res.data.data.data)).toEqual(ids(model));
    expect(ids(res.data.data.data)).toEqual([
      `${T0 + HOUR + 300} 10.1.2.0/24 W`,
      `${T0 + HOUR + 1800} 10.1.0.0/16 A`,
      `${T0 + 2 * HOUR} 10.1.2.0/24 A`,
    ]);
    const times = res.data.data.data.map((r: { timestamp: number }) => r.timestamp);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(res.data.data.results_limit).toBeNull();
  });

  it("an address: every prefix covering it; the range ends are included", async () => {
    const res = await query({ queryType: "IP_PREFIX_QUERY", queryTerm: "10.1.2.3", startDate: T0, endDate: T0 + 10 * 60 });
    expect(ids(res.data.data.data)).toEqual(ids(inRange(T0, T0 + 600).filter((r) => contains(r.prefix, "10.1.2.3"))));
    expect(res.data.data.data).toHaveLength(2);
  });

  it("an AS path pattern: matching announcements", async () => {
    const res = await query({ queryType: "AsPathQuery", queryTerm: "* 64511", startDate: T0, endDate: T0 + 5 * HOUR });
    expect(ids(res.data.data.data)).toEqual(
      [`${T0 + 600} 10.1.2.0/24 A`, `${T0 + HOUR + 1800} 10.1.0.0/16 A`, `${T0 + 2 * HOUR} 10.1.2.0/24 A`].sort(),
    );
    const empty = await query({ queryType: "AsPathQuery", queryTerm: "", startDate: T0, endDate: T0 + 5 * HOUR });
    expect(ids(empty.data.data.data)).toEqual([`${T0 + 4 * HOUR} 192.168.0.0/16 A`]);
  });

  it("rows carry the spec's fields", async () => {
    const res = await query({
      queryType: "IpPrefixQuery",
      queryTerm: "10.1.0.0/16",
      startDate: T0 + HOUR + 1800,
      endDate: T0 + HOUR + 1800,
    });
    expect(res.data.data.data).toEqual([
      {
        timestamp: T0 + HOUR + 1800,
        IP: "192.0.2.3",
        prefix: "10.1.0.0/16",
        ASPathSeq: "3320 64511",
        localPref: 100,
        BGPNextHop: "198.51.100.1",
        AFI: 1,
        SAFI: 1,
        ASConfedSeq: "65001",
        ASPathSet: "64512 64513",
        Aggregator: "64511 203.0.113.1",
        Origin: "INCOMPLETE",
        Originator: "192.0.2.9",
        communityIndex: "64500:100 64500:1:3320",
        expireMgmt: T0 + 48 * HOUR,
        vantagePoint: "ber1",
        withdrawn: false,
        ribView: "post-policy",
      },
    ]);
  });

  it("IPv6, and a capped answer counts what it left out", async () => {
    const v6 = await query({ queryType: "IpPrefixQuery", queryTerm: "2001:db8:0:1::1", startDate: T0, endDate: T0 + 5 * HOUR });
    expect(ids(v6.data.data.data)).toEqual([`${T0 + 3 * HOUR} 2001:db8::/32 A`]);
    const capped = await controlPlaneQuery(stores, {
      queryType: "AsPathQuery",
      queryTerm: "*",
      startDate: T0,
      endDate: T0 + 5 * HOUR,
      limit: 2,
    });
    expect(capped.data).toHaveLength(2);
    expect(capped.results_limit).toBe(2);
    expect(capped.results_maximum).toBe(ROWS.filter((r) => r.is_withdrawn === 0).length);
  });

  it.each([
    [{ queryType: "IpPrefixQuery", queryTerm: "10.0.0.0/8", startDate: T0 + 10, endDate: T0 }, "The end date is before the start date."],
    [{ queryType: "IpPrefixQuery", queryTerm: "10.0.0.0/99", startDate: T0, endDate: T0 + 10 }, "Network is not a CIDR or IP"],
    [
      { queryType: "PingQuery", queryTerm: "10.0.0.1", startDate: T0, endDate: T0 + 10 },
      "PingQuery is a network command: use api/netcommand/.",
    ],
    [{ queryType: "IpPrefixQuery", queryTerm: "10.0.0.0/8", startDate: "yesterday", endDate: T0 }, "Invalid request body."],
    [{ queryType: "IpPrefixQuery", queryTerm: "10.0.0.0/8", endDate: T0 }, "Invalid request body."],
    [
      { queryType: "IpPrefixQuery", queryTerm: "10.0.0.0/8", startDate: T0, endDate: T0 + 10, ribView: "adj-rib-out" },
      'Unknown RIB view "adj-rib-out": use default, pre-policy, post-policy, loc-rib.',
    ],
  ])("%j → 400 %s", async (body, detail) => {
    const res = await query(body);
    expect(res.status).toBe(400);
    expect(res.data.detail).toBe(detail);
  });

  it("dates as strings of digits are accepted", async () => {
    const res = await query({ queryType: "IpPrefixQuery", queryTerm: "10.0.0.0/8", startDate: String(T0), endDate: String(T0 + 600) });
    expect(res.status).toBe(200);
    expect(res.data.data.data).toHaveLength(2);
  });

  it("access: CONTROL_PLANE only", async () => {
    expect((await query({}, uid.noCp)).data.exception_code).toBe("permission_denied");
    expect((await dates(uid.noCp)).data.exception_code).toBe("permission_denied");
    expect((await query({}, 0)).data.exception_code).toBe("not_authenticated");
    expect((await dates(0)).data.exception_code).toBe("not_authenticated");
  });
});
