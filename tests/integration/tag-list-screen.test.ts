/**
 * The Tag list screen (/manage-tags) through its route module: tags created, edited and deleted by
 * plain form posts (redirect with a notice), values pasted as a list and checked for the tag's
 * kind (400 with the message next to the field, nothing stored), who may touch shared tags, tag
 * groups behind AGGREGATE_TAG_GROUPS, routers and interfaces checked against the network inventory,
 * deleting through a confirm step, and what a Flow Explorer link naming a deleted tag shows.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asInfo, groups, tags, tagValues, userGroups, userPermissions, users } from "~db/postgres/schema";
import { createRouter } from "~/features/inventory/inventory.server";
import { MODERATORS_GROUP } from "~/lib/permissions";
import * as route from "~/routes/_app.manage-tags";
import * as explorerRoute from "~/routes/_app.flow-explorer";
import { useServicesForTests } from "~/server/services.server";
import { formRequest, getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const PATH = "/manage-tags";
let stores: TestStores;
const uid = { operator: 0, moderator: 0, other: 0 };
const cookies = { operator: "", moderator: "", superuser: "", other: "" };

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const db = stores.pg.db;
  // An install with its operator AS but no flows yet: the Flow Explorer still says what it could not apply.
  await db.insert(asInfo).values({ asn: 64496, name: "Test Carrier", category: "operator" });
  const insert = async (email: string, permissions: string[]) => {
    const [row] = await db
      .insert(users)
      .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true })
      .returning({ id: users.id });
    if (permissions.length) await db.insert(userPermissions).values(permissions.map((permission) => ({ userId: row.id, permission })));
    return row.id;
  };
  // The routers the tags below name, two with interfaces.
  for (const [index, name] of ["fra1-r1", "ber1-r1", "ham1-r1", "muc1-r1"].entries()) {
    await createRouter(stores, {
      name,
      city: "City",
      country: "Germany",
      loopback: `198.51.100.${index + 1}`,
      interfaces:
        index < 2
          ? [
              { name: "et-0/0/1", ifindex: 501, capacity: 100_000_000_000, kind: "external", peering: "Transit", neighbour_as: 3356 },
              { name: "ae1", ifindex: 601, capacity: 400_000_000_000, kind: "core" },
            ]
          : [],
    });
  }
  uid.operator = await insert("operator@tags.test", ["MANAGE_TAGS", "API_FLOWS_4D"]);
  uid.moderator = await insert("moderator@tags.test", ["MANAGE_TAGS", "AGGREGATE_TAG_GROUPS"]);
  uid.other = await insert("other@tags.test", ["MANAGE_TAGS"]);
  const [moderators] = await db.select().from(groups).where(eq(groups.name, MODERATORS_GROUP));
  await db.insert(userGroups).values({ userId: uid.moderator, groupId: moderators.id });
  cookies.operator = await sessionCookie(stores, uid.operator);
  cookies.moderator = await sessionCookie(stores, uid.moderator);
  cookies.other = await sessionCookie(stores, uid.other);
  cookies.superuser = await sessionCookie(stores, await insertSuperuser(stores, "root@tags.test"));
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const get = (query = "", cookie = cookies.operator) => runRoute(route.loader, getRequest(`${PATH}${query}`, cookie));
const post = (fields: Record<string, string>, cookie = cookies.operator) => runRoute(route.action, formRequest(PATH, fields, cookie));
const storedTag = async (name: string) => (await stores.pg.db.select().from(tags).where(eq(tags.name, name)))[0];
const storedValues = async (tagId: number) =>
  (await stores.pg.db.select({ v: tagValues.value }).from(tagValues).where(eq(tagValues.tagId, tagId)).orderBy(tagValues.id)).map(
    (r) => r.v,
  );

describe("tags", () => {
  it("adds a personal tag from a pasted list, normalised, and lists it only for its owner", async () => {
    const out = await post({
      intent: "create-tag",
      kind: "AS_NUMBER",
      name: "Transits",
      color: "#AA0000",
      scope: "personal",
      values: "AS3320\n1299, 3320\r\n as174 \n\n",
    });
    expect(out.status).toBe(302);
    expect(out.location).toBe("/manage-tags?kind=AS_NUMBER&saved=tag-created");
    const tag = await storedTag("Transits");
    expect(tag).toMatchObject({ color: "#aa0000", dimension: "AS_NUMBER", ownerUserId: uid.operator });
    expect(await storedValues(tag.id)).toEqual(["3320", "1299", "174"]);
    const page = await get("?kind=AS_NUMBER&saved=tag-created");
    expect(page.data.savedMessage).toBe("The tag was added.");
    expect(page.data.tags.map((t: { name: string; reference: string }) => [t.name, t.reference])).toEqual([["Transits", `#${tag.id}`]]);
    expect((await get("?kind=AS_NUMBER", cookies.other)).data.tags).toEqual([]);
  });

  it("refuses values that are not of the kind, next to the field, and stores nothing", async () => {
    const cases: [string, string, RegExp][] = [
      ["AS_NUMBER", "3320\nbanana\n!1299", /banana is not a valid AS number input.*!1299 is not a valid AS number input/],
      ["INTERFACE", "fra1-r1", /fra1-r1 is not a valid interface \(router\|interface\) input/],
      ["ROUTER", "a|b", /a\|b is not a valid router input/],
      ["IANA_PROTOCOL", "256", /256 is not a valid IANA protocol/],
      ["AS_NUMBER", "#12", /#12 is not a valid AS number input/],
      ["AS_NUMBER", " \n ", /Give at least one value/],
    ];
    for (const [kind, values, message] of cases) {
      const out = await post({ intent: "create-tag", kind, name: `Bad ${kind}`, values });
      expect(out.status, `${kind} ${values}`).toBe(400);
      expect(out.data.errors.values).toMatch(message);
      expect(out.data.values.values).toBe(values);
      expect(await storedTag(`Bad ${kind}`)).toBeUndefined();
    }
    const noName = await post({ intent: "create-tag", kind: "ROUTER", name: " ", values: "fra1-r1", color: "red" });
    expect(noName.status).toBe(400);
    expect(noName.data.errors).toMatchObject({ name: "Give the name.", color: "The colour is #rrggbb, e.g. #137cbd." });
    const twice = await post({ intent: "create-tag", kind: "AS_NUMBER", name: "transits", values: "1" });
    expect(twice.data.errors.name).toBe('There is a tag "transits" of AS numbers already.');
  });

  it("takes routers and interfaces of the network inventory only, each unknown one with its own message, in the inventory's spelling", async () => {
    const refused = await post({ intent: "create-tag", kind: "ROUTER", name: "Edge", values: "fra1-r1\nfra9-r9, lon1-r1" });
    expect(refused.status).toBe(400);
    expect(refused.data.errors.values).toBe(
      "fra9-r9 is not a router of the network inventory. lon1-r1 is not a router of the network inventory.",
    );
    expect(await storedTag("Edge")).toBeUndefined();
    const ifaces = await post({
      intent: "create-tag",
      kind: "INTERFACE",
      name: "Uplinks",
      values: "fra1-r1|et-0/0/1\nfra1-r1|et-0/0/9\nlon1-r1|et-0/0/1",
    });
    expect(ifaces.status).toBe(400);
    expect(ifaces.data.errors.values).toBe(
      "fra1-r1|et-0/0/9: fra1-r1 has no interface et-0/0/9 in the network inventory. lon1-r1|et-0/0/1: lon1-r1 is not a router of the network inventory.",
    );
    expect(ifaces.data.values.values).toBe("fra1-r1|et-0/0/1\nfra1-r1|et-0/0/9\nlon1-r1|et-0/0/1");
    // Known ones, written in another case: stored as the inventory spells them, once.
    const made = await post({
      intent: "create-tag",
      kind: "INTERFACE",
      name: "Uplinks",
      values: "FRA1-R1|ET-0/0/1\nfra1-r1|et-0/0/1, ber1-r1|ae1",
    });
    expect(made.status).toBe(302);
    expect(await storedValues((await storedTag("Uplinks")).id)).toEqual(["fra1-r1|et-0/0/1", "ber1-r1|ae1"]);
    const edge = await post({ intent: "create-tag", kind: "ROUTER", name: "Edge", values: "FRA1-R1" });
    expect(edge.status).toBe(302);
    expect(await storedValues((await storedTag("Edge")).id)).toEqual(["fra1-r1"]);
    // Editing checks the same way.
    const edited = await post({ intent: "update-tag", id: String((await storedTag("Edge")).id), name: "Edge", values: "fra1-r1\nnope" });
    expect(edited.status).toBe(400);
    expect(edited.data.errors.values).toBe("nope is not a router of the network inventory.");
    // Other kinds are not checked against the inventory.
    expect((await post({ intent: "create-tag", kind: "VRF_NAME", name: "VRFs", values: "anything" })).status).toBe(302);
  });

  it("keeps shared tags to staff, superusers and moderators", async () => {
    const refused = await post({ intent: "create-tag", kind: "ROUTER", name: "Core", scope: "shared", values: "fra1-r1" });
    expect(refused.status).toBe(400);
    expect(refused.data.errors.scope).toBe("Only staff, superusers and moderators may make a shared tag.");
    const made = await post(
      { intent: "create-tag", kind: "ROUTER", name: "Core", scope: "shared", values: "fra1-r1\nber1-r1" },
      cookies.moderator,
    );
    expect(made.location).toBe("/manage-tags?kind=ROUTER&saved=tag-created");
    const core = await storedTag("Core");
    expect(core.ownerUserId).toBeNull();
    // Everyone sees it; an operator neither edits nor deletes it.
    const seen = await get("?kind=ROUTER", cookies.other);
    expect(seen.data.tags).toMatchObject([{ name: "Core", personal: false, editable: false }]);
    expect(seen.data.mayEditShared).toBe(false);
    const edit = await post({ intent: "update-tag", id: String(core.id), name: "Mine now", scope: "personal", values: "x" });
    expect(edit.status).toBe(403);
    expect((await post({ intent: "delete-tag", id: String(core.id), confirm: "yes" })).status).toBe(403);
    expect((await get(`?delete_tag=${core.id}`)).data).toMatchObject({
      deleting: null,
      notices: ['The tag "Core" is shared: only staff, superusers and moderators may delete it.'],
    });
    expect((await get(`?tag=${core.id}`)).data.notices).toEqual([
      'The tag "Core" is shared: only staff, superusers and moderators may change it.',
    ]);
    const renamed = await post(
      { intent: "update-tag", id: String(core.id), name: "Core routers", color: "#137cbd", scope: "shared", values: "ber1-r1\nham1-r1" },
      cookies.superuser,
    );
    expect(renamed.location).toBe(`/manage-tags?kind=ROUTER&tag=${core.id}&saved=tag-updated`);
    expect(await storedValues(core.id)).toEqual(["ber1-r1", "ham1-r1"]);
    // Another user's personal tag is as if it did not exist.
    const transits = await storedTag("Transits");
    expect((await post({ intent: "delete-tag", id: String(transits.id), confirm: "yes" }, cookies.moderator)).status).toBe(404);
    expect((await get(`?tag=${transits.id}`, cookies.moderator)).data.notices).toEqual([
      `There is no tag #${transits.id} (any more): it may have been deleted.`,
    ]);
  });

  it("shows the notice of options it could not apply", async () => {
    const page = await get("?kind=PREFIX&tag=x");
    expect(page.status).toBe(200);
    expect(page.data.kind).toBe("AS_NUMBER");
    expect(page.data.notices).toEqual(['"PREFIX" is not a kind of tag: AS numbers are shown.', '"x" is not a tag id.']);
  });
});

describe("tag groups", () => {
  it("need AGGREGATE_TAG_GROUPS; a shared group holds shared tags only", async () => {
    expect((await get("?kind=ROUTER")).data.withGroups).toBe(false);
    expect((await post({ intent: "create-group", kind: "ROUTER", name: "G", tags: "1" })).status).toBe(403);
    const core = await storedTag("Core routers");
    await post({ intent: "create-tag", kind: "ROUTER", name: "My routers", values: "muc1-r1" }, cookies.moderator);
    const mine = await storedTag("My routers");
    const body = new URLSearchParams({ intent: "create-group", kind: "ROUTER", name: "All routers", scope: "shared" });
    const send = (b: URLSearchParams) => runRoute(route.action, formRequest(PATH, Object.fromEntries(b), cookies.moderator));
    // Two `tags` fields: a form request helper of one value per name cannot send them, so the body is built by hand.
    const withTags = async (ids: number[], scope: string) => {
      const b = new URLSearchParams(body);
      b.set("scope", scope);
      const request = formRequest(PATH, Object.fromEntries(b), cookies.moderator);
      const text = `${await request.text()}&${ids.map((id) => `tags=${id}`).join("&")}`;
      return runRoute(route.action, new Request(request.url, { method: "POST", headers: request.headers, body: text }));
    };
    expect((await send(body)).data.errors.tags).toBe("Choose at least one tag.");
    const mixed = await withTags([core.id, mine.id], "shared");
    expect(mixed.status).toBe(400);
    expect(mixed.data.errors.tags).toBe("A shared group holds shared tags only; My routers is personal.");
    const made = await withTags([core.id, mine.id], "personal");
    expect(made.location).toBe("/manage-tags?kind=ROUTER&saved=group-created");
    const page = await get("?kind=ROUTER", cookies.moderator);
    expect(page.data.groups).toMatchObject([{ name: "All routers", personal: true, valueCount: 3 }]);
    expect(page.data.tags.find((t: { name: string }) => t.name === "Core routers").groups).toEqual(["All routers"]);

    // Deleting the group: the confirm step names what stays; a tag in it says it leaves the group.
    const group = page.data.groups[0] as { id: number };
    const tagStep = await get(`?delete_tag=${mine.id}`, cookies.moderator);
    expect(tagStep.data.deleting.effects[0]).toBe("It is taken out of the tag groups All routers.");
    const step = await get(`?delete_group=${group.id}`, cookies.moderator);
    expect(step.data.kind).toBe("ROUTER");
    expect(step.data.deleting).toMatchObject({ type: "group", intent: "delete-group", name: "All routers", reference: `#g${group.id}` });
    expect(step.data.deleting.effects[0]).toBe("Its tags (Core routers, My routers) stay.");
    expect(await post({ intent: "delete-group", id: String(group.id) }, cookies.moderator)).toMatchObject({
      status: 302,
      location: `/manage-tags?kind=AS_NUMBER&delete_group=${group.id}`,
    });
    expect((await get("?kind=ROUTER", cookies.moderator)).data.groups).toHaveLength(1);
    expect((await get(`?delete_group=${group.id}`)).data.notices).toEqual(["Tag groups need the AGGREGATE_TAG_GROUPS permission."]);
    const gone = await post({ intent: "delete-group", id: String(group.id), confirm: "yes" }, cookies.moderator);
    expect(gone.location).toBe("/manage-tags?kind=ROUTER&saved=group-deleted");
    expect((await get("?kind=ROUTER", cookies.moderator)).data.groups).toEqual([]);
  });
});

describe("deleting a tag that saved links name", () => {
  it("says so before, and the Flow Explorer link then shows a notice, not an error page", async () => {
    await post({ intent: "create-tag", kind: "AS_NUMBER", name: "Watch", values: "64500" });
    const watch = await storedTag("Watch");
    const link = `/flow-explorer?filter=AS_SRC_INGRESS:%23${watch.id}`;
    const explore = () => runRoute(explorerRoute.loader, getRequest(link, cookies.operator));
    const aboutTags = (errors: string[]) => errors.filter((e) => e.includes("tag"));
    expect(aboutTags((await explore()).data.errors)).toEqual([]);
    const open = await get(`?tag=${watch.id}`);
    expect(open.data.editedTag).toMatchObject({ name: "Watch", values: ["64500"], groups: [] });
    // Deleting asks first: the list's Delete link opens the confirm step, which says what happens.
    const step = await get(`?kind=AS_NUMBER&delete_tag=${watch.id}`);
    expect(step.data.deleting).toEqual({
      type: "tag",
      id: watch.id,
      name: "Watch",
      reference: `#${watch.id}`,
      intent: "delete-tag",
      effects: [`Saved links and bookmarks that filter by #${watch.id} then show a notice that it is gone, in place of its values.`],
    });
    // A delete posted without the confirmation is sent to that step, and deletes nothing.
    const unconfirmed = await post({ intent: "delete-tag", id: String(watch.id) });
    expect(unconfirmed).toMatchObject({ status: 302, location: `/manage-tags?kind=AS_NUMBER&delete_tag=${watch.id}` });
    expect(await storedTag("Watch")).toBeDefined();
    const gone = await post({ intent: "delete-tag", id: String(watch.id), confirm: "yes" });
    expect(gone.location).toBe("/manage-tags?kind=AS_NUMBER&saved=tag-deleted");
    expect((await get("?kind=AS_NUMBER&saved=tag-deleted")).data.savedMessage).toMatch(
      /Saved links and bookmarks that name it now show a notice/,
    );
    const after = await explore();
    expect(after.status).toBe(200);
    expect(aboutTags(after.data.errors)).toEqual([`Unknown tag #${watch.id}: it was deleted, or it is another user's personal one.`]);
    const again = await post({ intent: "delete-tag", id: String(watch.id), confirm: "yes" });
    expect(again.status).toBe(404);
    expect(again.data.errors).toEqual({ "": `There is no tag #${watch.id} (any more).` });
    expect((await get(`?delete_tag=${watch.id}`)).data.notices).toEqual([
      `There is no tag #${watch.id} (any more): it may have been deleted.`,
    ]);
  });
});
