/**
 * The community labels on /site-settings/routing-data through the route module: staff and
 * superusers only; labels added, changed and deleted by plain form posts (a redirect with a notice,
 * PRG), each change with its audit entry; refusals as 400 with the message beside the field, the
 * typed values kept and nothing stored; patterns stored in their canonical text, so one community
 * cannot get two labels; the CSRF field required.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { communityLabels, users } from "~db/postgres/schema";
import { communityLabelList } from "~/features/routing/community-labels.server";
import { COMMUNITY_MESSAGES, communityNamer } from "~/lib/bgp-communities";
import * as route from "~/routes/_app.site-settings_.routing-data";
import { listAudit } from "~/server/audit/audit-log.server";
import { useServicesForTests } from "~/server/services.server";
import { formRequest, getRequest, ORIGIN, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const PATH = "/site-settings/routing-data";
let stores: TestStores;
const cookies = { staff: "", superuser: "", user: "", delegated: "" };
let staffId = 0;

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const insert = async (email: string, extra: Partial<typeof users.$inferInsert>) =>
    (
      await stores.pg.db
        .insert(users)
        .values({ email, firstName: "T", passwordHash: "!unusable", hasConsented: true, ...extra })
        .returning({ id: users.id })
    )[0].id;
  staffId = await insert("staff@labels.test", { isStaff: true });
  const user = await insert("user@labels.test", {});
  const delegated = await insert("delegated@labels.test", { isDelegated: true, delegatedById: user });
  cookies.staff = await sessionCookie(stores, staffId);
  cookies.superuser = await sessionCookie(stores, await insertSuperuser(stores, "root@labels.test"));
  cookies.user = await sessionCookie(stores, user);
  cookies.delegated = await sessionCookie(stores, delegated);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

const get = (query = "", cookie = cookies.staff) => runRoute(route.loader, getRequest(`${PATH}${query}`, cookie));
const post = (fields: Record<string, string>, cookie = cookies.staff) => runRoute(route.action, formRequest(PATH, fields, cookie));
const stored = async () => (await stores.pg.db.select().from(communityLabels).orderBy(communityLabels.id)).map((l) => [l.pattern, l.label]);
const idOf = async (pattern: string) => (await stores.pg.db.select().from(communityLabels)).find((l) => l.pattern === pattern)!.id;
const audit = async () =>
  (await listAudit(stores.pg.db, { targetType: "community_label" })).entries
    .reverse()
    .map((e) => ({ action: e.action, actor: e.actor_email, label: e.target_label, before: e.before, after: e.after }));

describe("access", () => {
  it("is for staff and superusers; others get a 403 and change nothing, signed-out visitors the login page", async () => {
    expect((await get("", cookies.staff)).status).toBe(200);
    expect((await get("", cookies.superuser)).status).toBe(200);
    for (const cookie of [cookies.user, cookies.delegated]) {
      expect((await get("", cookie)).status).toBe(403);
      expect((await post({ intent: "create-label", pattern: "64496:100", label: "Customers" }, cookie)).status).toBe(403);
    }
    const anonymous = await runRoute(route.loader, new Request(`${ORIGIN}${PATH}`));
    expect([anonymous.status, anonymous.location]).toEqual([302, `/login?next=${encodeURIComponent(PATH)}`]);
    expect(await stored()).toEqual([]);
  });

  it("refuses a post without the CSRF field", async () => {
    const request = new Request(`${ORIGIN}${PATH}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookies.staff },
      body: new URLSearchParams({ intent: "create-label", pattern: "64496:100", label: "Customers" }).toString(),
    });
    expect((await runRoute(route.action, request)).status).toBe(403);
    expect(await stored()).toEqual([]);
  });
});

describe("labels", () => {
  it("adds labels of every kind, stores the canonical pattern, lists them in order and audits each", async () => {
    const added = [
      ["RT:64497:42", "VPN blue"],
      ["064496:0100", "Customer routes"],
      ["64496:1:*", "Learned from neighbour AS"],
      ["64496:*", "Region"],
      ["rt:64497:*", "VPNs"],
      ["64496:2:3", "Large one"],
    ];
    for (const [pattern, label] of added) {
      const res = await post({ intent: "create-label", pattern, label: `  ${label} ` });
      expect([res.status, res.location]).toEqual([302, `${PATH}?saved=label-created#community-labels`]);
    }
    expect(await stored()).toEqual([
      ["RT:64497:42", "VPN blue"],
      ["64496:100", "Customer routes"],
      ["64496:1:*", "Learned from neighbour AS"],
      ["64496:*", "Region"],
      ["RT:64497:*", "VPNs"],
      ["64496:2:3", "Large one"],
    ]);
    const page = await get("?saved=label-created");
    expect(page.data.communityLabels.savedMessage).toBe("The community label was added.");
    // Standard, then large, then extended; numbers as numbers, a * after them.
    expect(page.data.communityLabels.labels.map((l: { pattern: string; kind: string }) => `${l.kind} ${l.pattern}`)).toEqual([
      "standard 64496:100",
      "standard 64496:*",
      "large 64496:1:*",
      "large 64496:2:3",
      "extended RT:64497:42",
      "extended RT:64497:*",
    ]);
    const entries = await audit();
    expect(entries).toHaveLength(6);
    expect(entries[1]).toEqual({
      action: "community_label.create",
      actor: "staff@labels.test",
      label: "64496:100",
      before: null,
      after: { pattern: "64496:100", label: "Customer routes" },
    });
  });

  it("refuses a bad pattern, a second label for one community and a bad label, keeping what was typed and storing nothing", async () => {
    const before = await stored();
    const auditBefore = (await audit()).length;
    const cases: [Record<string, string>, Record<string, string>][] = [
      [{ pattern: "64496", label: "X" }, { pattern: COMMUNITY_MESSAGES.notAPattern("64496") }],
      [{ pattern: "65536:1", label: "X" }, { pattern: COMMUNITY_MESSAGES.standardRange }],
      [{ pattern: "64496:*:1", label: "X" }, { pattern: COMMUNITY_MESSAGES.notAPattern("64496:*:1") }],
      [{ pattern: "", label: "X" }, { pattern: COMMUNITY_MESSAGES.empty }],
      [
        { pattern: "64496:00100", label: "Again" },
        { pattern: '64496:100 has a label already ("Customer routes"): change that one, or choose another pattern.' },
      ],
      [{ pattern: "64496:7", label: "  " }, { label: "Enter the label people read beside the community, for example Customer routes." }],
      [{ pattern: "64496:7", label: "x".repeat(101) }, { label: "A label has at most 100 characters." }],
      [{ pattern: "64496:7", label: "two\nlines" }, { label: "A label is one line of text, without control characters." }],
    ];
    for (const [fields, errors] of cases) {
      const res = await post({ intent: "create-label", ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.data).toEqual({ intent: "create-label", errors, values: { intent: "create-label", ...fields } });
    }
    expect(await post({ intent: "rename-everything" })).toMatchObject({ status: 400, data: { errors: { "": "Unknown action." } } });
    expect(await stored()).toEqual(before);
    expect((await audit()).length).toBe(auditBefore);
  });

  it("opens a label for editing, changes it (audited with before and after), and refuses a change onto another label's pattern", async () => {
    const id = await idOf("64496:2:3");
    const page = await get(`?edit_label=${id}`);
    expect(page.data.communityLabels.editing).toMatchObject({ id, pattern: "64496:2:3", label: "Large one", kind: "large" });
    expect((await get("?edit_label=999999")).data.communityLabels.missing).toBe("This community label does not exist (any more).");

    const saved = await post({ intent: "update-label", id: String(id), pattern: "64496:2:4", label: "Large two" });
    expect([saved.status, saved.location]).toEqual([302, `${PATH}?saved=label-updated#community-labels`]);
    expect((await stored()).find(([p]) => p === "64496:2:4")).toEqual(["64496:2:4", "Large two"]);
    expect((await audit()).at(-1)).toEqual({
      action: "community_label.update",
      actor: "staff@labels.test",
      label: "64496:2:4",
      before: { pattern: "64496:2:3", label: "Large one" },
      after: { pattern: "64496:2:4", label: "Large two" },
    });
    const clash = await post({ intent: "update-label", id: String(id), pattern: "RT:64497:42", label: "Large two" });
    expect(clash.status).toBe(400);
    expect(clash.data.errors.pattern).toBe('RT:64497:42 has a label already ("VPN blue"): change that one, or choose another pattern.');
    // Saving a label unchanged is no change: nothing audited.
    const count = (await audit()).length;
    expect((await post({ intent: "update-label", id: String(id), pattern: "64496:2:4", label: "Large two" })).status).toBe(302);
    expect((await audit()).length).toBe(count);
    expect((await post({ intent: "update-label", id: "999999", pattern: "64496:9", label: "Gone" })).status).toBe(404);
  });

  it("deletes a label (audited); a label already gone is a 404", async () => {
    const id = await idOf("64496:2:4");
    const res = await post({ intent: "delete-label", id: String(id) });
    expect([res.status, res.location]).toEqual([302, `${PATH}?saved=label-deleted#community-labels`]);
    expect((await stored()).map(([p]) => p)).not.toContain("64496:2:4");
    expect((await audit()).at(-1)).toMatchObject({
      action: "community_label.delete",
      label: "64496:2:4",
      before: { pattern: "64496:2:4", label: "Large two" },
      after: null,
    });
    const again = await post({ intent: "delete-label", id: String(id) });
    expect([again.status, again.data.errors[""]]).toEqual([404, "This community label does not exist (any more)."]);
  });

  it("names communities with the stored labels as the Looking Glass does", async () => {
    const name = communityNamer(await communityLabelList(stores.pg.db));
    expect(["64496:100", "64496:5", "64496:1:174", "RT:64497:42", "RT:64497:7", "65535:65281"].map(name)).toEqual([
      "Customer routes",
      "Region",
      "Learned from neighbour AS",
      "VPN blue",
      "VPNs",
      "NO_EXPORT",
    ]);
  });
});
