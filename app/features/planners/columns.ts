/**
 * The planners' link tables: their columns, what people read in them, and the value each column
 * sorts and filters by. Isomorphic and pure: the screens, the exports and the tests share it.
 *
 * Border Planner (one row per external link) and Core Planner (one row per internal link) share the
 * figure columns; the Core Planner reads them per direction: "out" is a → b, "in" is b → a.
 * Utilisation columns sort and filter in percent ("> 80 %"), rates in bit/s ("> 10G").
 */
import type { LinkPlan, LinkStatus } from "./types";
import { LINK_STATUS_LABELS } from "./types";

export type ScreenKind = "border" | "core";

export type ColumnKind = "text" | "bps" | "percent" | "ratio" | "status";

export type ColumnDef = {
  id: string;
  /** The header people read; the Core Planner names directions a → b / b → a instead of in / out. */
  label: Record<ScreenKind, string>;
  kind: ColumnKind;
  /** Which screens have the column. */
  screens: readonly ScreenKind[];
  /** The value the column sorts and filters by: numbers (percent for utilisations), texts, or null (sorted last). */
  value: (plan: LinkPlan) => number | string | null;
};

const pct = (u: number | null | undefined) => (u === null || u === undefined ? null : u * 100);
const latest = (daily: LinkPlan["in"]["daily"]) => {
  for (let i = daily.length - 1; i >= 0; i--) if (daily[i].utilisation !== null) return daily[i].utilisation;
  return null;
};
/** Highest first when sorted descending: the order an operator triages in. */
export const STATUS_RANK: Record<LinkStatus, number> = { high: 3, medium: 2, normal: 1, "no data": 0 };

const both = ["border", "core"] as const;
const same = (label: string) => ({ border: label, core: label });

export const COLUMNS: readonly ColumnDef[] = [
  {
    id: "router",
    label: { border: "Router", core: "Router a" },
    kind: "text",
    screens: both,
    value: (p) => (p.link.kind === "external" ? p.link.router : p.link.a.router),
  },
  {
    id: "interface",
    label: { border: "Interface", core: "Interface a" },
    kind: "text",
    screens: both,
    value: (p) => (p.link.kind === "external" ? p.link.interface : p.link.a.interface),
  },
  {
    id: "remoteRouter",
    label: same("Router b"),
    kind: "text",
    screens: ["core"],
    value: (p) => (p.link.kind === "internal" ? p.link.b.router : null),
  },
  {
    id: "remoteInterface",
    label: same("Interface b"),
    kind: "text",
    screens: ["core"],
    value: (p) => (p.link.kind === "internal" ? p.link.b.interface : null),
  },
  {
    id: "neighbour",
    label: same("Neighbour AS"),
    kind: "text",
    screens: ["border"],
    value: (p) => (p.link.kind === "external" ? neighbourLabel(p.link.neighbourAs, p.link.asName) : null),
  },
  {
    id: "peering",
    label: same("Peering"),
    kind: "text",
    screens: ["border"],
    value: (p) => (p.link.kind === "external" ? [p.link.peering, p.link.connection].filter(Boolean).join(" · ") || null : null),
  },
  { id: "capacity", label: same("Capacity"), kind: "bps", screens: both, value: (p) => p.capacityBps },
  { id: "status", label: same("Status"), kind: "status", screens: both, value: (p) => STATUS_RANK[p.status] },
  {
    id: "inMax",
    label: { border: "In peak hour (max)", core: "b → a peak hour (max)" },
    kind: "percent",
    screens: both,
    value: (p) => pct(p.in.maxDaily?.utilisation),
  },
  {
    id: "inLatest",
    label: { border: "In peak hour (latest)", core: "b → a peak hour (latest)" },
    kind: "percent",
    screens: both,
    value: (p) => pct(latest(p.in.daily)),
  },
  {
    id: "outMax",
    label: { border: "Out peak hour (max)", core: "a → b peak hour (max)" },
    kind: "percent",
    screens: both,
    value: (p) => pct(p.out.maxDaily?.utilisation),
  },
  {
    id: "outLatest",
    label: { border: "Out peak hour (latest)", core: "a → b peak hour (latest)" },
    kind: "percent",
    screens: both,
    value: (p) => pct(latest(p.out.daily)),
  },
  { id: "inP95", label: { border: "In 95th", core: "b → a 95th" }, kind: "bps", screens: both, value: (p) => p.in.p95?.bps ?? null },
  { id: "outP95", label: { border: "Out 95th", core: "a → b 95th" }, kind: "bps", screens: both, value: (p) => p.out.p95?.bps ?? null },
  { id: "billedP95", label: same("Billed 95th"), kind: "bps", screens: both, value: (p) => p.billedP95?.bps ?? null },
  {
    id: "trend",
    label: same("Trend (per day)"),
    kind: "percent",
    screens: both,
    value: (p) => pct(p.forecast.slopePerDay),
  },
  {
    id: "forecast",
    label: same("Forecast"),
    kind: "text",
    screens: both,
    // Sorted by the days left (soonest first ascending); without a crossing, by the words.
    value: (p) => p.forecast.words,
  },
  {
    id: "confidence",
    label: same("Sampling confidence"),
    kind: "ratio",
    screens: ["border"],
    value: (p) => pct(p.samplingConfidence?.ratio),
  },
];

export const columnsOf = (screen: ScreenKind) => COLUMNS.filter((c) => c.screens.includes(screen));
export const columnIdsOf = (screen: ScreenKind) => columnsOf(screen).map((c) => c.id);
export const findColumn = (screen: ScreenKind, id: string) => columnsOf(screen).find((c) => c.id === id);
export const isNumericColumn = (c: ColumnDef) => c.kind !== "text";
/**
 * Whether a column takes a '>' / '<' filter. Not the status: its number is only a rank, so "> 80 %"
 * would mean nothing; the status is filtered by its words (params.ts `status`), which say the user's
 * thresholds.
 */
export const takesNumericFilter = (c: ColumnDef) => isNumericColumn(c) && c.kind !== "status";

/** What a table shows before the column picker changes it: what fits a laptop. */
export const DEFAULT_COLUMNS: Record<ScreenKind, readonly string[]> = {
  border: ["router", "interface", "neighbour", "capacity", "status", "inMax", "outMax", "billedP95", "forecast"],
  core: ["router", "interface", "remoteRouter", "remoteInterface", "capacity", "status", "outMax", "inMax", "billedP95", "forecast"],
};

/** "AS64500 Example Networks", "AS64500", or the exchange case without one neighbour. */
export function neighbourLabel(asn: number | null, name: string | null): string {
  if (asn === null) return "Internet exchange (several neighbours)";
  return name ? `AS${asn} ${name}` : `AS${asn}`;
}

export const statusLabel = (s: LinkStatus) => LINK_STATUS_LABELS[s];
