import type { FlowsViewRestriction } from "~db/postgres/schema";
import type { Permission } from "~/lib/permissions";

export type DemoUser = {
  kind: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  isSuperuser?: boolean;
  isStaff?: boolean;
  isDelegated?: boolean;
  moderator?: boolean;
  permissions: Permission[];
  /** For the delegated user: what the operator allows them to see. */
  restrictions?: { flows: FlowsViewRestriction[]; externalAsns: number[] };
};

const OPERATOR_PERMISSIONS: Permission[] = [
  "API_FLOWS_4D",
  "API_FLOWS_INTERFACES",
  "FLOWS_BY_LINK_FILTER",
  "SANKEY_TOPOLOGY",
  "API_FLOWS_INDIRECT_KPI",
  "FLOWS_EGRESS",
  "FRONTEND_LINK_UTIL_EXTERNAL",
  "API_LINK_UTIL_EXTERNAL",
  "API_LINK_UTIL_INTERNAL",
  "PRIVATE_LOOKING_GLASS",
  "CONTROL_PLANE",
  "RAW_NETWORK_ANALYZER",
  "MANAGE_TAGS",
  "MANAGE_DELEGATED_USERS",
];

/**
 * One demo account per kind of user. The passwords are public (printed at start-up and in the
 * README): the demo is for evaluation, never for a network with real data.
 */
export function demoUsers(customerAsn: number): DemoUser[] {
  return [
    {
      kind: "superuser",
      email: "admin@flowlens.example",
      password: "flowlens-admin",
      firstName: "Ada",
      lastName: "Admin",
      isSuperuser: true,
      isStaff: true,
      permissions: [],
    },
    {
      kind: "operator",
      email: "operator@flowlens.example",
      password: "flowlens-operator",
      firstName: "Oskar",
      lastName: "Operator",
      permissions: OPERATOR_PERMISSIONS,
    },
    {
      kind: "delegated",
      email: "delegated@flowlens.example",
      password: "flowlens-delegated",
      firstName: "Dana",
      lastName: "Delegated",
      isDelegated: true,
      permissions: ["API_FLOWS_4D", "SANKEY_TOPOLOGY", "FRONTEND_LINK_UTIL_EXTERNAL"],
      restrictions: {
        flows: [{ dimension: "AS_DST_INGRESS", constrained_values: [String(customerAsn)], output: "AS_SRC_INGRESS" }],
        externalAsns: [customerAsn],
      },
    },
    {
      kind: "moderator",
      email: "moderator@flowlens.example",
      password: "flowlens-moderator",
      firstName: "Mona",
      lastName: "Moderator",
      moderator: true,
      permissions: ["API_FLOWS_4D", "VIEW_USERS"],
    },
    {
      kind: "staff",
      email: "staff@flowlens.example",
      password: "flowlens-staff",
      firstName: "Stan",
      lastName: "Staff",
      isStaff: true,
      permissions: ["API_FLOWS_4D", "PRIVATE_LOOKING_GLASS", "CONTROL_PLANE", "VIEW_USERS"],
    },
  ];
}
