/**
 * The Looking Glass screens' loaders and the export on chDB with routing rows inserted here: the
 * private screen needs PRIVATE_LOOKING_GLASS; the public page answers 404 unless enabled, lists
 * only public vantage points and never the private-only columns; both answer the URL state on
 * the server (what the page shows without JavaScript), checked against the inserted rows.
 */
import { eq } from "drizzle-orm";
import * as XLSX from "xlsx";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { parsePrefix } from "~db/demo/addresses";
import type { RibRow } from "~db/demo/rib";
import {
  delegationRestrictions,
  featureFlags,
  netcommandJobs,
  routers,
  routerVrfs,
  siteSettings,
  userPermissions,
  users,
  userSettings,
  vantagePoints,
} from "~db/postgres/schema";
import { flattenRunRows } from "~/features/lookingglass/run-rows";
import { publicQueryCache, publicQueryLimiter } from "~/features/routing/lookingglass-cache.server";
import { MESSAGES } from "~/lib/messages";
import * as exportRoute from "~/routes/api.lookingglass_.export";
import * as privateRoute from "~/routes/_app.lookingglass";
import * as publicRoute from "~/routes/public.lookingglass";
import * as indexRoute from "~/routes/_index";
import { useServicesForTests } from "~/server/services.server";
import { readCsv } from "../helpers/csv";
import { getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { chInsert } from "~/server/clickhouse/query.server";

const T0 = 1_790_000_000;
const VPS = [
  {
    key: "fra1",
    city: "Frankfurt",
    country: "Germany",
    router: "fra-er1",
    ip: "192.0.2.1",
    isPublic: true,
    description: "Frankfurt, Germany",
    legacyDescription: "FRA-ER1 Frankfurt",
  },
  {
    key: "fra2",
    city: "Frankfurt",
    country: "Germany",
    router: "fra-er2",
    ip: "192.0.2.2",
    isPublic: true,
    description: "Frankfurt, Germany",
    legacyDescription: "FRA-ER2 Frankfurt",
  },
  {
    key: "ham1",
    city: "Hamburg",
    country: "Germany",
    router: "ham-er1",
    ip: "192.0.2.4",
    isPublic: false,
    description: "Hamburg, Germany",
    legacyDescription: "HAM-ER1 Hamburg",
  },
];

function rib(vp: string, prefix: string, extra: Partial<RibRow> = {}): RibRow {
  const parsed = parsePrefix(prefix);
  return {
    timestamp: T0,
    vantage_point: vp,
    router_ip: VPS.find((v) => v.key === vp)!.ip,
    peer_ip: "198.51.100.1",
    peer_asn: 3356,
    route_distinguisher: "",
    prefix,
    prefix_addr: prefix.split("/")[0],
    prefix_len: parsed.length,
    afi: 1,
    safi: 1,
    is_withdrawn: 0,
    as_path: [3356, 15169],
    as_path_set: [],
    as_confed_seq: [],
    local_pref: 100,
    med: 0,
    bgp_next_hop: "198.51.100.1",
    origin: "IGP",
    aggregator: "",
    originator_id: "192.0.2.9",
    communities: ["64500:100"],
    expire_at: 0,
    ...extra,
  };
}

// 10.1.2.0/24 on every vantage point (different paths), a covering /16 on fra1 only.
const ROWS: RibRow[] = [
  rib("fra1", "10.1.0.0/16", { as_path: [1299] }),
  rib("fra1", "10.1.2.0/24", { as_path: [3356, 64511], local_pref: 150 }),
  rib("fra2", "10.1.2.0/24", { as_path: [174, 64511] }),
  rib("ham1", "10.1.2.0/24", { as_path: [2914, 64511], communities: ["64500:1", "64500:2"] }),
];

let stores: TestStores;
const cookies = { lg: "", noLg: "" };

async function createUser(email: string, permissions: "PRIVATE_LOOKING_GLASS"[]) {
  const [row] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
  return sessionCookie(stores, row.id);
}

const setPublic = (on: boolean) => stores.pg.db.update(siteSettings).set({ publicLookingGlassEnabled: on }).where(eq(siteSettings.id, 1));
const query = (state: Record<string, string>) => new URLSearchParams(state).toString();

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  await stores.pg.db.insert(vantagePoints).values(VPS);
  await chInsert(stores.ch, { name: "test.fixture", table: "rib_entries", values: ROWS });
  cookies.lg = await createUser("lg@screens.test", ["PRIVATE_LOOKING_GLASS"]);
  cookies.noLg = await createUser("nolg@screens.test", []);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

beforeEach(() => {
  publicQueryCache.clear();
  publicQueryLimiter.clear();
});

describe("private Looking Glass screen", () => {
  it("sends visitors to login and users without PRIVATE_LOOKING_GLASS away", async () => {
    const anonymous = await runRoute(privateRoute.loader, getRequest("/lookingglass"));
    expect(anonymous.location).toBe("/login?next=%2Flookingglass");
    const denied = await runRoute(privateRoute.loader, getRequest("/lookingglass", cookies.noLg));
    expect(denied.status).toBe(302);
    expect(denied.location).not.toContain("/lookingglass");
  });

  it("lists every vantage point by 'Router City, Country' and shows the before-submit state", async () => {
    const { status, data } = await runRoute(privateRoute.loader, getRequest("/lookingglass", cookies.lg));
    expect(status).toBe(200);
    expect(data.page.vantagePoints.map((v: { display_name: string }) => v.display_name)).toEqual([
      "fra-er1 Frankfurt, Germany",
      "fra-er2 Frankfurt, Germany",
      "ham-er1 Hamburg, Germany",
    ]);
    expect(data.page.submitted).toBe(false);
    expect(data.page.run.status).toBe("IDLE");
  });

  it("answers the URL state on the server: the longest match per vantage point, with the private columns", async () => {
    const url = `/lookingglass?${query({ selectedVantagePoints: '["all"]', queryType: "IP_PREFIX_QUERY", queryTerm: " 10.1.2.3 " })}`;
    const { data } = await runRoute(privateRoute.loader, getRequest(url, cookies.lg));
    expect(data.page.state.queryType).toBe("IpPrefixQuery");
    expect(data.page.run.status).toBe("COMPLETED");
    const rows = flattenRunRows(data.page.run);
    // Independent expectation: every vantage point holds 10.1.2.0/24, the most specific cover of 10.1.2.3.
    const expected = ROWS.filter((r) => r.prefix === "10.1.2.0/24").map((r) => ({ vp: r.vantage_point, path: r.as_path.join(" ") }));
    expect(rows.map((r) => r["BGP as_path"]).sort()).toEqual(expected.map((e) => e.path).sort());
    expect(rows.every((r) => r.Prefix === "10.1.2.0/24")).toBe(true);
    const ham = rows.find((r) => r.VantagePoint === "ham-er1 Hamburg, Germany")!;
    expect(ham["BGP community"]).toBe("64500:1 64500:2");
    expect(ham["BGP originator_id"]).toBe("192.0.2.9");
  });

  it("keeps only the named vantage points that exist, and reports a bad term on the input", async () => {
    const url = `/lookingglass?${query({ selectedVantagePoints: JSON.stringify(["fra-er2 Frankfurt, Germany", "nowhere"]), queryType: "IpPrefixQuery", queryTerm: "10.1.2.300" })}`;
    const { data } = await runRoute(privateRoute.loader, getRequest(url, cookies.lg));
    expect(data.page.state.selectedVantagePoints).toEqual(["fra-er2 Frankfurt, Germany"]);
    expect(data.page.termError).toBe(MESSAGES.invalidNetwork);
    expect(data.page.run.status).toBe("IDLE");
  });

  it("gives NoData with one error notice when nothing matches: none of the selected vantage points, or the one asked", async () => {
    const url = `/lookingglass?${query({ selectedVantagePoints: '["all"]', queryType: "IpPrefixQuery", queryTerm: "172.16.0.1" })}`;
    const { data } = await runRoute(privateRoute.loader, getRequest(url, cookies.lg));
    expect(data.page.run.status).toBe("NO_DATA");
    expect(data.page.run.notices).toEqual([
      { kind: "error", message: "None of the selected vantage points has data for this search. Try with other parameters." },
    ]);
    const one = `/lookingglass?${query({ selectedVantagePoints: '["fra1"]', queryType: "IpPrefixQuery", queryTerm: "172.16.0.1" })}`;
    const single = await runRoute(privateRoute.loader, getRequest(one, cookies.lg));
    expect(single.data.page.run.notices).toEqual([
      { kind: "error", message: "No data found for search at fra-er1 Frankfurt, Germany. Try with other parameters." },
    ]);
  });

  it("names every vantage point without data in one warning when others had rows", async () => {
    const url = `/lookingglass?${query({ selectedVantagePoints: '["all"]', queryType: "IpPrefixQuery", queryTerm: "10.1.0.1" })}`;
    const { data } = await runRoute(privateRoute.loader, getRequest(url, cookies.lg));
    expect(data.page.run.status).toBe("COMPLETED");
    expect(data.page.run.notices).toEqual([
      { kind: "warning", message: "No data found for search at fra-er2 Frankfurt, Germany and ham-er1 Hamburg, Germany." },
    ]);
  });
});

describe("'Show in RNA' and the routers' VRFs", () => {
  it("gives the page the VRFs of the routers of the vantage points the user may read, for the VRF scope of the links", async () => {
    for (const [name, vrf, rd] of [
      ["fra-er1", "CUST_A", "64500:1"],
      ["ham-er1", "CUST_H", "192.0.2.4:9"],
    ]) {
      const [router] = await stores.pg.db
        .insert(routers)
        .values({ name, city: "Somewhere", country: "Germany", loopback: "198.51.100.250" })
        .returning({ id: routers.id });
      await stores.pg.db.insert(routerVrfs).values({ routerId: router.id, name: vrf, routeDistinguisher: rd });
    }
    const insert = async (email: string, extra: Partial<typeof users.$inferInsert>) => {
      const [row] = await stores.pg.db
        .insert(users)
        .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true, ...extra })
        .returning({ id: users.id });
      await stores.pg.db
        .insert(userPermissions)
        .values(["PRIVATE_LOOKING_GLASS", "RAW_NETWORK_ANALYZER"].map((permission) => ({ userId: row.id, permission })));
      return row.id;
    };
    const analyst = await insert("rna@screens.test", {});
    const delegated = await insert("delegated-rna@screens.test", { isDelegated: true, delegatedById: analyst });
    await stores.pg.db.insert(delegationRestrictions).values({
      userId: delegated,
      flowsViewsRestrictions: [],
      externalLinksViewsRestrictions: { ASNumberList: [], routerList: ["fra-er1"], interfaceList: [] },
    });
    const rnaOf = async (userId: number) =>
      (await runRoute(privateRoute.loader, getRequest("/lookingglass", await sessionCookie(stores, userId)))).data.rna;
    expect((await rnaOf(analyst)).vrfs).toEqual([
      { router: "fra-er1", name: "CUST_A", rd: "64500:1" },
      { router: "ham-er1", name: "CUST_H", rd: "192.0.2.4:9" },
    ]);
    // A delegated account: only its routers' VRFs, as only their vantage points.
    expect((await rnaOf(delegated)).vrfs).toEqual([{ router: "fra-er1", name: "CUST_A", rd: "64500:1" }]);
    // Without RAW_NETWORK_ANALYZER there is no 'Show in RNA', and nothing of the VRFs.
    expect((await runRoute(privateRoute.loader, getRequest("/lookingglass", cookies.lg))).data.rna).toBeNull();
  });
});

describe("public Looking Glass page", () => {
  it("is not found while the site setting is off", async () => {
    await setPublic(false);
    const { status } = await runRoute(publicRoute.loader, getRequest("/public/lookingglass"));
    expect(status).toBe(404);
  });

  it("shows only public vantage points as 'City, Country' with numbers for a shared city", async () => {
    await setPublic(true);
    const { status, data } = await runRoute(publicRoute.loader, getRequest("/public/lookingglass"));
    expect(status).toBe(200);
    expect(data.page.vantagePoints.map((v: { display_name: string }) => v.display_name)).toEqual([
      "Frankfurt, Germany 1",
      "Frankfurt, Germany 2",
    ]);
  });

  it("answers a GET form submission (one parameter per box) without private vantage points or columns", async () => {
    await setPublic(true);
    const search = new URLSearchParams([
      ["selectedVantagePoints", "Frankfurt, Germany 1"],
      ["selectedVantagePoints", "Frankfurt, Germany 2"],
      ["selectedVantagePoints", "ham-er1 Hamburg, Germany"],
      ["queryType", "IpPrefixQuery"],
      ["queryTerm", "10.1.2.0/24"],
    ]);
    const { data } = await runRoute(publicRoute.loader, getRequest(`/public/lookingglass?${search}`));
    expect(data.page.state.selectedVantagePoints).toEqual(["Frankfurt, Germany 1", "Frankfurt, Germany 2"]);
    const rows = flattenRunRows(data.page.run);
    expect(rows.map((r) => r.VantagePoint).sort()).toEqual(["Frankfurt, Germany 1", "Frankfurt, Germany 2"]);
    for (const row of rows) {
      expect(row).not.toHaveProperty("BGP community");
      expect(row).not.toHaveProperty("BGP originator_id");
    }
    expect(rows.find((r) => r.VantagePoint === "Frankfurt, Germany 1")!["BGP local_pref"]).toBe(150);
  });

  it("the public-lg deployment opens on it at / (query kept), whatever the site setting", async () => {
    await setPublic(false);
    stores.config.APP_VARIANT = "public-lg";
    try {
      const root = await runRoute(indexRoute.loader, getRequest("/?queryType=IpPrefixQuery&queryTerm=10.1.2.0%2F24"));
      expect(root.location).toBe("/public/lookingglass?queryType=IpPrefixQuery&queryTerm=10.1.2.0%2F24");
      expect((await runRoute(publicRoute.loader, getRequest("/public/lookingglass"))).status).toBe(200);
    } finally {
      stores.config.APP_VARIANT = "analytics";
    }
  });

  it("offers no ping or traceroute unless canInvokeNetcommandApi is on for everybody", async () => {
    await setPublic(true);
    const { data } = await runRoute(publicRoute.loader, getRequest("/public/lookingglass?queryType=PING_QUERY&queryTerm=192.0.2.1"));
    expect(data.page.canInvokeNetcommandApi).toBe(false);
    expect(data.page.state.queryType).toBe("AsPathQuery");
  });
});

describe("ping without JavaScript", () => {
  it("starts a job per vantage point, waits, then refreshes to a URL that reads the same jobs", async () => {
    await setPublic(true);
    await stores.pg.db.update(featureFlags).set({ enabledForAll: true }).where(eq(featureFlags.name, "canInvokeNetcommandApi"));
    try {
      const search = query({ selectedVantagePoints: '["all"]', queryType: "PING_QUERY", queryTerm: "1.1.1.1" });
      const first = await runRoute(publicRoute.loader, getRequest(`/public/lookingglass?${search}`));
      expect(first.data.page.canInvokeNetcommandApi).toBe(true);
      // No job runner in this process: the jobs are still pending after the wait.
      expect(
        first.data.page.jobs.map((j: { vantagePoint: string; ip: string; destination: string; state: string }) => [
          j.vantagePoint,
          j.ip,
          j.destination,
          j.state,
        ]),
      ).toEqual([
        ["Frankfurt, Germany 1", "192.0.2.1", "1.1.1.1", "PENDING"],
        ["Frankfurt, Germany 2", "192.0.2.2", "1.1.1.1", "PENDING"],
      ]);
      expect(first.data.page.run.status).toBe("PENDING");
      const refresh: string = first.data.page.refreshUrl;
      const ids = JSON.parse(new URL(refresh, "http://x").searchParams.get("jobs")!);
      const stored = await stores.pg.db.select({ id: netcommandJobs.id }).from(netcommandJobs);
      expect(stored.map((r) => r.id).sort()).toEqual(Object.values(ids).sort());
      await stores.pg.db.update(netcommandJobs).set({ state: "SUCCESS", result: "4 packets transmitted, 4 received" });
      const second = await runRoute(publicRoute.loader, getRequest(refresh));
      expect(second.data.page.jobs.map((j: { state: string; result: string }) => [j.state, j.result])).toEqual([
        ["SUCCESS", "4 packets transmitted, 4 received"],
        ["SUCCESS", "4 packets transmitted, 4 received"],
      ]);
      expect(second.data.page.run.status).toBe("COMPLETED");
      expect(second.data.page.refreshUrl).toBeNull();
      expect(await stores.pg.db.select({ id: netcommandJobs.id }).from(netcommandJobs)).toHaveLength(2);
    } finally {
      await stores.pg.db.update(featureFlags).set({ enabledForAll: false }).where(eq(featureFlags.name, "canInvokeNetcommandApi"));
    }
  }, 60_000);
});

describe("Looking Glass export", () => {
  const state = query({ selectedVantagePoints: '["all"]', queryType: "IpPrefixQuery", queryTerm: "10.1.2.0/24" });

  it("exports the public table as csv without the private columns", async () => {
    await setPublic(true);
    const res = await runRoute(exportRoute.loader, getRequest(`/api/lookingglass/export?${state}&variant=public&format=csv`));
    expect(res.status).toBe(200);
    const lines = String(res.data).trim().split("\r\n");
    expect(lines[0]).toBe("Vantage point;Prefix;Route distinguisher;AS path;RPKI;Local preference;MED;Next hop;RIB view;Last update (UTC)");
    expect(lines).toHaveLength(3);
  });

  it("exports the private csv with the user's delimiter and times in the user's timezone", async () => {
    const [user] = await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "lg@screens.test"));
    const csv = async () =>
      String((await runRoute(exportRoute.loader, getRequest(`/api/lookingglass/export?${state}&format=csv`, cookies.lg))).data)
        .trim()
        .split("\r\n");
    // The default setting is a comma.
    expect((await csv())[0]).toBe(
      "Vantage point,Prefix,Route distinguisher,AS path,RPKI,Local preference,MED,Next hop,Communities,Originator ID,RIB view,Last update (UTC)",
    );
    await stores.pg.db
      .insert(userSettings)
      .values({ userId: user.id, csvDelimiter: ";", timezone: "Europe/Berlin" })
      .onConflictDoUpdate({ target: userSettings.userId, set: { csvDelimiter: ";", timezone: "Europe/Berlin" } });
    const lines = await csv();
    expect(lines[0]).toBe(
      "Vantage point;Prefix;Route distinguisher;AS path;RPKI;Local preference;MED;Next hop;Communities;Originator ID;RIB view;Last update (Europe/Berlin)",
    );
    // T0 = 2026-09-21 14:13:20 UTC = 16:13 in Berlin.
    expect(lines[1]).toMatch(/;21\.09\.2026 16:13$/);
    await stores.pg.db.update(userSettings).set({ csvDelimiter: ",", timezone: "UTC" }).where(eq(userSettings.userId, user.id));
  });

  it("names the export file after the day in the user's timezone (yyyyMMdd)", async () => {
    const [user] = await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "lg@screens.test"));
    await stores.pg.db
      .insert(userSettings)
      .values({ userId: user.id, timezone: "Pacific/Auckland" })
      .onConflictDoUpdate({ target: userSettings.userId, set: { timezone: "Pacific/Auckland" } });
    // Late in the UTC day, when Auckland (UTC+12 or +13) is already on the next one; only Date is faked,
    // to yesterday (UTC), so the session made with the real clock is still valid.
    const yesterday = new Date(Date.now() - 86_400_000);
    const lateYesterday = Date.UTC(yesterday.getUTCFullYear(), yesterday.getUTCMonth(), yesterday.getUTCDate(), 23, 30);
    const today = new Date(lateYesterday + 86_400_000).toISOString().slice(0, 10).replaceAll("-", "");
    vi.useFakeTimers({ toFake: ["Date"], now: lateYesterday });
    try {
      const res = await runRoute(exportRoute.loader, getRequest(`/api/lookingglass/export?${state}&format=csv`, cookies.lg));
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="flowlens_lookingglass_IpPrefixQuery_${today}.csv"`);
    } finally {
      vi.useRealTimers();
      await stores.pg.db.update(userSettings).set({ timezone: "UTC" }).where(eq(userSettings.userId, user.id));
    }
  });

  it("csv cells from routing data that would start a spreadsheet formula arrive as text with a leading apostrophe", async () => {
    // A vantage point whose router and city were written as formulas, holding a prefix no other test asks for.
    const evil = {
      key: "evil1",
      city: "@SUM(1+1)",
      country: "Germany",
      router: '=HYPERLINK("http://x","click")',
      ip: "192.0.2.66",
      isPublic: true,
      description: "",
      legacyDescription: "",
    };
    await stores.pg.db.insert(vantagePoints).values(evil);
    await chInsert(stores.ch, {
      name: "test.fixture",
      table: "rib_entries",
      values: [{ ...rib("fra1", "10.66.0.0/24"), vantage_point: evil.key, router_ip: evil.ip }],
      format: "JSONEachRow",
    });
    try {
      const evilQuery = query({ selectedVantagePoints: '["all"]', queryType: "IpPrefixQuery", queryTerm: "10.66.0.0/24" });
      const download = async (path: string, cookie?: string) => {
        const res = await runRoute(exportRoute.loader, getRequest(path, cookie));
        expect(res.status).toBe(200);
        return readCsv(String(res.data), path.includes("variant=public") ? ";" : ",");
      };
      const [privateHeader, privateRow, ...privateRest] = await download(`/api/lookingglass/export?${evilQuery}&format=csv`, cookies.lg);
      expect(privateRest).toEqual([]);
      const privateCell = privateRow[privateHeader.indexOf("Vantage point")];
      expect(privateCell).toBe(`'${evil.router} @SUM(1+1), Germany`);
      // Numbers stay numbers (local preference, MED).
      expect(privateRow[privateHeader.indexOf("Local preference")]).toBe("100");

      await setPublic(true);
      const [publicHeader, publicRow] = await download(`/api/lookingglass/export?${evilQuery}&variant=public&format=csv`);
      expect(publicRow[publicHeader.indexOf("Vantage point")]).toBe("'@SUM(1+1), Germany");
      for (const row of [privateRow, publicRow]) expect(row.filter((cell) => /^[=+@\t\r]/.test(cell))).toEqual([]);
    } finally {
      await stores.pg.db.delete(vantagePoints).where(eq(vantagePoints.key, evil.key));
    }
  });

  it("exports the private table as xlsx and png; refuses png to the public and empty tables", async () => {
    const xlsx = (await exportRoute.loader({
      request: getRequest(`/api/lookingglass/export?${state}&format=xlsx`, cookies.lg),
      params: {},
      context: {},
    } as never)) as Response;
    expect(xlsx.status).toBe(200);
    const sheet = XLSX.read(new Uint8Array(await xlsx.arrayBuffer()));
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(sheet.Sheets[sheet.SheetNames[0]]);
    expect(rows).toHaveLength(3);
    // Communities as the table shows them: each with its name where it has one, separated by commas.
    expect(rows.map((r) => r["Communities"]).sort()).toEqual(["64500:1, 64500:2", "64500:100", "64500:100"]);
    const png = (await exportRoute.loader({
      request: getRequest(`/api/lookingglass/export?${state}&format=png`, cookies.lg),
      params: {},
      context: {},
    } as never)) as Response;
    expect(png.headers.get("Content-Type")).toBe("image/png");
    expect([...new Uint8Array(await png.arrayBuffer()).slice(1, 4)].map((c) => String.fromCharCode(c)).join("")).toBe("PNG");
    await setPublic(true);
    const publicPng = await runRoute(exportRoute.loader, getRequest(`/api/lookingglass/export?${state}&variant=public&format=png`));
    expect(publicPng.status).toBe(400);
    const empty = await runRoute(
      exportRoute.loader,
      getRequest(
        `/api/lookingglass/export?${query({ selectedVantagePoints: '["all"]', queryType: "IpPrefixQuery", queryTerm: "172.16.0.0/12" })}&format=csv`,
        cookies.lg,
      ),
    );
    expect(empty.status).toBe(400);
    expect(empty.data.detail).toBe(MESSAGES.emptyTableExport);
  });
});
