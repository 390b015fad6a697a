import { FEATURE_FLAGS, PERMISSIONS, type FeatureFlag, type Permission } from "./permissions";
import { unbuiltToolOf } from "./routes";

/**
 * What each permission and feature flag of the spec (shell §6) means, for the screens that grant
 * them (Users, Delegated Users): a title people read, one line of explanation, and the group it is
 * shown in. The codes stay the contract; these texts are ours. Every code has exactly one entry
 * (tests/unit/permission-catalogue.test.ts).
 */

export type PermissionGroupKey = "flows" | "planning" | "routing" | "administration" | "developer";

export type PermissionInfo = { code: Permission; title: string; explanation: string; group: PermissionGroupKey };
/** `noEffect`: the spec's flag does nothing in this product, for the reason the explanation gives. */
export type FeatureFlagInfo = { code: FeatureFlag; title: string; explanation: string; noEffect?: true };

export const PERMISSION_GROUPS: { key: PermissionGroupKey; title: string; explanation: string }[] = [
  { key: "flows", title: "Flows analysis", explanation: "The flows tools and which dimensions and figures they show." },
  { key: "planning", title: "Planning", explanation: "Link utilisation, capacity and commercial views." },
  { key: "routing", title: "Routing", explanation: "Looking Glass, Control Plane and the raw flow records." },
  { key: "administration", title: "Administration", explanation: "Accounts, tags and shared names." },
  { key: "developer", title: "Developer", explanation: "Direct access for integrations and testing." },
];

const P = (code: Permission, group: PermissionGroupKey, title: string, explanation: string): PermissionInfo => ({
  code,
  group,
  title,
  explanation,
});

export const PERMISSION_CATALOGUE: readonly PermissionInfo[] = [
  P("API_FLOWS_4D", "flows", "Flow Explorer", "Open the Flow Explorer, AS Flows Analysis and the mapping screens."),
  P("FLOWS_EGRESS", "flows", "AS Flows Egress", "Open AS Flows Egress and use the egress dimensions."),
  P("API_FLOWS_DNS", "flows", "Applications and infrastructures", "Break flows down by application and infrastructure."),
  P("API_FLOWS_INTERFACES", "flows", "Routers and interfaces", "Break flows down by ingress/egress router and interface."),
  P("FLOWS_BY_LINK_FILTER", "flows", "Internal links", "Filter and break flows down by internal link start and end."),
  P("VRF_DIMENSION", "flows", "VRF names", "Break flows down by VRF name."),
  P(
    "SANKEY_TOPOLOGY",
    "flows",
    "Sankey and link topology",
    "Show flows as a Sankey chart (Flow Explorer, AS Flows Egress, AS Flows Analysis, api/sankey/) and the link-level topology and statistics calls.",
  ),
  P(
    "API_FLOWS_INDIRECT_KPI",
    "flows",
    "Indirect traffic figures",
    "See the direct and indirect traffic figures of an AS (AS Flows Analysis, api/asflows/indirect/); never for delegated accounts.",
  ),
  P("NETFLOW95TH", "flows", "95th percentile of flows", "See the 95th percentile of flow traffic."),
  P("AGGREGATE_TAG_GROUPS", "flows", "Tag groups", "Make tag groups and filter by them."),
  P("FRONTEND_LINK_UTIL_EXTERNAL", "planning", "Border Planner", "Open the Border Planner (external links)."),
  P("API_LINK_UTIL_EXTERNAL", "planning", "External link data", "Read the utilisation data of external links."),
  P("API_LINK_UTIL_INTERNAL", "planning", "Core Planner", "Open the Core Planner (internal links)."),
  P("LINK_UTILIZATION_95TH", "planning", "95th percentile of links", "See the 95th percentile of link utilisation."),
  P("REVENUES_AND_COSTS", "planning", "Revenues & Costs", "Open the revenues and costs view."),
  P(
    "MANAGE_CONTRACTS",
    "planning",
    "Contracts",
    "Edit and import the contracts of Revenues & Costs (staff and superusers only; an extension of the spec's list, never delegable).",
  ),
  P(
    "VIEW_ALERTS",
    "flows",
    "Alerts",
    "Open the Alerts screen: the alert rules with their state and history, and api/alerts/ (an extension of the spec's list; a delegated account sees its own rules only).",
  ),
  P(
    "MANAGE_ALERTS",
    "flows",
    "Manage alerts",
    "Create, change, acknowledge and silence alert rules, with VIEW_ALERTS (an extension of the spec's list; a delegated account's rules stay inside its restriction).",
  ),
  P("AS_RELATIONS", "planning", "AS Relations", "Open the AS Relations view."),
  P("PRIVATE_LOOKING_GLASS", "routing", "Looking Glass", "Query routes, ping and traceroute from the vantage points."),
  P("CONTROL_PLANE", "routing", "Control Plane", "Read the routing tables and their history."),
  P("RAW_NETWORK_ANALYZER", "routing", "Raw Network Analyzer", "Open the Raw Network Analyzer and its 'Show in RNA' actions."),
  P(
    "RNA_APPLICATIONS_AND_INFRASTRUCTURE",
    "routing",
    "RNA applications",
    "See applications and infrastructures in the Raw Network Analyzer.",
  ),
  P("VIEW_USERS", "administration", "View users", "Open the Users screen and the applicant requests (changes need staff)."),
  P("MANAGE_DELEGATED_USERS", "administration", "Delegated users", "Create and manage delegated (restricted) accounts."),
  P("RESET_USER_2FA", "administration", "Reset two-factor", "Remove another account's authenticators and recovery codes."),
  P("MANAGE_TAGS", "administration", "Tag list", "Open the Tag list and manage tags."),
  P("API_CHANGE_AS_INFO", "administration", "Rename ASes", "Change the names of ASes in the mappings."),
  P("CLICKHOUSE_DIRECT_QUERY", "developer", "Database override", "Read the flows from another ClickHouse database."),
  P("DEVELOPER_API_TOKEN", "developer", "API tokens", "Create API tokens for integrations."),
  P("API_APP_VERSION", "developer", "Version details", "Read the application's version details."),
  P("TOUR_DEMOLYTICS", "developer", "Demo tour", "See the demo analytics tour."),
];

export const FEATURE_FLAG_CATALOGUE: readonly FeatureFlagInfo[] = [
  {
    code: "fetchMaxTimestamp",
    title: "Newest data time",
    explanation: "The flows screens show when the newest flow data ends and keep it current.",
  },
  { code: "canInvokeNetcommandApi", title: "Ping and traceroute", explanation: "Run ping and traceroute in the Looking Glass." },
  {
    code: "extrapolatedNetflow",
    title: "Extrapolated flows",
    // docs/decisions/011-flows-feature-flags.md
    explanation: "Flow figures are always extrapolated to full traffic by the sampling rate.",
    noEffect: true,
  },
  {
    code: "replaceStatisticsTableByDisaggregationTable",
    title: "Disaggregation table",
    // docs/decisions/011-flows-feature-flags.md
    explanation: "This product has no disaggregation table; the Flow Explorer has one table.",
    noEffect: true,
  },
  { code: "rnaTagColumn", title: "RNA tag column", explanation: "Show the tag column in the Raw Network Analyzer." },
];

const permissionInfo = new Map(PERMISSION_CATALOGUE.map((p) => [p.code as string, p]));
const flagInfo = new Map(FEATURE_FLAG_CATALOGUE.map((f) => [f.code as string, f]));

/**
 * The catalogue's entry of a code (a code unknown to it gets its own name as title). A grant without an effect in
 * this version is explained as such, not by the screen it will open one day.
 */
export function describePermission(code: string): { code: string; title: string; explanation: string } {
  const info = permissionInfo.get(code) ?? { code, title: code, explanation: "" };
  const tool = unbuiltToolOf(code);
  return tool ? { code, title: info.title, explanation: `${capitalised(FOR_UNBUILT_TOOL)} (${tool}).` } : info;
}

export function describeFeatureFlag(code: string): { code: string; title: string; explanation: string } {
  const info = flagInfo.get(code) ?? { code, title: code, explanation: "" };
  const reason = inertReason(info);
  return reason ? { code, title: info.title, explanation: `${capitalised(reason)}.` } : info;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Why a flag does nothing here, or null when it has an effect. */
function inertReason(f: { code: string; explanation: string; noEffect?: true }): string | null {
  const tool = unbuiltToolOf(f.code);
  if (tool) return `${FOR_UNBUILT_TOOL} (${tool})`;
  return f.noEffect ? `${NO_EFFECT_IN_THIS_VERSION}: ${f.explanation.replace(/\.$/, "")}` : null;
}

/** What the grant forms say of a permission or flag that belongs to a tool this version does not have. */
export const FOR_UNBUILT_TOOL = "for a tool this version does not have";
/** What the grant forms say of a flag that does nothing in this product. */
export const NO_EFFECT_IN_THIS_VERSION = "no effect in this version";

/**
 * The permissions grouped for a form, in the catalogue's order: those of the tools this version has. The
 * permissions of tools it does not have are `unbuiltPermissions()`, listed apart (routes.ts UNBUILT_TOOL_GRANTS).
 */
export function groupedPermissions(): { key: PermissionGroupKey; title: string; explanation: string; permissions: PermissionInfo[] }[] {
  return PERMISSION_GROUPS.map((g) => ({
    ...g,
    permissions: PERMISSION_CATALOGUE.filter((p) => p.group === g.key && !unbuiltToolOf(p.code)),
  })).filter((g) => g.permissions.length > 0);
}

/** The permissions of tools this version does not have, each with that tool's name (granted and kept as usual). */
export function unbuiltPermissions(): (PermissionInfo & { tool: string })[] {
  return PERMISSION_CATALOGUE.flatMap((p) => {
    const tool = unbuiltToolOf(p.code);
    return tool ? [{ ...p, tool }] : [];
  });
}

/**
 * The feature flags in two lists: those with an effect, and those without one here — of a tool this version
 * does not have (`tool`) or that this product never needs (`noEffect`).
 */
export function featureFlagsByEffect(): { effective: FeatureFlagInfo[]; inert: (FeatureFlagInfo & { reason: string })[] } {
  const effective: FeatureFlagInfo[] = [];
  const inert: (FeatureFlagInfo & { reason: string })[] = [];
  for (const f of FEATURE_FLAG_CATALOGUE) {
    const reason = inertReason(f);
    if (reason) inert.push({ ...f, reason: `${capitalised(reason)}.` });
    else effective.push(f);
  }
  return { effective, inert };
}

/** Codes of the spec without an entry, or entries of unknown codes (both empty when the catalogue is complete). */
export function catalogueGaps(): { missing: string[]; unknown: string[] } {
  const codes = [...PERMISSIONS, ...FEATURE_FLAGS] as string[];
  const described = [...permissionInfo.keys(), ...flagInfo.keys()];
  return { missing: codes.filter((c) => !described.includes(c)), unknown: described.filter((c) => !codes.includes(c)) };
}
