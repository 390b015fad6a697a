/**
 * The Delegated Users screen's URL state and form model (/manage-delegated-users,
 * MANAGE_DELEGATED_USERS; shell §2). Isomorphic: the view and the server read the same rules.
 *
 * GET parameters: q (search in e-mail and names), page (from 1), id (the account open for
 * editing), new=1 (the create form), delete=<id> (the confirmation step of a deletion), saved=<what>.
 */
import type { DELEGABLE_PERMISSION_CODES, Permission } from "~/lib/permissions";

export const DELEGATED_USERS_PATH = "/manage-delegated-users";
export const PAGE_SIZE = 25;
export const MAX_RESTRICTIONS = 20;
export const MAX_WELCOME_TEXT = 5000;

/**
 * The only permissions a delegated account can get (and only those its manager holds): the views
 * a customer may use under its restrictions. Never an administrative one (ADMIN_PERMISSIONS) nor
 * any other.
 */
export const DELEGABLE_PERMISSIONS: readonly {
  permission: (typeof DELEGABLE_PERMISSION_CODES)[number];
  title: string;
  explanation: string;
}[] = [
  {
    permission: "API_FLOWS_4D",
    title: "Flow Explorer",
    explanation: "The traffic of its restrictions in the Flow Explorer and the flows API.",
  },
  {
    permission: "SANKEY_TOPOLOGY",
    title: "Sankey chart",
    explanation: "The Flow Explorer's Sankey view and api/sankey/, of its restriction's two dimensions only.",
  },
  { permission: "FLOWS_EGRESS", title: "Egress traffic", explanation: "The egress dimensions and the AS Flows Egress screen." },
  { permission: "API_FLOWS_DNS", title: "Applications and infrastructures", explanation: "The application and infrastructure dimensions." },
  {
    permission: "API_FLOWS_INTERFACES",
    title: "Routers and interfaces",
    explanation: "Router and interface dimensions, for a restriction (or its output) that names one: still only its two dimensions.",
  },
  {
    permission: "FLOWS_BY_LINK_FILTER",
    title: "Internal links",
    explanation: "Internal link dimensions, for a restriction (or its output) that names one: still only its two dimensions.",
  },
  {
    permission: "FRONTEND_LINK_UTIL_EXTERNAL",
    title: "Border Planner",
    explanation: "External links of the AS numbers listed below (without an AS number the account does not get it).",
  },
  {
    permission: "API_LINK_UTIL_EXTERNAL",
    title: "Border Planner data (API)",
    explanation: "The external-links calls of the API, for the AS numbers listed below.",
  },
  {
    permission: "PRIVATE_LOOKING_GLASS",
    title: "Looking Glass",
    explanation: "Routing lookups from the vantage points of the routers listed below only (none without a router).",
  },
  {
    permission: "RAW_NETWORK_ANALYZER",
    title: "Raw Network Analyzer",
    explanation: "The raw flow records inside its restrictions, their sums, timeseries and exports.",
  },
  { permission: "VRF_DIMENSION", title: "VRF dimension", explanation: "The VRF name dimension." },
  {
    permission: "VIEW_ALERTS",
    title: "Alerts",
    explanation: "Its own alert rules on the Alerts screen and api/alerts/, evaluated inside its restriction (an extension of the spec).",
  },
  {
    permission: "MANAGE_ALERTS",
    title: "Manage alerts",
    explanation: "Create, change, acknowledge and silence its own alert rules, only on views inside its restriction (with Alerts).",
  },
];

/** Never given to a delegated account, whoever asks: they administer accounts, data or the installation. */
export const ADMIN_PERMISSIONS: readonly Permission[] = [
  "VIEW_USERS",
  "MANAGE_DELEGATED_USERS",
  "RESET_USER_2FA",
  "MANAGE_TAGS",
  "CLICKHOUSE_DIRECT_QUERY",
  "DEVELOPER_API_TOKEN",
  "API_CHANGE_AS_INFO",
  "AGGREGATE_TAG_GROUPS",
  "API_APP_VERSION",
];

export const SAVED_MESSAGES: Record<string, string> = {
  created: "The delegated account was created; an invitation to choose a password was sent to its e-mail address (valid 72 hours).",
  updated: "The delegated account was saved.",
  deactivated: "The account was deactivated: its sessions and API tokens are ended.",
  reactivated: "The account was reactivated.",
  deleted: "The delegated account was deleted.",
  invited: "A new invitation was sent (valid 72 hours); earlier links no longer work.",
};

export type DelegatedUsersParams = {
  q: string;
  page: number;
  id: number | null;
  creating: boolean;
  confirmDelete: number | null;
  saved: string | null;
};

const ID = /^\d{1,9}$/;

export function parseDelegatedUsersParams(search: URLSearchParams): DelegatedUsersParams {
  const id = search.get("id") ?? "";
  const del = search.get("delete") ?? "";
  const page = Number(search.get("page") ?? "1");
  const saved = search.get("saved");
  return {
    q: (search.get("q") ?? "").trim().slice(0, 200),
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    id: ID.test(id) ? Number(id) : null,
    creating: search.get("new") === "1",
    confirmDelete: ID.test(del) ? Number(del) : null,
    saved: saved && saved in SAVED_MESSAGES ? saved : null,
  };
}

export function delegatedUsersUrl(p: Partial<DelegatedUsersParams>): string {
  const s = new URLSearchParams();
  if (p.q) s.set("q", p.q);
  if (p.page && p.page > 1) s.set("page", String(p.page));
  if (p.id) s.set("id", String(p.id));
  if (p.creating) s.set("new", "1");
  if (p.confirmDelete) s.set("delete", String(p.confirmDelete));
  if (p.saved) s.set("saved", p.saved);
  const text = s.toString();
  return text ? `${DELEGATED_USERS_PATH}?${text}` : DELEGATED_USERS_PATH;
}

/** One row of the restrictions editor as typed: values as pasted (one per line or comma-separated). */
export type RestrictionRow = { dimension: string; values: string; output: string };

/** The account form as typed (the form fields, and the JSON API's body turned into the same shape). */
export type DelegatedUserForm = {
  email: string;
  firstName: string;
  lastName: string;
  permissions: string[];
  restrictions: RestrictionRow[];
  asNumbers: string;
  routers: string;
  interfaces: string;
  welcomeText: string;
};

export const EMPTY_ROW: RestrictionRow = { dimension: "AS_DST_INGRESS", values: "", output: "AS_SRC_INGRESS" };

/** The restriction rows of a form: fields r.<i>.dimension / r.<i>.values / r.<i>.output, in index order. */
export function readRestrictionRows(get: (name: string) => string | null, keys: readonly string[]): RestrictionRow[] {
  const indexes = [
    ...new Set(
      keys
        .map((k) => /^r\.(\d{1,3})\.(dimension|values|output)$/.exec(k))
        .filter((m) => m !== null)
        .map((m) => Number(m[1])),
    ),
  ].sort((a, b) => a - b);
  return indexes.slice(0, MAX_RESTRICTIONS).map((i) => ({
    dimension: get(`r.${i}.dimension`) ?? "",
    values: get(`r.${i}.values`) ?? "",
    output: get(`r.${i}.output`) ?? "",
  }));
}
