/**
 * Permission names of the spec (shell §6), verbatim, then this product's extensions of that list
 * (EXTENSION_PERMISSIONS: never delegable unless stated).
 */
export const PERMISSIONS = [
  "API_FLOWS_4D",
  "FLOWS_BY_LINK_FILTER",
  "API_FLOWS_DNS",
  "API_FLOWS_INTERFACES",
  "SANKEY_TOPOLOGY",
  "API_FLOWS_INDIRECT_KPI",
  "NETFLOW95TH",
  "LINK_UTILIZATION_95TH",
  "FLOWS_EGRESS",
  "FRONTEND_LINK_UTIL_EXTERNAL",
  "API_LINK_UTIL_INTERNAL",
  "PRIVATE_LOOKING_GLASS",
  "CONTROL_PLANE",
  "RAW_NETWORK_ANALYZER",
  "RNA_APPLICATIONS_AND_INFRASTRUCTURE",
  "REVENUES_AND_COSTS",
  "AS_RELATIONS",
  "API_LINK_UTIL_EXTERNAL",
  "VRF_DIMENSION",
  "AGGREGATE_TAG_GROUPS",
  "API_CHANGE_AS_INFO",
  "VIEW_USERS",
  "MANAGE_DELEGATED_USERS",
  "RESET_USER_2FA",
  "MANAGE_TAGS",
  "CLICKHOUSE_DIRECT_QUERY",
  "TOUR_DEMOLYTICS",
  "API_APP_VERSION",
  "DEVELOPER_API_TOKEN",
  // Extensions of the spec's list (EXTENSION_PERMISSIONS).
  "MANAGE_CONTRACTS",
  "VIEW_ALERTS",
  "MANAGE_ALERTS",
] as const;

/**
 * The permissions this product adds to the spec's list (docs/revenues-and-costs.md for MANAGE_CONTRACTS,
 * docs/alerts.md for VIEW_ALERTS and MANAGE_ALERTS); none is delegable except the two alert permissions, which
 * issue 32 states are (a delegated account's rules are evaluated inside its restriction and seen by it alone).
 */
export const EXTENSION_PERMISSIONS = [
  "MANAGE_CONTRACTS",
  "VIEW_ALERTS",
  "MANAGE_ALERTS",
] as const satisfies readonly (typeof PERMISSIONS)[number][];

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/**
 * The only permissions a delegated account can hold (shell §6: restricted views): what a customer
 * may use under its restrictions. Whatever is granted to such an account directly, through a group
 * or as a flag, its effective permissions are cut to these (user-context.server.ts).
 */
export const DELEGABLE_PERMISSION_CODES = [
  "API_FLOWS_4D",
  // The Sankey of a delegated account has only its restriction's two dimensions (delegation policy).
  "SANKEY_TOPOLOGY",
  "FLOWS_EGRESS",
  "API_FLOWS_DNS",
  "API_FLOWS_INTERFACES",
  "FLOWS_BY_LINK_FILTER",
  "FRONTEND_LINK_UTIL_EXTERNAL",
  "API_LINK_UTIL_EXTERNAL",
  "PRIVATE_LOOKING_GLASS",
  // The raw records of its restriction only: the engine adds the restriction to every RNA query.
  "RAW_NETWORK_ANALYZER",
  "VRF_DIMENSION",
  // Extensions (docs/alerts.md): a delegated account's own rules, evaluated inside its restriction at evaluation time.
  "VIEW_ALERTS",
  "MANAGE_ALERTS",
] as const satisfies readonly Permission[];

/** Feature flags the spec names (shell §6). */
export const FEATURE_FLAGS = [
  "fetchMaxTimestamp",
  "canInvokeNetcommandApi",
  "extrapolatedNetflow",
  "replaceStatisticsTableByDisaggregationTable",
  "rnaTagColumn",
] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

export const MODERATORS_GROUP = "moderators";
