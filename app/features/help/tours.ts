import type { TourIndexEntry } from "./tour-index";
import type { Permission } from "~/lib/permissions";

/**
 * The guided tours (shell §3: "about 21 guided tours": analytics chapters 1 and 2, border planner, core
 * planner, delegated users, demolytics, looking glass, RNA, welcome and how-to tours; §6: TOUR_DEMOLYTICS),
 * as data: the one source of the tour overlay (JavaScript), of the help pages at /help/<id> (server-rendered,
 * no JavaScript needed) and of the tests that walk every tour on its screen.
 *
 * Every step points at an element of a real screen by its stable `data-tour` attribute (`anchor`): the
 * element carries `data-tour="<anchor>"` in the screen's source. A step's `path` is the screen (with the
 * query that makes the element appear) it is shown on; absent, the tour's `path`. A renamed or removed
 * element makes the browser walker (tests/e2e/tours.e2e.ts) fail, and the overlay ends the tour politely
 * and records it as Failed.
 */

export type TourStep = {
  /** The value of the data-tour attribute of the element the step points at. */
  anchor: string;
  title: string;
  body: string;
  /** The screen of the step, a path with its query; absent: the tour's path. */
  path?: string;
};

/** Who may take a tour: the screens' permissions (all of them), staff, delegated accounts with the welcome page. */
export type TourAudience = {
  permissions?: readonly Permission[];
  /** Staff or superuser (the site's administration screens). */
  siteAdmin?: true;
  /** Only delegated accounts on a site with the welcome page enabled. */
  welcome?: true;
};

export type Tour = {
  id: string;
  title: string;
  /** One sentence: what the tour shows, in the help button's list and on the help page. */
  summary: string;
  kind: "screen" | "how-to";
  /** The screen the tour starts on (path and query). */
  path: string;
  audience: TourAudience;
  steps: readonly TourStep[];
};

export const TOUR_STATUSES = ["Started", "Finished", "Failed"] as const;
export type TourStatus = (typeof TOUR_STATUSES)[number];

const FE = "/flow-explorer";
const FE_30 = "/flow-explorer?dateRange=LAST_30_DAYS";

export const TOURS: readonly Tour[] = [
  {
    id: "analytics-chapter-1",
    title: "Analytics, chapter 1: the Flow Explorer",
    summary: "Choose what the traffic is broken down by, the time range and filters, then read the chart and the table.",
    kind: "screen",
    path: FE,
    audience: { permissions: ["API_FLOWS_4D"] },
    steps: [
      {
        anchor: "explorer-dimension",
        title: "Dimension",
        body: "The dimension breaks the traffic down: source, handover, next-hop or destination AS, router, interface, link, protocol, application, infrastructure. Each value of it becomes a line of the chart and a row of the table.",
      },
      {
        anchor: "explorer-range",
        title: "Time range",
        body: "Pick a preset such as Last 7 days, or your own start and end in your timezone. The range decides the bucket size: 5 minutes up to a day, 15 minutes up to a week, 1 hour up to 60 days, 1 day beyond.",
      },
      {
        anchor: "explorer-filters",
        title: "Filters",
        body: "Filters keep only the traffic you ask for: an AS, a router, an interface, a tag. Type a name or number and pick a suggestion; several filters of one dimension are alternatives, filters of different dimensions all apply.",
      },
      {
        anchor: "explorer-chart",
        title: "The chart",
        body: "Traffic in bit/s per bucket, one line per value of the dimension: the biggest values on their own, the rest summed up. Hover a line for its exact figure.",
      },
      {
        anchor: "explorer-total",
        title: "Total and what it counts",
        body: "The total says which traffic it counts (ingress, egress or all) right next to the figure, and what was left out. It is the average rate of the range, each flow counted once.",
      },
      {
        anchor: "explorer-table-view",
        title: "The table",
        body: "Aggregated gives one row per value over the whole range; Detailed gives one row per value and bucket. The table holds the same figures as the chart.",
      },
    ],
  },
  {
    id: "analytics-chapter-2",
    title: "Analytics, chapter 2: Sankey, comparison, prediction, exports, AS Flows Analysis",
    summary: "Follow traffic between two dimensions, compare with the previous period, predict the next one, export, and trace AS paths.",
    kind: "screen",
    path: FE,
    audience: { permissions: ["API_FLOWS_4D", "SANKEY_TOPOLOGY"] },
    steps: [
      {
        anchor: "explorer-view",
        title: "Sankey view",
        body: "Switch the view to Sankey and choose a second dimension: the diagram shows how the traffic of each value of the first dimension spreads over the values of the second, for example handover AS to router.",
      },
      {
        anchor: "explorer-compare",
        title: "Compare with the previous period",
        body: "Ticked, the chart draws the previous period of equal length beside the current one and the table gives each value's change in per cent.",
      },
      {
        anchor: "explorer-predict",
        title: "Predict the next period",
        body: "Ticked, the chart continues with a dashed prediction from the previous weeks' daily and weekly pattern; the note under the chart says what it is based on.",
      },
      {
        anchor: "export-menu",
        title: "Exports",
        body: "Export the table as CSV, Excel or JSON, or the chart as an image. The file holds exactly what the table shows, with the range and filters of the page.",
      },
      {
        anchor: "analysis-options",
        path: "/as-flows-analysis",
        title: "AS Flows Analysis",
        body: "Enter one or more source AS numbers: the analysis follows their ingress traffic along source, handover, next-hop and destination AS, and tells how much each AS hands over itself (direct) or through other neighbours (indirect).",
      },
    ],
  },
  {
    id: "border-planner",
    title: "Border Planner",
    summary: "Utilisation, 95th percentile and build-out of the external links, per link, router or neighbour AS.",
    kind: "screen",
    path: "/border-planner",
    audience: { permissions: ["FRONTEND_LINK_UTIL_EXTERNAL"] },
    steps: [
      {
        anchor: "planner-controls",
        title: "Range and grouping",
        body: "Choose the days, and group the external links by link, router or neighbour AS. Filter by neighbour AS, router or interface to look at one part of the border.",
      },
      {
        anchor: "planner-summary",
        title: "Summary",
        body: "How many links are shown, their total capacity, the sum of their billed 95th, how many are Normal, Medium or High by their peak-hour utilisation, and how many are due for a build-out.",
      },
      {
        anchor: "planner-column-filters",
        title: "Column filters",
        body: "Narrow the table to links of a status (Normal, Medium, High, No data) or other column values, without changing the range.",
      },
      {
        anchor: "planner-table",
        title: "The links",
        body: "One row per link: capacity, peak-hour utilisation in and out, the billed 95th and the forecast date a threshold is crossed. Open a link for its daily chart and details.",
      },
      {
        anchor: "export-menu",
        title: "Export",
        body: "Export the table as it is sorted and filtered, as CSV, Excel, JSON or an image.",
      },
    ],
  },
  {
    id: "core-planner",
    title: "Core Planner",
    summary: "Utilisation and build-out of the internal links between your routers.",
    kind: "screen",
    path: "/core-planner",
    audience: { permissions: ["API_LINK_UTIL_INTERNAL"] },
    steps: [
      {
        anchor: "planner-controls",
        title: "Range and links",
        body: "Choose the days, and a router and interface at either end to look at one core link or all links of a router.",
      },
      {
        anchor: "planner-summary",
        title: "Summary",
        body: "How many core links are shown, their capacity, how many are Normal, Medium or High by their peak-hour utilisation, and how many are due for a build-out.",
      },
      {
        anchor: "planner-table",
        title: "The links",
        body: "One row per core link with both ends: capacity, the peak-hour utilisation of either direction and the forecast of when it crosses your build-out threshold. The thresholds are yours, in Settings.",
      },
      {
        anchor: "export-menu",
        title: "Export",
        body: "Export the links as CSV, Excel, JSON or an image, for a capacity review.",
      },
    ],
  },
  {
    id: "delegated-users",
    title: "Delegated Users",
    summary: "Accounts for your customers that see only their own traffic.",
    kind: "screen",
    path: "/manage-delegated-users?new=1",
    audience: { permissions: ["MANAGE_DELEGATED_USERS"] },
    steps: [
      {
        anchor: "delegated-search",
        title: "Find an account",
        body: "Search the delegated accounts you manage by e-mail or name; each row can be edited, invited again or deleted.",
      },
      {
        anchor: "delegated-account",
        title: "The account",
        body: "E-mail, first and last name: the invitation goes to the e-mail address, which is also the login.",
      },
      {
        anchor: "delegated-permissions",
        title: "What it may use",
        body: "Grant only the tools the customer needs; you can grant no more than you hold yourself.",
      },
      {
        anchor: "delegated-restrictions",
        title: "Flows restrictions",
        body: "Each restriction locks a dimension to the customer's values, for example their AS numbers, and chooses the dimension their traffic is broken down by. The account cannot see or remove the lock.",
      },
    ],
  },
  {
    id: "demolytics",
    title: "Demo network: find its five events",
    summary:
      "The demo network hides five events: an AS moving transit provider, a private interconnect failing over to an exchange port, a peer moving to DE-CIX Frankfurt, a full interconnect overflowing into transit, and a transit port down for 4 hours. Find them step by step.",
    kind: "screen",
    path: "/flow-explorer?dimension=AS_HND_INGRESS&dateRange=LAST_30_DAYS",
    audience: { permissions: ["TOUR_DEMOLYTICS", "API_FLOWS_4D", "FRONTEND_LINK_UTIL_EXTERNAL"] },
    steps: [
      {
        anchor: "explorer-dimension",
        title: "Traffic by handover AS",
        body: "The Flow Explorer now breaks the ingress traffic down by handover AS, the neighbour that hands it to the network, over the last 30 days.",
      },
      {
        anchor: "explorer-chart",
        title: "Event 1: an AS changes transit provider",
        body: "About 10 days before the end one transit provider's line drops and another's rises by the same amount in the same hour: a content network behind them moved from one to the other.",
      },
      {
        anchor: "explorer-chart",
        path: "/flow-explorer?dimension=INTERFACE_IN&dateRange=LAST_30_DAYS&filter=AS_SRC_INGRESS%3A13335",
        title: "Event 2: an interconnect fails over to the exchange",
        body: "Cloudflare's traffic by ingress interface: about 8 days before the end, in the morning, its private interconnect on ams-er1 carries nothing for 4 hours while the AMS-IX port of the same router carries it. The root-cause analysis calls this an Interface Shift.",
      },
      {
        anchor: "explorer-chart",
        path: "/flow-explorer?dimension=ROUTER_IN&dateRange=LAST_30_DAYS",
        title: "Event 3: a peer moves to DE-CIX Frankfurt",
        body: "By ingress router, about 6 days before the end traffic leaves one router for a Frankfurt router in one step: a peer moved its sessions to the DE-CIX Frankfurt port.",
      },
      {
        anchor: "explorer-chart",
        path: "/flow-explorer?dimension=AS_HND_INGRESS&dateRange=LAST_30_DAYS&filter=AS_SRC_INGRESS%3A714",
        title: "Event 4: a full interconnect overflows into transit",
        body: "Apple's traffic by handover AS: its interconnect on lon-er1 runs at its cap every evening, and about 5 days before the end the evening's extra demand arrives through Arelion's transit instead. The root-cause analysis calls this an Indirect Overflow.",
      },
      {
        anchor: "planner-table",
        path: "/border-planner?dateRange=LAST_30_DAYS",
        title: "Event 5: a transit port down for 4 hours",
        body: "About 3 days before the end a transit port carries nothing for 4 hours while the provider's other port carries its traffic. Open the first transit provider's links: the daily chart shows the gap.",
      },
      {
        anchor: "cp-query",
        path: "/controlplane",
        title: "The routes behind it",
        body: "The events are also in the routing tables as withdrawals and re-announcements: query the Control Plane for a prefix of the moved AS over the days around the event.",
      },
    ],
  },
  {
    id: "looking-glass",
    title: "Looking Glass",
    summary: "Ask your routers' routing tables for a prefix, an AS path or a community, from one or all vantage points.",
    kind: "screen",
    path: "/lookingglass",
    audience: { permissions: ["PRIVATE_LOOKING_GLASS"] },
    steps: [
      {
        anchor: "lg-vantage-points",
        title: "Vantage points",
        body: "Each vantage point is a router's view of the routing table. Select one, several or all of them.",
      },
      {
        anchor: "lg-query",
        title: "Query type and term",
        body: "Choose what to ask: an IP address or prefix, an AS path pattern, a community, or — where enabled — a ping or traceroute. The help next to the field gives examples of the term.",
      },
      {
        anchor: "lg-route-filters",
        title: "RIB view and community",
        body: "Choose the table before or after the router's import policy, and keep only the routes carrying a community.",
      },
      {
        anchor: "lg-results",
        title: "Results",
        body: "One row per route and vantage point: prefix, next hop, AS path, communities, origin and RPKI validity. Copy the link to share the same query.",
      },
    ],
  },
  {
    id: "control-plane",
    title: "Control Plane",
    summary: "The history of the routing tables: announcements and withdrawals of a prefix or AS over time.",
    kind: "screen",
    path: "/controlplane",
    audience: { permissions: ["CONTROL_PLANE"] },
    steps: [
      {
        anchor: "cp-query",
        title: "What to look for",
        body: "Choose the query type (prefix, AS path, community …) and enter the term; the description under the field says what it accepts.",
      },
      {
        anchor: "cp-range",
        title: "When",
        body: "A preset, or a start and end in your timezone. The dates with routing data are named above the form.",
      },
      {
        anchor: "cp-rib-view",
        title: "RIB view",
        body: "Pre-policy is what the neighbour sent, post-policy what the router accepted after its import policy.",
      },
      {
        anchor: "cp-submit",
        title: "Run it",
        body: "Submit shows every change in the range, newest first: the table can be filtered, sorted and given more columns.",
      },
    ],
  },
  {
    id: "rna",
    title: "Raw Network Analyzer",
    summary: "Single flow records as the routers sent them, filtered, summed and exported.",
    kind: "screen",
    path: "/rna",
    audience: { permissions: ["RAW_NETWORK_ANALYZER"] },
    steps: [
      {
        anchor: "rna-query",
        title: "The query",
        body: "A time range (raw records are kept only a few days), filters by exporter, address, port or protocol, and an optional nfdump-style filter expression.",
      },
      {
        anchor: "rna-summary",
        title: "The sums",
        body: "How many records match and their bytes and packets, multiplied by the sampling rate so they estimate the real traffic.",
      },
      {
        anchor: "rna-columns",
        title: "Columns",
        body: "Choose the fields of the records to show: addresses, ports, AS numbers, interfaces, TCP flags, and more.",
      },
      {
        anchor: "export-menu",
        title: "Export",
        body: "An export holds every page of the query, up to the row limit written under it.",
      },
    ],
  },
  {
    id: "revenues-and-costs",
    title: "Revenues & Costs",
    summary: "What each contract costs or earns in a month, from the traffic of its billing group.",
    kind: "screen",
    path: "/revenues-and-costs",
    audience: { permissions: ["REVENUES_AND_COSTS"] },
    steps: [
      {
        anchor: "revenues-month",
        title: "The month",
        body: "Bills are per calendar month in each contract's billing timezone, so a bill is the same for every viewer.",
      },
      {
        anchor: "revenues-totals",
        title: "Cost, revenue, margin",
        body: "The month's totals and their change against the previous month.",
      },
      {
        anchor: "revenues-bills",
        title: "The bills",
        body: "One bill per contract valid in the month: the billed 95th for Max 95th contracts, commit and burst, fees, and the total. Export them with the buttons above the table.",
      },
      {
        anchor: "revenues-contracts",
        title: "Contracts",
        body: "Add or edit a contract: direction (cost or revenue), method (Flatrate, free, Max 95th), prices in EUR, and the interfaces of its billing group.",
      },
    ],
  },
  {
    id: "as-relations",
    title: "AS Relations",
    summary: "Every neighbour AS with its traffic in and out, its 95th and what PeeringDB knows of it.",
    kind: "screen",
    path: "/as-relations",
    audience: { permissions: ["AS_RELATIONS"] },
    steps: [
      {
        anchor: "asrelations-month",
        title: "The month",
        body: "Figures are over the chosen month in UTC.",
      },
      {
        anchor: "asrelations-summary",
        title: "What is counted",
        body: "How many neighbours, and over how many hours with flows the 95th of each direction is taken: in is what the AS hands over to you, out what you hand over to it.",
      },
      {
        anchor: "export-menu",
        title: "Export",
        body: "The neighbours' table as CSV, Excel or JSON.",
      },
      {
        anchor: "asrelations-table",
        title: "Neighbours",
        body: "Sort by traffic, ratio or 95th; open an AS for its PeeringDB record (exchanges, facilities, contacts) and the prefixes it originates.",
      },
    ],
  },
  {
    id: "welcome",
    title: "Welcome",
    summary: "What your account shows and where to start.",
    kind: "screen",
    path: "/welcome",
    audience: { welcome: true },
    steps: [
      {
        anchor: "welcome-text",
        title: "Your part of the network",
        body: "Your account shows the traffic that was shared with you, and nothing else: every screen is filtered for you.",
      },
      {
        anchor: "welcome-tools",
        title: "Your tools",
        body: "The tools you may use; the same list is the menu on the left.",
      },
      {
        anchor: "welcome-restrictions",
        title: "Your views",
        body: "The traffic views you are limited to. With several, switch between them with “Next” in the header.",
      },
      {
        anchor: "welcome-continue",
        title: "Start",
        body: "Continue opens your first tool. The help button in the header has the tours of every screen.",
      },
    ],
  },
  // ----------------------------------------------------------------------------------------------------------
  // How-to tours
  {
    id: "how-to-share-a-deep-link",
    title: "How to share a deep link",
    summary: "Every choice of a screen is in its address: send it and the other person sees the same view.",
    kind: "how-to",
    path: FE,
    audience: { permissions: ["API_FLOWS_4D"] },
    steps: [
      {
        anchor: "explorer-options",
        title: "Make your choices",
        body: "Dimension, range, filters, view, comparison: each is a parameter of the page's address.",
      },
      {
        anchor: "explorer-show",
        title: "Show",
        body: "Show (or a change of a field, with JavaScript) puts the choices into the address bar.",
      },
      {
        anchor: "explorer-range",
        title: "Fixed or rolling range",
        body: "A preset such as Last 7 days moves with time; for a link that shows the same hours tomorrow, choose your own start and end.",
      },
      {
        anchor: "explorer-total",
        title: "Copy and send",
        body: "Copy the address from the browser. Whoever opens it with the same permissions sees this total and this table.",
      },
    ],
  },
  {
    id: "how-to-build-a-tag",
    title: "How to build a tag and filter by it",
    summary: "Name a set of AS numbers, routers or interfaces once, then filter every flows tool by it.",
    kind: "how-to",
    path: "/manage-tags",
    audience: { permissions: ["MANAGE_TAGS", "API_FLOWS_4D"] },
    steps: [
      {
        anchor: "tags-kinds",
        title: "Kind of tag",
        body: "A tag holds values of one kind: AS numbers, routers, interfaces, applications …",
      },
      {
        anchor: "tag-form",
        title: "Name and values",
        body: "Give it a name and a colour, one value a line, and choose personal (only you) or shared (every user).",
      },
      {
        anchor: "tags-table",
        title: "Your tags",
        body: "Each tag has a filter value such as #12; edit or delete it here.",
      },
      {
        anchor: "explorer-filters",
        path: FE,
        title: "Filter by it",
        body: "In the Flow Explorer type the tag's name in a filter and pick it: the view keeps the traffic of all its values; !#12 excludes them.",
      },
    ],
  },
  {
    id: "how-to-find-why-traffic-moved",
    title: "How to find why traffic moved",
    summary: "From a change in the chart to the neighbour, router and route behind it.",
    kind: "how-to",
    path: "/flow-explorer?dimension=AS_HND_INGRESS&compare=1",
    audience: { permissions: ["API_FLOWS_4D", "CONTROL_PLANE"] },
    steps: [
      {
        anchor: "explorer-compare",
        title: "Compare with before",
        body: "The comparison shows which values gained or lost against the previous period of equal length.",
      },
      {
        anchor: "explorer-dimension",
        title: "Change the dimension",
        body: "Look at the same traffic by handover AS, then by ingress router and interface: the dimension where one value loses what another gains names the move.",
      },
      {
        anchor: "explorer-total",
        title: "Same total?",
        body: "If the total stayed the same, traffic moved between neighbours or routers; if it changed, it grew or went elsewhere.",
      },
      {
        anchor: "cp-query",
        path: "/controlplane",
        title: "Check the routes",
        body: "In the Control Plane query a prefix of the AS that moved over the hours of the change: withdrawals and new paths show the routing change behind it.",
      },
    ],
  },
  {
    id: "how-to-adopt-an-exporter",
    title: "How to adopt an exporter",
    summary: "A router sends flows but is not in the inventory yet: add it from its exporter.",
    kind: "how-to",
    path: "/site-settings/data-sources",
    audience: { siteAdmin: true },
    steps: [
      {
        anchor: "sources-listeners",
        title: "Listeners",
        body: "The collector's NetFlow, IPFIX and sFlow listeners and what they received.",
      },
      {
        anchor: "sources-known",
        title: "Exporters in the inventory",
        body: "Exporters whose address belongs to a router of the inventory: their flows carry the router's name.",
      },
      {
        anchor: "sources-unknown",
        title: "Not in inventory yet",
        body: "Addresses that send flows but belong to no router. Adopt opens the inventory's form for a new router filled in from the exporter; check it and save.",
      },
    ],
  },
  {
    id: "how-to-read-a-95th",
    title: "How to read a 95th percentile",
    summary: "Where the 95th appears and how it is computed.",
    kind: "how-to",
    path: "/border-planner",
    audience: { permissions: ["FRONTEND_LINK_UTIL_EXTERNAL", "REVENUES_AND_COSTS"] },
    steps: [
      {
        anchor: "planner-summary",
        title: "The rule",
        body: "Of the n 5-minute samples of the range, sorted, the highest 5 % (n/20 rounded down) are dropped and the highest remaining sample is the 95th. In and out are taken separately; the billed 95th is the higher of the two.",
      },
      {
        anchor: "planner-table",
        title: "Per link",
        body: "Each link's 95th in and out and its billed 95th, over the days of the range.",
      },
      {
        anchor: "revenues-bills",
        path: "/revenues-and-costs",
        title: "On the bill",
        body: "A Max 95th contract bills the 95th of its billing group for the month: of the summed series of its ports (aggregate) or each port's 95th summed (per port), in the billed direction it names.",
      },
    ],
  },
  {
    id: "how-to-export-a-table",
    title: "How to export a table",
    summary: "Take any table with you as CSV, Excel, JSON or an image.",
    kind: "how-to",
    path: FE_30,
    audience: { permissions: ["API_FLOWS_4D"] },
    steps: [
      {
        anchor: "explorer-table-view",
        title: "Choose the table",
        body: "Aggregated (one row per value) or Detailed (one row per value and bucket): the export holds the table you chose.",
      },
      {
        anchor: "export-menu",
        title: "Pick a format",
        body: "CSV uses the delimiter of your settings (comma or semicolon); Excel and JSON keep numbers as numbers.",
      },
      {
        anchor: "explorer-total",
        title: "Same figures",
        body: "The file holds the range and filters of the page, so its sum is the total shown here.",
      },
    ],
  },
  {
    id: "how-to-set-up-2fa",
    title: "How to set up two-factor authentication",
    summary: "Protect your login with a code from an authenticator app.",
    kind: "how-to",
    path: "/settings/security",
    audience: {},
    steps: [
      {
        anchor: "security-2fa",
        title: "Two-factor authentication",
        body: "On, every login asks for a code from your authenticator app after the password. Some sites make it mandatory.",
      },
      {
        anchor: "security-add-device",
        title: "Add a device",
        body: "Name the device and add it: scan the QR code (or type the secret) into your authenticator app, then confirm with the code it shows.",
      },
      {
        anchor: "security-recovery",
        title: "Recovery codes",
        body: "Generate recovery codes and keep them safe: each replaces a code once, for when the device is lost.",
      },
    ],
  },
  {
    id: "how-to-invite-a-user",
    title: "How to invite a user",
    summary: "Add a colleague's account with the permissions they need.",
    kind: "how-to",
    path: "/manage-users?new=1",
    audience: { permissions: ["VIEW_USERS"], siteAdmin: true },
    steps: [
      {
        anchor: "users-parts",
        title: "Users, requests, audit",
        body: "The accounts, the applicants' requests waiting for a decision, and the log of every change.",
      },
      {
        anchor: "user-form",
        title: "The new account",
        body: "E-mail and name; the invitation to set a password goes to the e-mail address.",
      },
      {
        anchor: "user-permissions",
        title: "Permissions",
        body: "Grant the tools the user needs, one by one or through groups; staff see the administration screens.",
      },
    ],
  },
  {
    id: "how-to-restrict-a-delegated-user",
    title: "How to restrict a delegated user",
    summary: "Lock a customer's account to their own traffic.",
    kind: "how-to",
    path: "/manage-delegated-users?new=1",
    audience: { permissions: ["MANAGE_DELEGATED_USERS"] },
    steps: [
      {
        anchor: "delegated-restrictions",
        title: "Flows restrictions",
        body: "Each restriction is a dimension, the values it is locked to and the dimension the account sees its traffic by.",
      },
      {
        anchor: "delegated-restriction-dimension",
        title: "Dimension and values",
        body: "For a customer AS choose a source or destination AS dimension and list their AS numbers, one a line; the suggestions come from the flows.",
      },
      {
        anchor: "delegated-add-restriction",
        title: "More than one",
        body: "Add a restriction for each view the customer needs; they switch between them with “Next” in their header.",
      },
      {
        anchor: "delegated-border",
        title: "Border links",
        body: "The AS numbers, routers and interfaces limit what the account sees in the Border Planner and the Looking Glass.",
      },
    ],
  },
];

export function findTour(id: string): Tour | undefined {
  return TOURS.find((t) => t.id === id);
}

/** The screen (path without query) of a step. */
export function stepScreen(tour: Tour, step: TourStep): string {
  return (step.path ?? tour.path).split("?")[0];
}

/** The screens a tour visits, in order, each once. */
export function tourScreens(tour: Tour): string[] {
  return [...new Set(tour.steps.map((s) => stepScreen(tour, s)))];
}

/** What decides who may take a tour. */
export type TourViewer = { permissions: ReadonlySet<string>; isStaff: boolean; isSuperuser: boolean; welcomePage: boolean };

export function mayTakeTour(tour: Tour, viewer: TourViewer): boolean {
  const a = tour.audience;
  if (a.permissions && !a.permissions.every((p) => viewer.permissions.has(p))) return false;
  if (a.siteAdmin && !(viewer.isStaff || viewer.isSuperuser)) return false;
  if (a.welcome && !viewer.welcomePage) return false;
  return true;
}

/** The tours of a screen: those that visit it. */
export function tourIndexEntry(tour: Tour): TourIndexEntry {
  return { id: tour.id, title: tour.title, summary: tour.summary, screens: tourScreens(tour), steps: tour.steps.length };
}
