/**
 * The mappings screens (/mappings/applications, /mappings/infrastructures, /mappings/as) through
 * their route modules: the list (search, paging, the effective name and colour and the layer each
 * comes from), one object's layers, every action × role (user layer for all, an AS name there only
 * with API_CHANGE_AS_INFO, the site layer for moderators, staff and superusers, base and product for
 * staff and superusers, the AS assignment for the site layer's writers), and the CSV import: per-line
 * problems and nothing written when any line is bad, everything in one go otherwise.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asInfo, asServiceMappings, groups, mappings, userGroups, userPermissions, users } from "~db/postgres/schema";
import { MAPPINGS_PAGE_SIZE } from "~/features/mappings/params";
import * as applicationsRoute from "~/routes/_app.mappings.applications";
import * as asRoute from "~/routes/_app.mappings.as";
import * as infrastructuresRoute from "~/routes/_app.mappings.infrastructures";
import { MODERATORS_GROUP } from "~/lib/permissions";
import { useServicesForTests } from "~/server/services.server";
import { CSRF_TOKEN, formRequest, getRequest, ORIGIN, runRoute, sessionCookie, withCsrf } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

let stores: TestStores;
const ROLES = ["operator", "renamer", "moderator", "staff", "superuser"] as const;
type Role = (typeof ROLES)[number];
const uid = {} as Record<Role | "noFlows", number>;
const cookie = {} as Record<Role | "noFlows", string>;

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const db = stores.pg.db;
  const insert = async (email: string, permissions: string[], extra: Partial<typeof users.$inferInsert> = {}) => {
    const [row] = await db
      .insert(users)
      .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true, ...extra })
      .returning({ id: users.id });
    if (permissions.length) await db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
    return row.id;
  };
  uid.operator = await insert("operator@mappings.test", ["API_FLOWS_4D"]);
  uid.renamer = await insert("renamer@mappings.test", ["API_FLOWS_4D", "API_CHANGE_AS_INFO"]);
  uid.moderator = await insert("moderator@mappings.test", ["API_FLOWS_4D"]);
  uid.staff = await insert("staff@mappings.test", ["API_FLOWS_4D"], { isStaff: true });
  uid.superuser = await insertSuperuser(stores, "root@mappings.test");
  uid.noFlows = await insert("noflows@mappings.test", ["CONTROL_PLANE"]);
  const [moderators] = await db.select().from(groups).where(eq(groups.name, MODERATORS_GROUP));
  await db.insert(userGroups).values({ userId: uid.moderator, groupId: moderators.id });
  for (const role of [...ROLES, "noFlows"] as const) cookie[role] = await sessionCookie(stores, uid[role]);

  // 120 ASes in the registry (paging), a few with layers and assignments.
  await db.insert(asInfo).values(Array.from({ length: 120 }, (_, i) => ({ asn: 64_600 + i, name: `Registry AS ${64_600 + i}` })));
  await db.insert(asInfo).values({ asn: 2906, name: "NETFLIX-ASN" });
  await db.insert(asServiceMappings).values([
    { asn: 2906, kind: "Application", name: "Netflix" },
    { asn: 64_601, kind: "Infrastructure", name: "Example CDN" },
  ]);
  await db.insert(mappings).values([
    { model: "AS", objectId: "2906", layer: 0, name: "Netflix", color: "#e50914" },
    { model: "AS", objectId: "2906", layer: 20, name: "Netflix Streaming", color: null },
    { model: "Application", objectId: "Netflix", layer: 0, name: "Netflix", color: "#e50914" },
    { model: "Application", objectId: "Zoom", layer: 10, name: "Zoom Video", color: "#2d8cff" },
    // Another user's own layer: nobody else sees it.
    { model: "Application", objectId: "Secret app", layer: 30, ownerUserId: uid.staff, name: "Mine", color: "#000000" },
  ]);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const SCREENS = { as: { route: asRoute, path: "/mappings/as" }, app: { route: applicationsRoute, path: "/mappings/applications" } };
const get = (screen: keyof typeof SCREENS, query: string, role: Role | "noFlows" = "operator") =>
  runRoute(SCREENS[screen].route.loader, getRequest(`${SCREENS[screen].path}${query}`, cookie[role]));
const post = (screen: keyof typeof SCREENS, fields: Record<string, string>, role: Role = "operator") =>
  runRoute(SCREENS[screen].route.action, formRequest(SCREENS[screen].path, fields, cookie[role]));

async function layerRow(model: string, objectId: string, layer: number, owner: number | null = null) {
  const rows = await stores.pg.db
    .select()
    .from(mappings)
    .where(and(eq(mappings.model, model as "AS"), eq(mappings.objectId, objectId), eq(mappings.layer, layer)));
  return rows.find((r) => r.ownerUserId === owner) ?? null;
}

describe("the list", () => {
  it("pages through the model's objects with the effective values and where they come from", async () => {
    const first = await get("as", "");
    expect(first.status).toBe(200);
    // The registry's 121 ASes; the special ones of the demo are not here (no demo loaded).
    expect(first.data.total).toBe(121);
    expect(first.data.pageCount).toBe(Math.ceil(121 / MAPPINGS_PAGE_SIZE));
    expect(first.data.objects).toHaveLength(MAPPINGS_PAGE_SIZE);
    const netflix = first.data.objects[0];
    expect(netflix).toMatchObject({
      id: "2906",
      label: "AS2906",
      registryName: "NETFLIX-ASN",
      application: "Netflix",
      infrastructure: null,
      effective: { name: "Netflix Streaming", nameFrom: "site (20)", color: "#e50914", colorFrom: "base (0)" },
    });
    const last = await get("as", "?page=3");
    expect(last.data.objects.map((o: { id: string }) => o.id)).toEqual(
      Array.from({ length: 121 - 2 * MAPPINGS_PAGE_SIZE }, (_, i) => String(64_600 + 2 * MAPPINGS_PAGE_SIZE - 1 + i)),
    );
  });

  it("searches ids, layer names, registry names and assignments; a bad page falls back with a notice", async () => {
    const ids = async (screen: keyof typeof SCREENS, query: string, role: Role = "operator") =>
      (await get(screen, query, role)).data.objects.map((o: { id: string }) => o.id);
    expect(await ids("as", "?q=AS64610")).toEqual(["64610"]);
    expect(await ids("as", "?q=streaming")).toEqual(["2906"]);
    expect(await ids("as", "?q=example%20cdn")).toEqual(["64601"]);
    expect(await ids("as", "?q=registry%20as%206460")).toHaveLength(10);
    expect(await ids("app", "?q=video")).toEqual(["Zoom"]);
    expect(await ids("app", "?q=100%25")).toEqual([]);
    // Another user's own layer is not listed, not even by its name.
    expect(await ids("app", "")).toEqual(["Netflix", "Zoom"]);
    expect(await ids("app", "", "staff")).toEqual(["Netflix", "Secret app", "Zoom"]);
    const bad = await get("as", "?page=abc&id=not-an-as");
    expect(bad.status).toBe(200);
    expect(bad.data.page).toBe(1);
    expect(bad.data.selected).toBeNull();
    expect(bad.data.notices).toEqual(['Page "abc" is no page number: the first page is shown.', '"not-an-as" is no AS number.']);
    const beyond = await get("as", "?page=99");
    expect(beyond.data.page).toBe(3);
    expect(beyond.data.notices).toEqual(["There is no page 99: the last page (3) is shown."]);
  });

  it("opens one object with its four layers, also one nobody mapped yet; the infrastructure lists the ASes serving it", async () => {
    const open = await get("as", "?id=AS2906");
    expect(open.data.selected.layers).toEqual([
      { layer: 0, label: "base (0)", name: "Netflix", color: "#e50914", set: true },
      { layer: 10, label: "product (10)", name: null, color: null, set: false },
      { layer: 20, label: "site (20)", name: "Netflix Streaming", color: null, set: true },
      { layer: 30, label: "user (30)", name: null, color: null, set: false },
    ]);
    const fresh = await get("as", "?id=4200000001");
    expect(fresh.data.selected).toMatchObject({ id: "4200000001", effective: { name: null, color: null } });
    const cdn = await runRoute(infrastructuresRoute.loader, getRequest("/mappings/infrastructures?id=Example%20CDN", cookie.operator));
    expect(cdn.data.selected.servedBy).toEqual([64_601]);
  });

  it("needs API_FLOWS_4D: others go to their landing route, signed-out visitors to the login", async () => {
    const refused = await get("as", "", "noFlows");
    expect(refused.status).toBe(302);
    // CONTROL_PLANE alone, and no routing data: no tool to land on.
    expect(refused.location).toBe("/logout?reason=no-permissions");
    const anonymous = await runRoute(asRoute.loader, new Request(`${ORIGIN}/mappings/as`));
    expect(anonymous.location).toBe(`/login?next=${encodeURIComponent("/mappings/as")}`);
  });
});

describe("every action × role", () => {
  type Case = { name: string; screen: keyof typeof SCREENS; fields: Record<string, string>; allowed: Role[] };
  const CASES: Case[] = [
    {
      name: "user layer colour",
      screen: "as",
      fields: { intent: "save-layer", id: "64605", layer: "30", color: "#111111" },
      allowed: [...ROLES],
    },
    {
      name: "user layer AS name",
      screen: "as",
      fields: { intent: "save-layer", id: "64605", layer: "30", name: "Mine" },
      allowed: ["renamer", "superuser"],
    },
    {
      name: "user layer application name",
      screen: "app",
      fields: { intent: "save-layer", id: "Zoom", layer: "30", name: "Z" },
      allowed: [...ROLES],
    },
    {
      name: "site layer",
      screen: "as",
      fields: { intent: "save-layer", id: "64605", layer: "20", name: "Site" },
      allowed: ["moderator", "staff", "superuser"],
    },
    {
      name: "product layer",
      screen: "app",
      fields: { intent: "save-layer", id: "Zoom", layer: "10", name: "P" },
      allowed: ["staff", "superuser"],
    },
    {
      name: "base layer",
      screen: "app",
      fields: { intent: "save-layer", id: "Zoom", layer: "0", color: "#222222" },
      allowed: ["staff", "superuser"],
    },
    {
      name: "assignment",
      screen: "as",
      fields: { intent: "assign", id: "64605", application: "Gaming", infrastructure: "" },
      allowed: ["moderator", "staff", "superuser"],
    },
  ];

  for (const c of CASES) {
    it(`${c.name}: ${c.allowed.join(", ")}`, async () => {
      for (const role of ROLES) {
        const res = await post(c.screen, c.fields, role);
        if (c.allowed.includes(role)) {
          expect(res.status, role).toBe(302);
          expect(res.location, role).toMatch(/saved=(layer-saved|assigned)/);
        } else {
          expect(res.status, role).toBe(400);
          expect(res.data.errors[""], role).toMatch(/moderators|staff|API_CHANGE_AS_INFO/);
        }
      }
    });
  }

  it("writes what was asked: own rows per user, one shared site row, the assignment", async () => {
    // A save replaces the user's row: who could rename kept the name and dropped the colour.
    for (const role of ["operator", "moderator", "staff"] as const) {
      expect(await layerRow("AS", "64605", 30, uid[role]), role).toMatchObject({ name: null, color: "#111111" });
    }
    expect((await layerRow("AS", "64605", 30, uid.renamer))?.name).toBe("Mine");
    expect((await layerRow("AS", "64605", 20))?.name).toBe("Site");
    expect((await layerRow("Application", "Zoom", 10))?.name).toBe("P");
    const assigned = await stores.pg.db.select().from(asServiceMappings).where(eq(asServiceMappings.asn, 64_605));
    expect(assigned.map((r) => [r.kind, r.name])).toEqual([["Application", "Gaming"]]);
    // The operator sees the site name and their own colour; the renamer their own name.
    expect((await get("as", "?id=64605")).data.selected.effective).toMatchObject({ name: "Site", nameLayer: 20, colorLayer: 30 });
    expect((await get("as", "?id=64605", "renamer")).data.selected.effective).toMatchObject({ name: "Mine", nameLayer: 30 });
  });

  it("removes a layer (the rights of saving it); an empty assignment removes it", async () => {
    expect((await post("as", { intent: "remove-layer", id: "64605", layer: "20" }, "operator")).status).toBe(400);
    expect((await post("as", { intent: "remove-layer", id: "64605", layer: "20" }, "moderator")).location).toContain("saved=layer-removed");
    expect(await layerRow("AS", "64605", 20)).toBeNull();
    expect((await post("as", { intent: "remove-layer", id: "64605", layer: "30" }, "operator")).status).toBe(302);
    expect(await layerRow("AS", "64605", 30, uid.operator)).toBeNull();
    expect((await layerRow("AS", "64605", 30, uid.renamer))?.name).toBe("Mine");
    await post("as", { intent: "assign", id: "64605", application: "", infrastructure: "" }, "moderator");
    expect(await stores.pg.db.select().from(asServiceMappings).where(eq(asServiceMappings.asn, 64_605))).toEqual([]);
  });

  it("refuses bad input with per-field messages and the values as typed", async () => {
    const res = await post("as", { intent: "save-layer", id: "64606", layer: "30", color: "red", name: "x".repeat(101) }, "renamer");
    expect(res.status).toBe(400);
    expect(res.data.errors).toEqual({ color: "A colour as #rrggbb, e.g. #137cbd.", name: "At most 100 characters." });
    expect(res.data.values.color).toBe("red");
    expect((await post("as", { intent: "save-layer", id: "64606", layer: "30" })).data.errors.name).toMatch(/name, a colour or both/);
    expect((await post("as", { intent: "save-layer", id: "Netflix", layer: "30", color: "#123456" })).data.errors.id).toMatch(/AS number/);
    expect((await post("as", { intent: "save-layer", id: "64606", layer: "15", color: "#123456" })).data.errors.layer).toBe("Not a layer.");
    expect((await post("app", { intent: "assign", id: "Zoom" }, "staff")).status).toBe(400);
    expect((await post("as", { intent: "bogus", id: "64606" })).data.errors[""]).toBe("Unknown action.");
    expect(await stores.pg.db.select().from(mappings).where(eq(mappings.objectId, "64606"))).toEqual([]);
    const noCsrf = await runRoute(
      asRoute.action,
      new Request(`${ORIGIN}/mappings/as`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: withCsrf(cookie.operator) },
        body: "intent=save-layer&id=64606&layer=30&color=%23123456",
      }),
    );
    expect(noCsrf.status).toBe(403);
  });
});

describe("CSV import", () => {
  const importCsv = (screen: keyof typeof SCREENS, csv: string, role: Role = "operator") => post(screen, { intent: "import", csv }, role);

  it("lists every bad line and writes nothing, not even the good lines", async () => {
    const csv = [
      "id;layer;name;color;application",
      "AS64610;site;Good line;#123456;Video",
      "banana;30;;#123456;",
      "64611;30;;red;",
      "64612;15;x;;",
      "64613;;Name only;;",
      "64610;20;Again;;",
      "64614;30;Renamed;;",
      "64615;;;;",
      '64616;20;"quoted; with delimiter";#abcdef;',
    ].join("\n");
    const refused = await importCsv("as", csv, "moderator");
    expect(refused.status).toBe(400);
    expect(refused.data.errors.csv).toMatch(/^Nothing was imported: 7 problem\(s\)/);
    expect(refused.data.problems).toEqual([
      { line: 3, message: 'id "banana" is no AS number.' },
      { line: 4, message: 'color "red" is not #rrggbb (e.g. #137cbd).' },
      { line: 5, message: 'layer "15" is none of 0 (base), 10 (product), 20 (site), 30 (user).' },
      { line: 6, message: "layer is empty: say which layer the name and colour go to." },
      { line: 7, message: "64610 in layer 20 is already given on line 2." },
      { line: 8, message: "Renaming an AS in your own layer needs the API_CHANGE_AS_INFO permission; its colour you may change." },
      { line: 9, message: "Nothing to import on this line." },
    ]);
    expect(await layerRow("AS", "64610", 20)).toBeNull();
    expect(await layerRow("AS", "64616", 20)).toBeNull();
    expect(await stores.pg.db.select().from(asServiceMappings).where(eq(asServiceMappings.asn, 64_610))).toEqual([]);
  });

  it("refuses what the role may not write, line by line", async () => {
    const refused = await importCsv("app", "id,layer,name,color\nSkype,20,Site name,\nSkype,30,,#010101", "operator");
    expect(refused.status).toBe(400);
    expect(refused.data.problems).toEqual([
      { line: 2, message: "Only moderators, staff and superusers can change the site layer (20); your own layer is 30." },
    ]);
    const header = await importCsv("app", "id,layer,name,colour\nSkype,30,,#010101");
    expect(header.data.problems).toEqual([{ line: 1, message: 'Header: unknown column "colour". Columns: id, layer, name, color.' }]);
    const assign = await importCsv("app", "id,application\nSkype,Video");
    expect(assign.data.problems[0].message).toMatch(/unknown column "application"/);
    expect(await stores.pg.db.select().from(mappings).where(eq(mappings.objectId, "Skype"))).toEqual([]);
  });

  it("imports a good file in one go, from a file upload too", async () => {
    const ok = await importCsv(
      "as",
      'id;layer;name;color;application;infrastructure\nAS64610;site;Good line;#123456;Video;-\n64616;20;"quoted; with delimiter";#abcdef;;',
      "moderator",
    );
    expect(ok.status).toBe(302);
    expect(ok.location).toBe("/mappings/as?rows=2&saved=imported");
    expect((await layerRow("AS", "64610", 20))?.name).toBe("Good line");
    expect((await layerRow("AS", "64616", 20))?.name).toBe("quoted; with delimiter");
    expect((await stores.pg.db.select().from(asServiceMappings).where(eq(asServiceMappings.asn, 64_610))).map((r) => r.name)).toEqual([
      "Video",
    ]);
    expect((await get("as", "?rows=2&saved=imported", "moderator")).data.savedMessage).toBe("2 line(s) were imported.");

    const form = new FormData();
    form.set("csrfmiddlewaretoken", CSRF_TOKEN);
    form.set("intent", "import");
    form.set("file", new File(["id,layer,color\nSteam,30,#1b2838\n"], "apps.csv", { type: "text/csv" }));
    const upload = await runRoute(
      applicationsRoute.action,
      new Request(`${ORIGIN}/mappings/applications`, { method: "POST", headers: { Cookie: withCsrf(cookie.operator) }, body: form }),
    );
    expect(upload.status).toBe(302);
    expect((await layerRow("Application", "Steam", 30, uid.operator))?.color).toBe("#1b2838");
    expect((await post("app", { intent: "import", csv: "  " })).data.errors.csv).toBe("Choose a CSV file or paste its lines.");
  });
});
