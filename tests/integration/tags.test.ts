/**
 * Tags, tag groups and mappings on a 1-day demo network: the shapes of api/tags/, api/tag_groups/,
 * api/tag/values/ and api/mapping/, access (operator, delegated, staff, without API_FLOWS_4D),
 * validation, mapping layer precedence and write rights, tags in autocomplete, and tags as flow
 * filters checked against the same filter written out and against an independent sum over
 * flows_5m rows.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ASES, OPERATOR_ASN, OPERATOR_NAME } from "~db/demo/catalog";
import { demoTagGroups, demoTags } from "~db/demo/tags";
import { mappings, tagGroups, tags, tagValues, userPermissions, users } from "~db/postgres/schema";
import type { Permission } from "~/lib/permissions";
import * as autocompleteRoute from "~/routes/api.autocomplete";
import * as metadataRoute from "~/routes/api.filter.metadata";
import * as flowsRoute from "~/routes/api.flows";
import * as mappingRoute from "~/routes/api.mapping";
import * as tagValuesRoute from "~/routes/api.tag.values";
import * as tagGroupsRoute from "~/routes/api.tag_groups";
import * as tagsRoute from "~/routes/api.tags";
import { useServicesForTests } from "~/server/services.server";
import { readFlowRows, type FlowRow } from "../helpers/flow-rows";
import { callRoute, sessionCookie } from "../helpers/http";
import { openDemoStores } from "../helpers/demo-template";
import { type TestStores } from "../helpers/stores";
import { demoTestNow } from "../helpers/clock";

const DAY = 86_400;
const NOW = demoTestNow();
const RANGE = { start: NOW - DAY, end: NOW };
const TOP_CUSTOMER = DEMO_ASES.filter((a) => a.connection === "customer").sort((a, b) => b.weight - a.weight)[0].asn;
const TRANSITS = DEMO_ASES.filter((a) => a.connection === "transit").map((a) => a.asn);
const GERMAN_EYEBALLS = DEMO_ASES.filter((a) => a.category === "eyeball" && a.country === "DE").map((a) => a.asn);

let stores: TestStores;
let rows: FlowRow[];
const uid = { admin: 0, operator: 0, delegated: 0, staff: 0, moderator: 0, noFlows: 0 };
/** Tag and group ids of the demo by name. */
const tagId: Record<string, number> = {};
const groupId: Record<string, number> = {};

async function createUser(email: string, permissions: Permission[]) {
  const [row] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true })
    .returning({ id: users.id });
  if (permissions.length)
    await stores.pg.db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
  return row.id;
}

beforeAll(async () => {
  stores = await openDemoStores({ now: NOW, days: 1 });
  useServicesForTests(stores);
  rows = await readFlowRows(stores, RANGE);
  const idOf = async (email: string) => (await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0].id;
  uid.admin = await idOf("admin@flowlens.example");
  uid.operator = await idOf("operator@flowlens.example");
  uid.delegated = await idOf("delegated@flowlens.example");
  uid.staff = await idOf("staff@flowlens.example");
  uid.moderator = await idOf("moderator@flowlens.example");
  uid.noFlows = await createUser("noflows@tags.test", ["CONTROL_PLANE"]);
  for (const t of await stores.pg.db.select({ id: tags.id, name: tags.name }).from(tags)) tagId[t.name] = t.id;
  for (const g of await stores.pg.db.select({ id: tagGroups.id, name: tagGroups.name }).from(tagGroups)) groupId[g.name] = g.id;
}, 300_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function call(
  module: Parameters<typeof callRoute>[0],
  path: string,
  userId: number,
  options: { method?: string; body?: unknown; csrf?: boolean } = {},
): Promise<{ status: number; data: Json }> {
  const res = await callRoute(module, path, { ...options, cookie: await sessionCookie(stores, userId) });
  return { status: res.status, data: await res.json() };
}

const ingress = (r: FlowRow) => r.as_hnd !== OPERATOR_ASN;
const bits = (list: FlowRow[]) => Number(list.reduce((a, r) => a + r.bytes, 0n)) * 8;
const tableBits = (data: { table: { bytes: string }[] }) => data.table.reduce((a, t) => a + Number(BigInt(t.bytes)) * 8, 0);
const flows = (userId: number, dimension: string, filters: unknown[]) =>
  call(flowsRoute, "/api/flows", userId, {
    method: "POST",
    body: { dimension, startTimestamp: RANGE.start, endTimestamp: RANGE.end, window: 3600, limit: 1000, filters },
  });

describe("demo tags", () => {
  it("are seeded from the catalogue and topology", async () => {
    expect(Object.keys(tagId).sort()).toEqual(
      demoTags()
        .map((t) => t.name)
        .sort(),
    );
    expect(Object.keys(groupId).sort()).toEqual(
      demoTagGroups()
        .map((g) => g.name)
        .sort(),
    );
    const values = await stores.pg.db
      .select({ value: tagValues.value })
      .from(tagValues)
      .where(eq(tagValues.tagId, tagId["Tier-1 transits"]));
    expect(values.map((v) => Number(v.value)).sort()).toEqual([...TRANSITS].sort());
    expect(TRANSITS).toHaveLength(4);
  });
});

describe("GET api/tags/", () => {
  it("lists the tags of the dimension's kind as filter tag values", async () => {
    const { status, data } = await call(tagsRoute, "/api/tags?dimension=AS_SRC_INGRESS", uid.admin);
    expect(status).toBe(200);
    const tier = data.find((t: Json) => t.name === "Tier-1 transits");
    expect(tier).toEqual({
      type: "TAG",
      id: tagId["Tier-1 transits"],
      name: "Tier-1 transits",
      value: `#${tagId["Tier-1 transits"]}`,
      color: "#d9822b",
      dimension: "AS_SRC_INGRESS",
      dimensionKind: "AS_NUMBER",
      values: TRANSITS.map(String),
      isNegation: false,
      personal: false,
    });
    expect(data.every((t: Json) => t.type === "TAG" && t.dimensionKind === "AS_NUMBER")).toBe(true);
    // Another user's personal tag stays invisible.
    expect(data.map((t: Json) => t.name)).not.toContain("My watch list");
    const routers = await call(tagsRoute, "/api/tags?dimension=ROUTER_IN", uid.admin);
    expect(routers.data.map((t: Json) => [t.name, t.values])).toEqual([
      ["Frankfurt routers", ["fra-er1", "fra-er2"]],
      ["Northern Germany routers", ["ber-er1", "ham-er1"]],
    ]);
  });

  it("shows a personal tag to its owner only", async () => {
    const own = await call(tagsRoute, "/api/tags?dimension=AS_DST_INGRESS", uid.operator);
    expect(own.data.find((t: Json) => t.name === "My watch list")).toMatchObject({ personal: true, values: ["2906", "3320"] });
  });

  it("access: 403 without API_FLOWS_4D; 400 for a dimension the user may not use; the delegated user sees AS tags", async () => {
    const denied = await call(tagsRoute, "/api/tags?dimension=AS_SRC_INGRESS", uid.noFlows);
    expect(denied.status).toBe(403);
    expect(denied.data.exception_code).toBe("permission_denied");
    const notTheirs = await call(tagsRoute, "/api/tags?dimension=ROUTER_IN", uid.delegated);
    expect(notTheirs.status).toBe(400);
    expect(notTheirs.data.errors[0].field).toBe("dimension");
    const theirs = await call(tagsRoute, "/api/tags?dimension=AS_SRC_INGRESS", uid.delegated);
    expect(theirs.status).toBe(200);
    expect(theirs.data.length).toBeGreaterThan(0);
  });

  it("validation: unknown or missing dimension → 400", async () => {
    const unknown = await call(tagsRoute, "/api/tags?dimension=BOGUS", uid.admin);
    expect(unknown.status).toBe(400);
    expect(unknown.data).toMatchObject({
      detail: "Invalid query parameters.",
      errors: [{ field: "dimension", message: "Unknown dimension BOGUS." }],
    });
    const missing = await call(tagsRoute, "/api/tags", uid.admin);
    expect(missing.status).toBe(400);
    expect(missing.data.errors[0].field).toBe("dimension");
  });
});

describe("GET api/tag_groups/", () => {
  it("lists groups with their tags and the union of their values", async () => {
    const { status, data } = await call(tagGroupsRoute, "/api/tag_groups?dimension=AS_DST_INGRESS", uid.admin);
    expect(status).toBe(200);
    expect(data.map((g: Json) => g.name)).toEqual(["Content and eyeballs"]);
    const group = data[0];
    expect(group).toMatchObject({
      type: "TAG_GROUP",
      id: groupId["Content and eyeballs"],
      value: `#g${groupId["Content and eyeballs"]}`,
      dimension: "AS_DST_INGRESS",
      dimensionKind: "AS_NUMBER",
      isNegation: false,
    });
    expect(group.tags.map((t: Json) => t.name)).toEqual(["German eyeballs", "Video streaming"]);
    const [video, german] = await Promise.all(
      ["Video streaming", "German eyeballs"].map(async (name) =>
        (await stores.pg.db.select({ value: tagValues.value }).from(tagValues).where(eq(tagValues.tagId, tagId[name]))).map((v) => v.value),
      ),
    );
    expect([...group.values].sort()).toEqual([...new Set([...video, ...german])].sort());
    const routers = await call(tagGroupsRoute, "/api/tag_groups?dimension=ROUTER_OUT", uid.operator);
    expect(routers.data[0]).toMatchObject({ name: "German routers", values: ["fra-er1", "fra-er2", "ber-er1", "ham-er1"] });
  });

  it("access and validation", async () => {
    expect((await call(tagGroupsRoute, "/api/tag_groups?dimension=AS_SRC_INGRESS", uid.noFlows)).status).toBe(403);
    expect((await call(tagGroupsRoute, "/api/tag_groups?dimension=nope", uid.admin)).status).toBe(400);
    expect((await call(tagGroupsRoute, "/api/tag_groups?dimension=INTERFACE_IN", uid.delegated)).status).toBe(400);
  });
});

describe("POST api/tag/values/", () => {
  const values = (userId: number, body: unknown) => call(tagValuesRoute, "/api/tag/values", userId, { method: "POST", body });

  it("a tag id (number or text) and group:<id>", async () => {
    const tag = await values(uid.operator, { dimension: "AS_HND_INGRESS", id: tagId["Tier-1 transits"] });
    expect(tag.status).toBe(200);
    expect(tag.data).toMatchObject({ type: "TAG", name: "Tier-1 transits", dimension: "AS_HND_INGRESS", values: TRANSITS.map(String) });
    const asText = await values(uid.operator, { dimension: "AS_HND_INGRESS", id: String(tagId["Tier-1 transits"]) });
    expect(asText.data.values).toEqual(tag.data.values);
    const group = await values(uid.operator, { dimension: "ROUTER_IN", id: `group:${groupId["German routers"]}` });
    expect(group.status).toBe(200);
    expect(group.data).toMatchObject({
      type: "TAG_GROUP",
      value: `#g${groupId["German routers"]}`,
      values: ["fra-er1", "fra-er2", "ber-er1", "ham-er1"],
    });
  });

  it("404 for unknown or someone else's personal ids; 400 for another kind or a bad id", async () => {
    expect((await values(uid.operator, { dimension: "AS_SRC_INGRESS", id: 999_999 })).status).toBe(404);
    expect((await values(uid.operator, { dimension: "AS_SRC_INGRESS", id: "group:999999" })).status).toBe(404);
    expect((await values(uid.admin, { dimension: "AS_SRC_INGRESS", id: tagId["My watch list"] })).status).toBe(404);
    expect((await values(uid.operator, { dimension: "AS_SRC_INGRESS", id: tagId["My watch list"] })).status).toBe(200);
    const kind = await values(uid.operator, { dimension: "AS_SRC_INGRESS", id: tagId["Frankfurt routers"] });
    expect(kind.status).toBe(400);
    expect(kind.data.errors[0].message).toBe(
      `The tag "Frankfurt routers" holds ROUTER values and cannot filter AS_SRC_INGRESS (AS_NUMBER).`,
    );
    const bad = await values(uid.operator, { dimension: "AS_SRC_INGRESS", id: "g3" });
    expect(bad.status).toBe(400);
    expect(bad.data.errors[0].field).toBe("id");
    expect((await values(uid.operator, { dimension: "BOGUS", id: 1 })).status).toBe(400);
    expect((await values(uid.noFlows, { dimension: "AS_SRC_INGRESS", id: 1 })).status).toBe(403);
  });
});

describe("tag names for filter chips (api/filter/metadata/)", () => {
  it("names a tag and a group reference, negated or not; unknown ids stay unnamed", async () => {
    const tag = `#${tagId["Tier-1 transits"]}`;
    const group = `#g${groupId["German routers"]}`;
    const res = await call(metadataRoute, "/api/filter/metadata", uid.operator, {
      method: "POST",
      body: {
        filters: [
          { dimension: "AS_HND_INGRESS", value: tag },
          { dimension: "AS_HND_INGRESS", value: `!${tag}` },
          { dimension: "ROUTER_IN", value: group },
          { dimension: "AS_HND_INGRESS", value: "#999999" },
          { dimension: "AS_HND_INGRESS", value: "3320" },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.data.results.map((r: { name: string | null; type: string }) => [r.name, r.type])).toEqual([
      ["Tier-1 transits", "TAG"],
      ["Tier-1 transits", "TAG"],
      ["German routers", "TAG_GROUP"],
      [null, "TAG"],
      // An AS by its effective mapping: the demo's site layer names AS3320 so.
      ["Deutsche Telekom (DTAG)", "PRIMITIVE"],
    ]);
  });
});

describe("api/mapping/", () => {
  const path = (params: Record<string, string | number>) =>
    `/api/mapping?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
  const get = (userId: number, id: string | number, type = "AS") => call(mappingRoute, path({ id, type }), userId);
  const put = (userId: number, params: Record<string, string | number>, body: unknown, csrf?: boolean) =>
    call(mappingRoute, path(params), userId, { method: "PUT", body, csrf });
  const del = (userId: number, params: Record<string, string | number>) => call(mappingRoute, path(params), userId, { method: "DELETE" });

  it("GET: the layers of an object and, per field, the highest layer that sets it", async () => {
    const { status, data } = await get(uid.operator, `AS${OPERATOR_ASN}`);
    expect(status).toBe(200);
    expect(data).toEqual({
      type: "AS",
      id: String(OPERATOR_ASN),
      layers: [
        { priority: 0, layer: "base", name: OPERATOR_NAME, color: "#137cbd", own: false },
        { priority: 20, layer: "site", name: "Our network", color: null, own: false },
      ],
      effective: { name: "Our network", color: "#137cbd", nameLayer: 20, colorLayer: 0 },
    });
    const unmapped = await get(uid.operator, "Zoom", "Application");
    expect(unmapped.data.layers.length).toBe(1); // the base colour of the demo's applications
    const nothing = await get(uid.operator, "4200000000");
    expect(nothing.data).toEqual({
      type: "AS",
      id: "4200000000",
      layers: [],
      effective: { name: null, color: null, nameLayer: null, colorLayer: null },
    });
  });

  it("PUT and DELETE of the user layer: any flows user, their own row only", async () => {
    const mine = await put(
      uid.operator,
      { id: OPERATOR_ASN, type: "AS", priority: 30 },
      { id: OPERATOR_ASN, color: "#ff0000", name: null },
    );
    expect(mine.status).toBe(200);
    expect(mine.data.effective).toEqual({ name: "Our network", color: "#ff0000", nameLayer: 20, colorLayer: 30 });
    expect(mine.data.layers.at(-1)).toEqual({ priority: 30, layer: "user", name: null, color: "#ff0000", own: true });
    // An AS's name, even in one's own layer, needs API_CHANGE_AS_INFO (shell §6); the colour does not.
    const renamed = await put(uid.operator, { id: OPERATOR_ASN, type: "AS", priority: 30 }, { color: "#00ff00", name: "Home" });
    expect(renamed.status).toBe(403);
    expect(renamed.data.detail).toContain("API_CHANGE_AS_INFO");
    await stores.pg.db.insert(userPermissions).values({ userId: uid.operator, permission: "API_CHANGE_AS_INFO" });
    // Replaced, not duplicated.
    const again = await put(uid.operator, { id: OPERATOR_ASN, type: "AS", priority: 30 }, { color: "#00ff00", name: "Home" });
    await stores.pg.db
      .delete(userPermissions)
      .where(and(eq(userPermissions.userId, uid.operator), eq(userPermissions.permission, "API_CHANGE_AS_INFO")));
    expect(again.status).toBe(200);
    expect(again.data.effective).toEqual({ name: "Home", color: "#00ff00", nameLayer: 30, colorLayer: 30 });
    const stored = await stores.pg.db
      .select()
      .from(mappings)
      .where(and(eq(mappings.objectId, String(OPERATOR_ASN)), eq(mappings.layer, 30)));
    expect(stored).toHaveLength(1);
    // Another user neither sees nor removes it.
    const admin = await get(uid.admin, OPERATOR_ASN);
    expect(admin.data.effective).toEqual({ name: "Our network", color: "#137cbd", nameLayer: 20, colorLayer: 0 });
    expect((await del(uid.delegated, { id: OPERATOR_ASN, type: "AS", priority: 30 })).status).toBe(404);
    const removed = await del(uid.operator, { id: OPERATOR_ASN, type: "AS", priority: 30 });
    expect(removed.status).toBe(200);
    expect(removed.data.effective.nameLayer).toBe(20);
    expect((await del(uid.operator, { id: OPERATOR_ASN, type: "AS", priority: 30 })).status).toBe(404);
  });

  it("the site layer 20: moderators too (shell §6), not the base and product layers", async () => {
    const site = await put(uid.moderator, { id: "Steam", type: "Application", priority: 20 }, { name: "Steam", color: "#171a21" });
    expect(site.status).toBe(200);
    expect(site.data.effective).toMatchObject({ nameLayer: 20, colorLayer: 20 });
    // AS names in the site layer are the moderators' too: API_CHANGE_AS_INFO is about one's own layer.
    expect((await put(uid.moderator, { id: 3320, type: "AS", priority: 20 }, { name: "Telekom" })).status).toBe(200);
    const product = await put(uid.moderator, { id: "Steam", type: "Application", priority: 10 }, { name: "Steam" });
    expect(product.status).toBe(403);
    expect(product.data.detail).toContain("Only staff");
    expect((await del(uid.moderator, { id: "Steam", type: "Application", priority: 20 })).status).toBe(200);
    expect(
      (await put(uid.moderator, { id: 3320, type: "AS", priority: 20 }, { name: "Deutsche Telekom (DTAG)", color: "#e20074" })).status,
    ).toBe(200);
  });

  it("layers 0 and 10: staff and superusers only; 20 not for other users", async () => {
    const refused = await put(
      uid.operator,
      { id: "Steam", type: "Application", priority: 20 },
      { name: "Steam (Valve)", color: "#1b2838" },
    );
    expect(refused.status).toBe(403);
    expect(refused.data.exception_code).toBe("permission_denied");
    expect((await del(uid.operator, { id: "Netflix", type: "Application", priority: 20 })).status).toBe(403);
    const staff = await put(uid.staff, { id: "Steam", type: "Application", priority: 10 }, { name: "Steam (Valve)", color: "#1b2838" });
    expect(staff.status).toBe(200);
    // Everybody sees a shared layer.
    const seen = await get(uid.delegated, "Steam", "Application");
    expect(seen.data.effective).toMatchObject({ name: "Steam (Valve)", color: "#1b2838", nameLayer: 10, colorLayer: 10 });
    // A user's own layer beats it for that user only.
    await put(uid.delegated, { id: "Steam", type: "Application", priority: 30 }, { color: "#000000" });
    expect((await get(uid.delegated, "Steam", "Application")).data.effective).toMatchObject({
      name: "Steam (Valve)",
      color: "#000000",
      colorLayer: 30,
    });
    expect((await get(uid.staff, "Steam", "Application")).data.effective.color).toBe("#1b2838");
    expect((await del(uid.admin, { id: "Steam", type: "Application", priority: 10 })).status).toBe(200);
    expect((await get(uid.staff, "Steam", "Application")).data.effective.nameLayer).toBe(0);
  });

  it("validation: bad colour, layer, type, id, a differing body id, nothing to set → 400; CSRF; access", async () => {
    const base = { id: 2906, type: "AS", priority: 30 };
    const field = async (params: Record<string, string | number>, body: unknown) => {
      const res = await put(uid.operator, params, body);
      expect(res.status).toBe(400);
      return res.data.errors.map((e: Json) => e.field);
    };
    expect(await field(base, { color: "red" })).toEqual(["color"]);
    expect(await field(base, { color: "#12345" })).toEqual(["color"]);
    expect(await field({ ...base, priority: 15 }, { color: "#123456" })).toEqual(["priority"]);
    expect(await field({ ...base, priority: "user" }, { color: "#123456" })).toEqual(["priority"]);
    expect(await field({ ...base, type: "Router" }, { color: "#123456" })).toEqual(["type"]);
    expect(await field({ ...base, id: "Netflix" }, { color: "#123456" })).toEqual(["id"]);
    expect(await field(base, { id: 15169, color: "#123456" })).toEqual(["id"]);
    expect(await field(base, { name: null, color: null })).toEqual(["name"]);
    expect(await field(base, { name: "" })).toEqual(["name"]);
    expect((await get(uid.operator, 2906, "Bogus")).status).toBe(400);
    expect((await call(mappingRoute, "/api/mapping?type=AS", uid.operator)).status).toBe(400);
    expect((await put(uid.operator, base, { color: "#123456" }, false)).data.exception_code).toBe("csrf_failed");
    expect((await get(uid.noFlows, 2906)).status).toBe(403);
    expect((await call(mappingRoute, path(base), uid.operator, { method: "POST", body: {} })).status).toBe(405);
    expect(await stores.pg.db.select().from(mappings).where(eq(mappings.objectId, "2906"))).toEqual([]);
  });
});

describe("tags as flow filters", () => {
  const tier = () => `#${tagId["Tier-1 transits"]}`;

  it("a tag gives the total of its values written out and of an independent sum over flows_5m", async () => {
    const byTag = await flows(uid.operator, "AS_SRC_INGRESS", [{ dimension: "AS_SRC_INGRESS", values: [tier()] }]);
    expect(byTag.status).toBe(200);
    const explicit = await flows(uid.operator, "AS_SRC_INGRESS", [{ dimension: "AS_SRC_INGRESS", values: TRANSITS.map(String) }]);
    const expected = bits(rows.filter((r) => ingress(r) && TRANSITS.includes(r.as_src)));
    expect(expected).toBeGreaterThan(0);
    expect(tableBits(byTag.data) / expected).toBeCloseTo(1, 9);
    expect(tableBits(byTag.data)).toBe(tableBits(explicit.data));
    expect(byTag.data.filters).toEqual(explicit.data.filters);
    expect(new Set(byTag.data.table.map((t: Json) => Number(t.key)))).toEqual(
      new Set(TRANSITS.filter((asn) => rows.some((r) => ingress(r) && r.as_src === asn))),
    );
  });

  it("a negated tag excludes all of its values: the total minus the tag's share", async () => {
    const all = await flows(uid.operator, "AS_HND_INGRESS", []);
    const byTag = await flows(uid.operator, "AS_HND_INGRESS", [{ dimension: "AS_SRC_INGRESS", values: [tier()] }]);
    const negated = await flows(uid.operator, "AS_HND_INGRESS", [`AS_SRC_INGRESS:!${tier()}`]);
    expect(negated.status).toBe(200);
    expect(negated.data.filters.every((f: Json) => f.isNegation)).toBe(true);
    const expected = bits(rows.filter((r) => ingress(r) && !TRANSITS.includes(r.as_src)));
    expect(tableBits(negated.data) / expected).toBeCloseTo(1, 9);
    expect((tableBits(all.data) - tableBits(byTag.data)) / tableBits(negated.data)).toBeCloseTo(1, 9);
  });

  it("a tag group stands for the union of its tags' values", async () => {
    const group = await flows(uid.operator, "AS_SRC_INGRESS", [
      { dimension: "AS_SRC_INGRESS", values: [`#g${groupId["Content and eyeballs"]}`] },
    ]);
    expect(group.status).toBe(200);
    const members = new Set(
      (await stores.pg.db.select({ value: tagValues.value }).from(tagValues).where(eq(tagValues.tagId, tagId["German eyeballs"]))).map(
        (v) => Number(v.value),
      ),
    );
    for (const v of await stores.pg.db
      .select({ value: tagValues.value })
      .from(tagValues)
      .where(eq(tagValues.tagId, tagId["Video streaming"])))
      members.add(Number(v.value));
    for (const asn of GERMAN_EYEBALLS) expect(members.has(asn)).toBe(true);
    const expected = bits(rows.filter((r) => ingress(r) && members.has(r.as_src)));
    expect(expected).toBeGreaterThan(0);
    expect(tableBits(group.data) / expected).toBeCloseTo(1, 9);
  });

  it("refused with a clear 400: another kind, unknown ids, someone else's personal tag", async () => {
    const kind = await flows(uid.operator, "AS_SRC_INGRESS", [
      { dimension: "AS_SRC_INGRESS", values: ["2906", `#${tagId["Frankfurt routers"]}`] },
    ]);
    expect(kind.status).toBe(400);
    expect(kind.data.errors).toEqual([
      {
        field: "filters.0.values.1",
        message: `The tag "Frankfurt routers" (#${tagId["Frankfurt routers"]}) holds ROUTER values and cannot filter AS_SRC_INGRESS (AS_NUMBER).`,
      },
    ]);
    const unknown = await flows(uid.operator, "AS_SRC_INGRESS", ["AS_SRC_INGRESS:#999999,#g999999"]);
    expect(unknown.status).toBe(400);
    expect(unknown.data.errors.map((e: Json) => e.message)).toEqual([
      "Unknown tag #999999: it was deleted, or it is another user's personal one.",
      "Unknown tag group #g999999: it was deleted, or it is another user's personal one.",
    ]);
    const foreign = await flows(uid.admin, "AS_SRC_INGRESS", [{ dimension: "AS_SRC_INGRESS", values: [`#${tagId["My watch list"]}`] }]);
    expect(foreign.status).toBe(400);
    expect(foreign.data.errors[0].message).toBe(
      `Unknown tag #${tagId["My watch list"]}: it was deleted, or it is another user's personal one.`,
    );
    const own = await flows(uid.operator, "AS_SRC_INGRESS", [{ dimension: "AS_SRC_INGRESS", values: [`#${tagId["My watch list"]}`] }]);
    expect(own.status).toBe(200);
  });

  it("a router tag filters router dimensions", async () => {
    const fra = await flows(uid.operator, "ROUTER_IN", [{ dimension: "ROUTER_IN", values: [`#${tagId["Frankfurt routers"]}`] }]);
    expect(fra.status).toBe(200);
    expect(fra.data.table.map((t: Json) => t.key).sort()).toEqual(["fra-er1", "fra-er2"]);
  });

  it("a delegated user never widens their view through a tag", async () => {
    const restricted = (r: FlowRow) => ingress(r) && r.as_dst === TOP_CUSTOMER;
    // On the locked dimension a tag whose values lie outside the restriction is refused …
    const outside = await flows(uid.delegated, "AS_SRC_INGRESS", [{ dimension: "AS_DST_INGRESS", values: [tier()] }]);
    expect(outside.status).toBe(400);
    expect(outside.data.errors[0]).toMatchObject({ field: "filters.0.values.0" });
    expect(outside.data.errors[0].message).toMatch(
      /^Destination AS \(ingress\) is restricted for your account to AS\d+; this filter cannot be changed\.$/,
    );
    expect((await flows(uid.delegated, "AS_SRC_INGRESS", [{ dimension: "AS_DST_INGRESS", values: [`!${tier()}`] }])).status).toBe(400);
    // … one that repeats exactly the constrained value changes nothing …
    const [own] = await stores.pg.db
      .insert(tags)
      .values({ name: "My customer", dimension: "AS_NUMBER", ownerUserId: uid.delegated })
      .returning({ id: tags.id });
    await stores.pg.db.insert(tagValues).values({ tagId: own.id, value: String(TOP_CUSTOMER) });
    const same = await flows(uid.delegated, "AS_SRC_INGRESS", [{ dimension: "AS_DST_INGRESS", values: [`#${own.id}`] }]);
    expect(same.status).toBe(200);
    expect(tableBits(same.data) / bits(rows.filter(restricted))).toBeCloseTo(1, 9);
    // … and on other dimensions a tag only narrows the restricted view.
    const narrowed = await flows(uid.delegated, "AS_SRC_INGRESS", [
      { dimension: "AS_SRC_INGRESS", values: [`#${tagId["German eyeballs"]}`] },
    ]);
    expect(narrowed.status).toBe(200);
    expect(narrowed.data.filters).toContainEqual({
      dimension: "AS_DST_INGRESS",
      value: String(TOP_CUSTOMER),
      isNegation: false,
      locked: true,
    });
    const expected = bits(rows.filter((r) => restricted(r) && GERMAN_EYEBALLS.includes(r.as_src)));
    expect(expected).toBeGreaterThan(0);
    expect(tableBits(narrowed.data) / expected).toBeCloseTo(1, 9);
    expect(tableBits(narrowed.data)).toBeLessThan(bits(rows.filter(restricted)));
  });
});

describe("tags in api/autocomplete/", () => {
  const search = async (userId: number, dimension: string, searchTerm: string) => {
    const res = await call(autocompleteRoute, "/api/autocomplete", userId, { method: "POST", body: { dimension, searchTerm } });
    expect(res.status).toBe(200);
    return res.data.results as { id: string; name: string; value: string; type: string }[];
  };

  it("tags and groups of the dimension's kind whose name matches, with # values", async () => {
    const tier = await search(uid.operator, "AS_SRC_INGRESS", "tier");
    expect(tier).toContainEqual({
      id: `#${tagId["Tier-1 transits"]}`,
      name: "Tier-1 transits",
      value: `#${tagId["Tier-1 transits"]}`,
      type: "TAG",
    });
    const negated = await search(uid.operator, "AS_SRC_INGRESS", "!tier");
    expect(negated.find((r) => r.type === "TAG")?.value).toBe(`!#${tagId["Tier-1 transits"]}`);
    const german = await search(uid.operator, "ROUTER_IN", "german");
    expect(german).toEqual([
      {
        id: `#${tagId["Northern Germany routers"]}`,
        name: "Northern Germany routers",
        value: `#${tagId["Northern Germany routers"]}`,
        type: "TAG",
      },
      { id: `#g${groupId["German routers"]}`, name: "German routers", value: `#g${groupId["German routers"]}`, type: "TAG_GROUP" },
    ]);
    // Kind and visibility: no router tags for AS dimensions, personal tags for their owner only.
    expect((await search(uid.operator, "AS_SRC_INGRESS", "frankfurt")).filter((r) => r.type !== "PRIMITIVE")).toEqual([]);
    expect((await search(uid.operator, "AS_DST_INGRESS", "watch")).map((r) => r.name)).toContain("My watch list");
    expect((await search(uid.admin, "AS_DST_INGRESS", "watch")).filter((r) => r.type === "TAG")).toEqual([]);
  });
});
