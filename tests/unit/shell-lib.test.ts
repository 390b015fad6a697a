import { describe, expect, it } from "vitest";
import { contrastText, relativeLuminance, shadesOf } from "~/lib/colors";
import { invalidInput, MESSAGES, negatedFilterReplaced, resultsLimited } from "~/lib/messages";
import { findToolRoute, firstAvailableRoute, isToolBuilt, mayOpen, menuItems, TOOL_ROUTES } from "~/lib/routes";
import { classifyStartupError } from "~/lib/startup-error";

describe("startup error variants", () => {
  it.each([
    [new TypeError("Failed to fetch dynamically imported module: /assets/x.js"), "chunk"],
    [new Error("Loading chunk 42 failed."), "chunk"],
    [new Error("Loading CSS chunk 7 failed"), "chunk"],
    [new TypeError("Failed to fetch"), "network"],
    [new TypeError("NetworkError when attempting to fetch resource."), "network"],
    [new Error('relation "site_settings" does not exist'), "application"],
    ["weird", "application"],
  ] as const)("%s is a %s error", (error, kind) => {
    expect(classifyStartupError(error)).toBe(kind);
  });
});

describe("colours", () => {
  it("uses white text where it reads at 4.5:1, dark text otherwise", () => {
    expect(relativeLuminance("#ffffff")).toBeCloseTo(1);
    expect(relativeLuminance("#000000")).toBeCloseTo(0);
    expect(contrastText("#ffffff")).toBe("#000000");
    expect(contrastText("#f0f0f0")).toBe("#000000");
    expect(contrastText("#137cbd")).toBe("#ffffff");
    // 0.8 as a luminance threshold gave white here (1.8:1).
    expect(contrastText("#c0c0c0")).toBe("#000000");
  });

  it("makes ten shades with the colour itself at index 6", () => {
    const shades = shadesOf("#137cbd");
    expect(shades).toHaveLength(10);
    expect(shades[6]).toBe("#137cbd");
    expect(relativeLuminance(shades[0])).toBeGreaterThan(relativeLuminance(shades[9]));
  });
});

describe("messages", () => {
  it("keeps the spec's wording", () => {
    expect(MESSAGES.notFoundTitle).toBe("We are sorry, the page you requested cannot be found.");
    expect(MESSAGES.wrongCredentials).toBe("Username or password is incorrect.");
    expect(negatedFilterReplaced("[AS3320]")).toBe("The previously set filter [AS3320] was removed since its negation was added.");
    expect(invalidInput("x", "AS number")).toBe("x is not a valid AS number input");
    expect(resultsLimited(812, 500)).toBe("Your search had 812 results, only the first 500 will be shown. Try a more specific query.");
  });
});

describe("routes and menu", () => {
  const access = (permissions: string[], isStaff = false) => ({
    permissions: new Set(permissions),
    featureFlags: new Set<string>(),
    isStaff,
  });

  it("keeps AS Flows Analysis from delegated accounts, which hold API_FLOWS_4D for the Flow Explorer", () => {
    const delegated = { ...access(["API_FLOWS_4D"]), isDelegated: true };
    const analysis = findToolRoute("/as-flows-analysis")!;
    expect(mayOpen(analysis, delegated)).toBe(false);
    expect(mayOpen(analysis, access(["API_FLOWS_4D"]))).toBe(true);
    const menu = menuItems(delegated, new Set(), { hasVantagePoints: true }).map((i) => i.path);
    expect(menu).toContain("/flow-explorer");
    expect(menu).not.toContain("/as-flows-analysis");
  });

  it("resolves aliases", () => {
    expect(findToolRoute("/as-flows")?.path).toBe("/flow-explorer");
    expect(findToolRoute("/links/")?.path).toBe("/core-planner");
    expect(findToolRoute("/external-links")?.path).toBe("/border-planner");
    expect(findToolRoute("/rawnetworkanalyzer")?.path).toBe("/rna");
    expect(findToolRoute("/nope")).toBeUndefined();
    expect(findToolRoute("/mappings/as/")?.menuLabel).toBe("AS Mappings");
  });

  it("shows items by permission, hides empty tables from non-staff and the Looking Glass without vantage points", () => {
    const perms = ["API_FLOWS_4D", "PRIVATE_LOOKING_GLASS", "CONTROL_PLANE"];
    const empty = new Set(["rib_entries"]);
    const labels = (items: ReturnType<typeof menuItems>) => items.map((i) => i.menuLabel);
    expect(labels(menuItems(access(perms), empty, { hasVantagePoints: true }))).toEqual([
      "Flow Explorer",
      "AS Flows Analysis",
      "Looking Glass",
      "Applications",
      "Infrastructures",
      "FAQ",
      "AS Mappings",
      "Notifications",
    ]);
    // The mappings screens read PostgreSQL: no table hides them, so with empty flows they stay (and can be the landing route).
    expect(labels(menuItems(access(["API_FLOWS_4D"]), new Set(["flows_5m"]), { hasVantagePoints: true }))).toEqual([
      "Applications",
      "Infrastructures",
      "FAQ",
      "AS Mappings",
      "Notifications",
    ]);
    expect(labels(menuItems(access(perms, true), empty, { hasVantagePoints: false }))).toEqual([
      "Flow Explorer",
      "AS Flows Analysis",
      "Control Plane",
      "Applications",
      "Infrastructures",
      "FAQ",
      "AS Mappings",
      "Notifications",
    ]);
  });

  it("lists Welcome after Delegated Users only for the accounts that get the welcome page, and never lands there", () => {
    const delegated = { ...access(["API_FLOWS_4D"]), isDelegated: true };
    const withWelcome = menuItems(delegated, new Set(), { hasVantagePoints: false, welcomePage: true });
    expect(withWelcome.map((i) => i.menuLabel)).toEqual([
      "Flow Explorer",
      "Welcome",
      "Applications",
      "Infrastructures",
      "FAQ",
      "AS Mappings",
      "Notifications",
    ]);
    expect(firstAvailableRoute(withWelcome)).toBe("/flow-explorer");
    expect(menuItems(delegated, new Set(), { hasVantagePoints: false }).map((i) => i.menuLabel)).not.toContain("Welcome");
  });

  it("lands on the first tool the user may open, and nowhere without any", () => {
    expect(firstAvailableRoute(menuItems(access(["CONTROL_PLANE"]), new Set(), { hasVantagePoints: true }))).toBe("/controlplane");
    expect(firstAvailableRoute(menuItems(access([]), new Set(), { hasVantagePoints: true }))).toBeNull();
    // The Tag list shows an empty store too (no backing table): a tag manager alone lands there.
    expect(firstAvailableRoute(menuItems(access(["MANAGE_TAGS"]), new Set(["flows_5m"]), { hasVantagePoints: true }))).toBe("/manage-tags");
  });

  it("lists no tool this version does not have, whatever the permissions", () => {
    const everything = TOOL_ROUTES.flatMap((r) => (r.permission ? [r.permission] : []));
    const labels = menuItems(access(everything, true), new Set(), { hasVantagePoints: true }).map((i) => i.menuLabel);
    expect(labels).toEqual([
      "Flow Explorer",
      "AS Flows Analysis",
      "AS Flows Egress",
      "Core Planner",
      "Border Planner",
      "Looking Glass",
      "Control Plane",
      "Raw Network Analyzer",
      "Revenues & Costs",
      "AS Relations",
      "Tag list",
      "Users",
      "Delegated Users",
      "Alerts",
      "Applications",
      "Infrastructures",
      "FAQ",
      "AS Mappings",
      "Notifications",
    ]);
    // A permission of one tool alone lands on that tool.
    expect(firstAvailableRoute(menuItems(access(["REVENUES_AND_COSTS"]), new Set(), { hasVantagePoints: true }))).toBe(
      "/revenues-and-costs",
    );
    expect(firstAvailableRoute(menuItems(access(["AS_RELATIONS"]), new Set(), { hasVantagePoints: true }))).toBe("/as-relations");
    // The Raw Network Analyzer reads flows_raw: an empty one hides it from non-staff, as every tool's empty table does.
    expect(firstAvailableRoute(menuItems(access(["RAW_NETWORK_ANALYZER"]), new Set(), { hasVantagePoints: true }))).toBe("/rna");
    expect(
      menuItems(access(["RAW_NETWORK_ANALYZER"]), new Set(["flows_raw"]), { hasVantagePoints: true }).map((i) => i.path),
    ).not.toContain("/rna");
    expect(firstAvailableRoute(menuItems(access(["API_LINK_UTIL_INTERNAL"]), new Set(), { hasVantagePoints: true }))).toBe("/core-planner");
    expect(isToolBuilt("/rna")).toBe(true);
    expect(isToolBuilt("/revenues-and-costs")).toBe(true);
    expect(isToolBuilt("/as-relations")).toBe(true);
    expect(isToolBuilt("/lookingglass")).toBe(true);
    expect(isToolBuilt("/border-planner")).toBe(true);
    expect(isToolBuilt("/core-planner")).toBe(true);
  });

  it("names every spec route once", () => {
    const paths = TOOL_ROUTES.flatMap((r) => [r.path, ...r.aliases]);
    expect(new Set(paths).size).toBe(paths.length);
  });
});

import { browserSupport } from "~/lib/browser-support";
describe("browser support", () => {
  it("accepts Chrome 129+ and Firefox 128+, warns for older and other browsers", () => {
    expect(
      browserSupport("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36").supported,
    ).toBe(true);
    expect(browserSupport("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/129.0.0.0 Safari/537.36").supported).toBe(
      true,
    );
    expect(browserSupport("Mozilla/5.0 AppleWebKit/537.36 Chrome/128.0.0.0 Safari/537.36").supported).toBe(false);
    expect(browserSupport("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0").supported).toBe(true);
    expect(browserSupport("Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Firefox/115.0").supported).toBe(false);
    expect(browserSupport("Lynx/2.9.0").supported).toBe(false);
    expect(browserSupport(null).supported).toBe(true);
  });
});
