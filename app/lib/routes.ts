import type { FeatureFlag, Permission } from "./permissions";

/**
 * The screens of the spec (shell §2) in menu order. The first one a user may open is their
 * landing route. `table` names the ClickHouse table whose emptiness hides the item for non-staff.
 * `built` is false for the tools this version does not have yet: they stay in the catalogue (their
 * permissions are configured and granted as usual) but have no menu item, no landing and no page —
 * their paths answer the not-found page, as operators expect of a link to nothing.
 */
export type ToolRoute = {
  path: string;
  aliases: string[];
  permission: Permission | null;
  menuLabel: string;
  built: boolean;
  featureFlag?: FeatureFlag;
  table?: string;
  /** Not for delegated accounts: every figure of the screen reads dimensions outside a restriction's two (docs/delegated-users.md). */
  notForDelegated?: true;
};

export const TOOL_ROUTES: ToolRoute[] = [
  {
    path: "/flow-explorer",
    aliases: ["/as-flows"],
    permission: "API_FLOWS_4D",
    built: true,
    menuLabel: "Flow Explorer",
    table: "flows_5m",
  },
  {
    path: "/as-flows-analysis",
    aliases: [],
    permission: "API_FLOWS_4D",
    built: true,
    menuLabel: "AS Flows Analysis",
    table: "flows_5m",
    notForDelegated: true,
  },
  { path: "/as-flows-egress", aliases: [], permission: "FLOWS_EGRESS", built: true, menuLabel: "AS Flows Egress", table: "flows_5m" },
  {
    path: "/core-planner",
    aliases: ["/links"],
    permission: "API_LINK_UTIL_INTERNAL",
    built: true,
    menuLabel: "Core Planner",
    table: "interface_util_5m",
  },
  {
    path: "/border-planner",
    aliases: ["/external-links"],
    permission: "FRONTEND_LINK_UTIL_EXTERNAL",
    built: true,
    menuLabel: "Border Planner",
    table: "interface_util_5m",
  },
  {
    path: "/lookingglass",
    aliases: [],
    permission: "PRIVATE_LOOKING_GLASS",
    built: true,
    menuLabel: "Looking Glass",
    table: "rib_current",
  },
  { path: "/controlplane", aliases: [], permission: "CONTROL_PLANE", built: true, menuLabel: "Control Plane", table: "rib_entries" },
  {
    path: "/rna",
    aliases: ["/rawnetworkanalyzer"],
    permission: "RAW_NETWORK_ANALYZER",
    built: true,
    menuLabel: "Raw Network Analyzer",
    table: "flows_raw",
  },
  { path: "/revenues-and-costs", aliases: [], permission: "REVENUES_AND_COSTS", built: true, menuLabel: "Revenues & Costs" },
  { path: "/as-relations", aliases: [], permission: "AS_RELATIONS", built: true, menuLabel: "AS Relations", table: "flows_5m" },
  { path: "/manage-tags", aliases: [], permission: "MANAGE_TAGS", built: true, menuLabel: "Tag list" },
  { path: "/manage-users", aliases: [], permission: "VIEW_USERS", built: true, menuLabel: "Users" },
  { path: "/manage-delegated-users", aliases: [], permission: "MANAGE_DELEGATED_USERS", built: true, menuLabel: "Delegated Users" },
  // An extension of the spec (docs/alerts.md): the alert rules of Flow Explorer views.
  { path: "/alerts", aliases: [], permission: "VIEW_ALERTS", built: true, menuLabel: "Alerts" },
  // Listed only for the accounts that get the welcome page (delegated, with the site's welcome_page_enabled on).
  { path: "/welcome", aliases: [], permission: null, built: true, menuLabel: "Welcome" },
  // The spec names these in its menu without paths (shell §2); they show data of PostgreSQL, never hidden as empty.
  // Menu order is the spec's: Applications, Infrastructures, (Deployments: the manager variant), FAQ, (Home), AS Mappings.
  { path: "/mappings/applications", aliases: [], permission: "API_FLOWS_4D", built: true, menuLabel: "Applications" },
  { path: "/mappings/infrastructures", aliases: [], permission: "API_FLOWS_4D", built: true, menuLabel: "Infrastructures" },
  { path: "/faq", aliases: [], permission: null, built: true, menuLabel: "FAQ" },
  { path: "/mappings/as", aliases: [], permission: "API_FLOWS_4D", built: true, menuLabel: "AS Mappings" },
  { path: "/notifications", aliases: [], permission: null, built: true, menuLabel: "Notifications" },
];

/**
 * The permissions and feature flags that belong to tools this version does not have, with the tool's name:
 * an unbuilt route's permission, and the grants of parts of such a tool that have no route of their own.
 * The Users and Delegated Users screens list these apart ("for a tool this version does not have") instead of
 * describing screens that do not exist; tests/unit/spec-usage.test.ts checks that nothing here has an effect yet
 * and that every grant without an effect is here. An entry leaves this list when its tool is built.
 */
// TOUR_DEMOLYTICS left it with the guided tours (app/features/help/tours.ts: the demo network's tour).
const UNBUILT_PARTS: { code: Permission | FeatureFlag; tool: string; route: string | null }[] = [];

export const UNBUILT_TOOL_GRANTS: ReadonlyMap<string, string> = new Map([
  ...TOOL_ROUTES.filter((r) => !r.built && r.permission).map((r) => [r.permission as string, r.menuLabel] as const),
  ...UNBUILT_PARTS.filter((p) => p.route === null || !TOOL_ROUTES.some((r) => r.path === p.route && r.built)).map(
    (p) => [p.code as string, p.tool] as const,
  ),
]);

/** The tool this version does not have that a permission or feature flag belongs to, or null when it has an effect. */
export function unbuiltToolOf(code: string): string | null {
  return UNBUILT_TOOL_GRANTS.get(code) ?? null;
}

/** Whether the tool at this path exists in this version (e.g. "/rna" for the 'Show in RNA' actions). */
export function isToolBuilt(path: string): boolean {
  return TOOL_ROUTES.some((r) => r.path === path && r.built);
}

/** The route a path names, through its aliases. */
export function findToolRoute(pathname: string): ToolRoute | undefined {
  const path = pathname.replace(/\/+$/, "") || "/";
  return TOOL_ROUTES.find((r) => r.path === path || r.aliases.includes(path));
}

export type Access = { permissions: ReadonlySet<string>; featureFlags: ReadonlySet<string>; isStaff: boolean; isDelegated?: boolean };

export function mayOpen(route: ToolRoute, access: Access): boolean {
  if (route.permission && !access.permissions.has(route.permission)) return false;
  if (route.notForDelegated && access.isDelegated) return false;
  if (route.featureFlag && !access.featureFlags.has(route.featureFlag)) return false;
  return true;
}

/** Menu items: built tools only, permission and flag, and (for non-staff) a backing table that holds data. */
export function menuItems(
  access: Access,
  emptyTables: ReadonlySet<string>,
  options: { hasVantagePoints: boolean; welcomePage?: boolean },
): ToolRoute[] {
  return TOOL_ROUTES.filter((route) => {
    if (!route.built || !mayOpen(route, access)) return false;
    if (!access.isStaff && route.table && emptyTables.has(route.table)) return false;
    if (route.path === "/lookingglass" && !options.hasVantagePoints) return false;
    if (route.path === "/welcome" && !options.welcomePage) return false;
    return true;
  });
}

/** The landing route: the first tool in menu order (FAQ, Welcome and Notifications do not count). */
export function firstAvailableRoute(items: ToolRoute[]): string | null {
  return items.find((r) => r.permission !== null)?.path ?? null;
}
