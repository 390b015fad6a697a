/**
 * The names the traffic screens give: an AS, an application or an infrastructure renamed (and
 * recoloured) in a mapping layer is named so by api/flows/ (table and timeseries), the Flow
 * Explorer's export, the Border Planner's api/linkutil/external/ and api/lookingglass/ — in each
 * layer, the highest layer winning, another user's own layer never — and the layers are read once
 * per request. A 1-day demo network.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asServiceMappings, interfaces, siteSettings, userPermissions, users } from "~db/postgres/schema";
import { publicQueryCache } from "~/features/routing/lookingglass-cache.server";
import { MAPPING_LAYERS, type MappingLayer, type MappingModel } from "~/features/tags/mapping-model";
import { putMapping } from "~/features/tags/mappings.server";
import { loadUserContext, type UserContext } from "~/server/auth/user-context.server";
import * as flowsRoute from "~/routes/api.flows";
import * as exportRoute from "~/routes/api.flows.export";
import * as externalLinksRoute from "~/routes/api.linkutil.external";
import * as lookingGlassRoute from "~/routes/api.lookingglass";
import { runInRequestScope } from "~/server/request-scope.server";
import { useServicesForTests } from "~/server/services.server";
import { demoTestNow } from "../helpers/clock";
import { countingDb } from "../helpers/counting-db";
import { callRoute, ORIGIN, sessionCookie } from "../helpers/http";
import { openDemoStores } from "../helpers/demo-template";
import { type TestStores } from "../helpers/stores";

const DAY = 86_400;
const NOW = demoTestNow();
const RANGE = { start: NOW - DAY, end: NOW };

let stores: TestStores;
let admin: UserContext;
let operatorId: number;
const cookies = { admin: "", operator: "" };
/** PostgreSQL tables read since the last reset (countingDb). */
let tablesRead: string[] = [];
/** A neighbour AS of an external link of the inventory that hands traffic over in the range. */
let neighbour: string;
let infrastructure: string;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  stores = await openDemoStores({ now: NOW, days: 1 });
  useServicesForTests({ ...stores, pg: { ...stores.pg, db: countingDb(stores.pg.db, { push: (t) => tablesRead.push(t) }) } });
  const idOf = async (email: string) => (await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0].id;
  admin = (await loadUserContext(stores.pg.db, await idOf("admin@flowlens.example")))!;
  operatorId = await idOf("operator@flowlens.example");
  // The application and infrastructure dimensions.
  await stores.pg.db.insert(userPermissions).values({ userId: operatorId, permission: "API_FLOWS_DNS" });
  cookies.admin = await sessionCookie(stores, admin.id);
  cookies.operator = await sessionCookie(stores, operatorId);
  await stores.pg.db.update(siteSettings).set({ publicLookingGlassEnabled: true }).where(eq(siteSettings.id, 1));
  const neighbours = new Set(
    (
      await stores.pg.db
        .select({ asn: interfaces.neighborAsn })
        .from(interfaces)
        .where(and(eq(interfaces.kind, "external"), isNotNull(interfaces.neighborAsn)))
    ).map((r) => String(r.asn)),
  );
  const handovers = (await flows(cookies.admin, "AS_HND_INGRESS")).table.map((r: Json) => r.key as string);
  neighbour = handovers.find((k: string) => neighbours.has(k))!;
  expect(neighbour).toBeDefined();
  [{ name: infrastructure }] = await stores.pg.db
    .select({ name: asServiceMappings.name })
    .from(asServiceMappings)
    .where(eq(asServiceMappings.kind, "Infrastructure"))
    .limit(1);
}, 300_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

async function flows(cookie: string, dimension: string): Promise<Json> {
  const res = await callRoute(flowsRoute, "/api/flows", {
    method: "POST",
    cookie,
    body: { dimension, startTimestamp: RANGE.start, endTimestamp: RANGE.end, filters: [] },
  });
  expect(res.status).toBe(200);
  return res.json();
}

async function exportedCsv(cookie: string, dimension: string): Promise<string> {
  const search = new URLSearchParams({ dimension, start: String(RANGE.start), end: String(RANGE.end), format: "csv" });
  const res = (await exportRoute.loader({
    request: new Request(`${ORIGIN}/api/flows/export?${search}`, { headers: { Cookie: cookie } }),
    params: {},
    context: {},
  })) as Response;
  expect(res.status).toBe(200);
  return res.text();
}

async function plannerGroups(cookie: string): Promise<Json[]> {
  const res = await callRoute(externalLinksRoute, "/api/linkutil/external/", {
    method: "POST",
    cookie,
    body: { startTime: RANGE.start, endTime: RANGE.end },
  });
  expect(res.status).toBe(200);
  return (await res.json()).groups;
}

/** The name api/lookingglass/ gives the neighbour in the paths that start with it (logged in: private; without a cookie: public). */
async function lookingGlassNames(cookie?: string): Promise<Set<string | undefined>> {
  publicQueryCache.clear();
  const res = await callRoute(lookingGlassRoute, "/api/lookingglass/", {
    method: "POST",
    cookie,
    body: { queryType: "AsPathQuery", queryTerm: `${neighbour} *`, vantagePoints: ["all"] },
  });
  expect(res.status).toBe(200);
  const rows = Object.values((await res.json()).results as Record<string, unknown>)
    .filter(Array.isArray)
    .flat() as Json[];
  expect(rows.length).toBeGreaterThan(0);
  return new Set(rows.map((r) => r.asNames[neighbour]));
}

const write = (model: MappingModel, objectId: string, layer: MappingLayer, name: string | null, color: string | null) =>
  putMapping(stores.pg.db, admin, { model, objectId, layer, name, color });

const rowOf = (answer: Json, key: string) => answer.table.find((r: Json) => r.key === key);
const seriesOf = (answer: Json, key: string) => answer.timeseries.series.find((s: Json) => s.key === key);

describe("an AS renamed in a mapping layer", () => {
  const LAYERS = Object.entries(MAPPING_LAYERS) as [string, MappingLayer][];
  it.each(LAYERS)(
    "the %s layer's name and colour reach api/flows/, the export, the planner and the Looking Glass",
    async (label, layer) => {
      // The layers are written from the lowest up, so each one is the highest set so far: its name is the effective one.
      const name = `Neighbour as named in the ${label} layer`;
      const color = `#0000${(layer + 16).toString(16).padStart(2, "0")}`;
      await write("AS", neighbour, layer, name, color);
      const answer = await flows(cookies.admin, "AS_HND_INGRESS");
      expect(rowOf(answer, neighbour).name).toBe(name);
      expect(seriesOf(answer, neighbour)).toMatchObject({ name, color });
      expect(await exportedCsv(cookies.admin, "AS_HND_INGRESS")).toContain(name);
      const group = (await plannerGroups(cookies.admin)).find((g) => g.value === neighbour)!;
      expect(group.label).toBe(`AS${neighbour} ${name}`);
      for (const link of group.links) expect(link.asName).toBe(name);
      expect(await lookingGlassNames(cookies.admin)).toEqual(new Set([name]));
    },
  );

  it("a lower layer written later does not win; another user reads the shared layers, never the admin's own", async () => {
    await write("AS", neighbour, MAPPING_LAYERS.base, "A later base name", null);
    expect(rowOf(await flows(cookies.admin, "AS_HND_INGRESS"), neighbour).name).toBe("Neighbour as named in the user layer");
    const siteName = "Neighbour as named in the site layer";
    expect(rowOf(await flows(cookies.operator, "AS_HND_INGRESS"), neighbour).name).toBe(siteName);
    expect(await exportedCsv(cookies.operator, "AS_HND_INGRESS")).not.toContain("named in the user layer");
    expect(await lookingGlassNames(cookies.operator)).toEqual(new Set([siteName]));
    // The public Looking Glass: the shared layers only.
    expect(await lookingGlassNames()).toEqual(new Set([siteName]));
  });
});

describe("applications and infrastructures renamed in a mapping layer", () => {
  it("api/flows/ names them by their effective mapping, the user's own layer for that user only", async () => {
    await write("Application", "Netflix", MAPPING_LAYERS.user, "Netflix streaming (mine)", "#123456");
    await write("Infrastructure", infrastructure, MAPPING_LAYERS.site, `${infrastructure} (site name)`, null);
    const mine = await flows(cookies.admin, "AS_APPLICATION");
    expect(rowOf(mine, "Netflix").name).toBe("Netflix streaming (mine)");
    expect(seriesOf(mine, "Netflix")).toMatchObject({ name: "Netflix streaming (mine)", color: "#123456" });
    const theirs = await flows(cookies.operator, "AS_APPLICATION");
    // The demo's site layer colours Netflix; the base layer names it by its value.
    expect(seriesOf(theirs, "Netflix")).toMatchObject({ name: "Netflix", color: "#e50914" });
    expect(rowOf(await flows(cookies.operator, "AS_INFRASTRUCTURE"), infrastructure).name).toBe(`${infrastructure} (site name)`);
  });
});

describe("reading the layers", () => {
  it("api/flows/ reads them once per request, though it names its table and its timeseries separately", async () => {
    const inRequest = (fn: () => Promise<Json>) => runInRequestScope({ cookie: cookies.admin }, fn, "POST");
    tablesRead = [];
    const answer = await inRequest(() => flows(cookies.admin, "AS_HND_INGRESS"));
    expect(rowOf(answer, neighbour).name).toBe("Neighbour as named in the user layer");
    expect(tablesRead.filter((t) => t === "mappings")).toHaveLength(1);
    // A second request reads them again: a change made in between is seen.
    await write("AS", neighbour, MAPPING_LAYERS.user, "Renamed between two requests", null);
    tablesRead = [];
    expect(rowOf(await inRequest(() => flows(cookies.admin, "AS_HND_INGRESS")), neighbour).name).toBe("Renamed between two requests");
    expect(tablesRead.filter((t) => t === "mappings")).toHaveLength(1);
  });
});
