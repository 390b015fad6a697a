/**
 * The pure parts of user administration: the lock-out rule of one's own account, the grant rule as
 * the Users screen applies it, the permission catalogue (every code of the spec explained once),
 * the screen's URL state, and how audit entries become field changes.
 */
import { describe, expect, it } from "vitest";
import { parseUsersParams, usersUrl } from "~/features/users/params";
import { auditChanges } from "~/features/users/users-screen.server";
import {
  catalogueGaps,
  describeFeatureFlag,
  describePermission,
  FEATURE_FLAG_CATALOGUE,
  featureFlagsByEffect,
  groupedPermissions,
  PERMISSION_CATALOGUE,
  unbuiltPermissions,
} from "~/lib/permission-catalogue";
import { DELEGABLE_PERMISSIONS } from "~/features/users/delegated-users/params";
import { FEATURE_FLAGS, PERMISSIONS } from "~/lib/permissions";
import { unbuiltToolOf } from "~/lib/routes";
import { EMAIL_CHANGE_TEXTS, emailChangeProblems, GRANT_TEXTS, grantProblems } from "~/server/auth/account-admin.server";
import { emailChangeRefusals, selfLockOutProblem, USER_ADMIN_TEXTS } from "~/server/auth/user-admin.server";

const flags = (is_active: boolean, is_staff: boolean, is_superuser: boolean) => ({ is_active, is_staff, is_superuser });

describe("self lock-out", () => {
  const me = { id: 7, ...flags(true, true, true) };
  it("refuses deactivating yourself and dropping your own flags", () => {
    expect(selfLockOutProblem(7, me, flags(false, true, true))).toBe(USER_ADMIN_TEXTS.selfDeactivate);
    expect(selfLockOutProblem(7, me, flags(true, true, false))).toBe(USER_ADMIN_TEXTS.selfSuperuser);
    expect(selfLockOutProblem(7, me, flags(true, false, true))).toBe(USER_ADMIN_TEXTS.selfStaff);
    expect(selfLockOutProblem(7, { id: 7, ...flags(true, true, false) }, flags(true, false, false))).toBe(USER_ADMIN_TEXTS.selfStaff);
  });
  it("allows keeping or adding, and anything on another account", () => {
    expect(selfLockOutProblem(7, me, flags(true, true, true))).toBeNull();
    expect(selfLockOutProblem(7, { id: 7, ...flags(true, false, false) }, flags(true, true, false))).toBeNull();
    expect(selfLockOutProblem(8, me, flags(false, false, false))).toBeNull();
  });
});

describe("grant rules as the Users screen applies them", () => {
  const staff = { permissions: ["VIEW_USERS", "API_FLOWS_4D"], featureFlags: ["fetchMaxTimestamp"], isSuperuser: false };
  it("grants only what the actor holds; what the account had may stay", () => {
    expect(grantProblems(staff, { permissions: ["API_FLOWS_4D"], featureFlags: [] })).toEqual([]);
    expect(grantProblems(staff, { permissions: ["CONTROL_PLANE"], featureFlags: [] })).toEqual([
      GRANT_TEXTS.permissionNotHeld("CONTROL_PLANE"),
    ]);
    expect(
      grantProblems(staff, { permissions: ["CONTROL_PLANE"], featureFlags: [] }, { permissions: ["CONTROL_PLANE"], featureFlags: [] }),
    ).toEqual([]);
    expect(grantProblems(staff, { permissions: [], featureFlags: ["rnaTagColumn"] })).toEqual([GRANT_TEXTS.flagNotHeld("rnaTagColumn")]);
  });
  it("staff and superuser flags change only by a superuser", () => {
    expect(grantProblems(staff, { permissions: [], featureFlags: [], isStaff: true })).toEqual([GRANT_TEXTS.staffBySuperuser]);
    expect(
      grantProblems(staff, { permissions: [], featureFlags: [], isStaff: false }, { permissions: [], featureFlags: [], isStaff: true }),
    ).toEqual([GRANT_TEXTS.staffBySuperuser]);
    expect(grantProblems({ ...staff, isSuperuser: true }, { permissions: ["CONTROL_PLANE"], featureFlags: [], isSuperuser: true })).toEqual(
      [],
    );
  });
});

describe("changing another account's e-mail address: a grant of everything it holds", () => {
  const staff = { permissions: ["VIEW_USERS", "API_FLOWS_4D"], featureFlags: ["fetchMaxTimestamp"], isSuperuser: false };
  it("needs every permission and flag the account holds, and superuser for a staff or superuser account", () => {
    expect(emailChangeProblems(staff, { permissions: ["API_FLOWS_4D"], featureFlags: ["fetchMaxTimestamp"] })).toEqual([]);
    expect(emailChangeProblems(staff, { permissions: ["API_FLOWS_4D", "CONTROL_PLANE"], featureFlags: ["rnaTagColumn"] })).toEqual([
      EMAIL_CHANGE_TEXTS.permissionNotHeld("CONTROL_PLANE"),
      EMAIL_CHANGE_TEXTS.flagNotHeld("rnaTagColumn"),
    ]);
    // Another staff account holding less than the actor: staff is something only superusers hand out.
    expect(emailChangeProblems(staff, { permissions: ["VIEW_USERS"], featureFlags: [], isStaff: true })).toEqual([
      EMAIL_CHANGE_TEXTS.staffBySuperuser,
    ]);
    expect(
      emailChangeProblems({ ...staff, isSuperuser: true }, { permissions: ["CONTROL_PLANE"], featureFlags: [], isStaff: true }),
    ).toEqual([]);
  });
  it("counts what the account's groups grant; one's own address is one's own", () => {
    const actor = { id: 1, email: "s@x.test", firstName: "", lastName: "", isStaff: true, isDelegated: false, ...staff };
    const target = { id: 2, permissions: ["API_FLOWS_4D"], feature_flags: [], is_staff: false, is_superuser: false };
    expect(emailChangeRefusals(actor, target, [])).toEqual([]);
    expect(emailChangeRefusals(actor, target, ["RAW_NETWORK_ANALYZER"])).toEqual([
      EMAIL_CHANGE_TEXTS.permissionNotHeld("RAW_NETWORK_ANALYZER"),
    ]);
    expect(emailChangeRefusals(actor, { ...target, id: 1, is_staff: true }, ["RAW_NETWORK_ANALYZER"])).toEqual([]);
  });
});

describe("permission catalogue", () => {
  it("explains every permission and feature flag of the spec exactly once", () => {
    expect(catalogueGaps()).toEqual({ missing: [], unknown: [] });
    expect(PERMISSION_CATALOGUE).toHaveLength(PERMISSIONS.length);
    expect(FEATURE_FLAG_CATALOGUE).toHaveLength(FEATURE_FLAGS.length);
    // The flags this product gives no effect say so where they are granted (docs/decisions/011-flows-feature-flags.md).
    const explanation = (code: string) => describeFeatureFlag(code).explanation;
    expect(explanation("extrapolatedNetflow")).toMatch(/^No effect in this version: /);
    expect(explanation("replaceStatisticsTableByDisaggregationTable")).toMatch(/^No effect in this version: /);
    expect(explanation("rnaTagColumn")).toBe("Show the tag column in the Raw Network Analyzer.");
    expect(explanation("fetchMaxTimestamp")).not.toMatch(/effect|version/);
    const { effective, inert } = featureFlagsByEffect();
    expect(effective.map((f) => f.code).sort()).toEqual(["canInvokeNetcommandApi", "fetchMaxTimestamp", "rnaTagColumn"]);
    expect(inert.map((f) => f.code).sort()).toEqual(["extrapolatedNetflow", "replaceStatisticsTableByDisaggregationTable"]);
    for (const p of PERMISSION_CATALOGUE) {
      expect(p.title).not.toBe(p.code);
      expect(p.explanation.length).toBeGreaterThan(10);
    }
  });
  it("groups the permissions for the forms, each in one group", () => {
    const grouped = groupedPermissions();
    expect(grouped.map((g) => g.title)).toEqual(["Flows analysis", "Planning", "Routing", "Administration", "Developer"]);
    // The permissions of tools this version does not have are listed apart, with the tool's name; together, all of them.
    const unbuilt = unbuiltPermissions();
    // Since the guided tours, every permission of the spec belongs to a built tool (TOUR_DEMOLYTICS: the demo network's tour).
    expect(unbuilt.map((p) => p.code)).toEqual([]);
    expect(grouped.find((g) => g.key === "developer")!.permissions.map((p) => p.code)).toContain("TOUR_DEMOLYTICS");
    expect(describePermission("REVENUES_AND_COSTS").explanation).toBe("Open the revenues and costs view.");
    expect(describePermission("AS_RELATIONS").explanation).toBe("Open the AS Relations view.");
    expect([...grouped.flatMap((g) => g.permissions.map((p) => p.code)), ...unbuilt.map((p) => p.code)].sort()).toEqual(
      [...PERMISSIONS].sort(),
    );
    expect(grouped.find((g) => g.key === "administration")!.permissions.map((p) => p.code)).toContain("VIEW_USERS");
  });
  it("offers delegated accounts no grant of a tool this version does not have", () => {
    expect(DELEGABLE_PERMISSIONS.filter((p) => unbuiltToolOf(p.permission))).toEqual([]);
  });
  it("describes unknown codes by their name", () => {
    expect(describePermission("VIEW_USERS").title).toBe("View users");
    expect(describePermission("NOPE")).toEqual({ code: "NOPE", title: "NOPE", explanation: "" });
    expect(describeFeatureFlag("canInvokeNetcommandApi").title).toBe("Ping and traceroute");
  });
});

describe("Users screen URL", () => {
  it("reads every parameter and falls back with a notice on bad values", () => {
    expect(parseUsersParams(new URLSearchParams("view=audit&q=%20ada%20&sort=-last_login&page=2&user=5&confirm=delete&apage=3"))).toEqual({
      view: "audit",
      q: "ada",
      sort: "-last_login",
      page: 2,
      user: 5,
      confirmDelete: true,
      newUser: false,
      auditPage: 3,
      saved: null,
      notApplied: [],
    });
    const bad = parseUsersParams(new URLSearchParams("view=secret&sort=password&page=-1&user=abc"));
    expect(bad).toMatchObject({ view: "accounts", sort: "email", page: 1, user: null });
    expect(bad.notApplied).toHaveLength(4);
  });
  it("writes URLs without the defaults", () => {
    expect(usersUrl()).toBe("/manage-users");
    expect(usersUrl({ view: "accounts", sort: "email", page: 1, user: 4, saved: "updated" })).toBe("/manage-users?user=4&saved=updated");
    expect(usersUrl({ q: "a b", sort: "-created", page: 3 })).toBe("/manage-users?q=a+b&sort=-created&page=3");
    expect(usersUrl({ view: "audit", auditPage: 2 })).toBe("/manage-users?view=audit&apage=2");
  });
});

describe("audit entries as field changes", () => {
  it("lists only the changed fields, with titles for permissions", () => {
    const before = { email: "a@x.test", is_staff: false, permissions: ["API_FLOWS_4D"], groups: [] };
    const after = { email: "a@x.test", is_staff: true, permissions: ["API_FLOWS_4D", "VIEW_USERS"], groups: [] };
    expect(auditChanges(before, after)).toEqual([
      { field: "Staff", before: "no", after: "yes" },
      { field: "Permissions", before: "Flow Explorer", after: "Flow Explorer, View users" },
    ]);
  });
  it("shows every field of a creation or a deletion, in the form's order whatever the stored order", () => {
    expect(auditChanges(null, { groups: [], email: "n@x.test" })).toEqual([
      { field: "E-mail", before: null, after: "n@x.test" },
      { field: "Groups", before: null, after: "none" },
    ]);
    expect(auditChanges({ email: "g@x.test" }, null)).toEqual([{ field: "E-mail", before: "g@x.test", after: null }]);
  });
});
