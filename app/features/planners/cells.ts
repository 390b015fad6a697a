/**
 * A planned link as people read it: the text of every column of the planner tables, the status in
 * words with its colour, and the group it belongs to. Isomorphic and pure: the screens and the
 * exports write the same texts (the exports keep numbers as numbers, see export.server.ts).
 */
import { formatBitsPerSecond, formatPercent, formatUtilisation } from "~/lib/units";
import { columnsOf, neighbourLabel, type ScreenKind } from "./columns";
import { GROUPING_LABELS, type Grouping, type PlannerParams } from "./params";
import { LINK_STATUS_LABELS, type LinkPlan, type LinkStatus } from "./types";

/** Mantine colour names of the statuses; the words always go with them (colour is never alone). */
export const STATUS_COLORS: Record<LinkStatus, string> = { high: "red", medium: "orange", normal: "green", "no data": "gray" };

const bps = (v: number | null) => (v === null ? "–" : formatBitsPerSecond(v));

/**
 * The user's thresholds of a planner as every part of the screen names them (the list, the Status
 * filter, the detail chart): one wording, always said to be the user's settings.
 */
export function thresholdWords(thresholds: { medium: number; high: number }): string {
  return `medium from ${formatPercent(thresholds.medium)}, high from ${formatPercent(thresholds.high)} (your settings)`;
}

/**
 * The choices of the Status filter, each saying the user's thresholds that decide it; the value is
 * the address's `status` list (params.ts).
 */
export function statusFilterOptions(thresholds: { medium: number; high: number }): { value: string; label: string }[] {
  const medium = formatPercent(thresholds.medium);
  const high = formatPercent(thresholds.high);
  return [
    { value: "", label: "Any status" },
    { value: "high", label: `High (from ${high})` },
    { value: "high,medium", label: `Medium or high (from ${medium})` },
    { value: "medium", label: `Medium (${medium} to ${high})` },
    { value: "normal", label: `Normal (below ${medium})` },
    { value: "no data", label: "No data" },
  ];
}

/**
 * How the Border Planner's table is grouped and ordered, in words: the chosen order applies within
 * each group, and a group keeps the place of its first link (screen.server.ts groupedOrder).
 */
export function groupingWords(screen: ScreenKind, params: Pick<PlannerParams, "group" | "sort" | "order">): string {
  const label = GROUPING_LABELS[params.group];
  // "Neighbour AS" → "neighbour AS": only the first letter is lowered (AS stays as written).
  const group = label.charAt(0).toLowerCase() + label.slice(1);
  const column = columnsOf(screen).find((c) => c.id === params.sort)?.label[screen] ?? params.sort;
  const order = params.order === "asc" ? "ascending" : "descending";
  return `grouped by ${group}; sorted by ${column} (${order}) within each ${group}, a group placed by its first link`;
}

/** The text of one column of a link's row. */
export function cellText(screen: ScreenKind, plan: LinkPlan, column: string): string {
  const def = columnsOf(screen).find((c) => c.id === column);
  if (!def) return "";
  const value = def.value(plan);
  switch (def.kind) {
    case "bps":
      return bps(value as number | null);
    case "percent":
      if (column === "trend") return value === null ? "–" : `${(value as number) >= 0 ? "+" : ""}${formatPercent((value as number) / 100)}`;
      return value === null ? "–" : formatUtilisation((value as number) / 100);
    case "ratio":
      return plan.samplingConfidence
        ? `${formatPercent(plan.samplingConfidence.ratio)} (${plan.samplingConfidence.intervals} intervals)`
        : "Not measured";
    case "status":
      return LINK_STATUS_LABELS[plan.status];
    default:
      return value === null || value === "" ? "–" : String(value);
  }
}

export type PlannerRow = {
  key: string;
  status: LinkStatus;
  /** Column id → text. */
  cells: Record<string, string>;
  buildoutDue: boolean | null;
};

export function plannerRow(screen: ScreenKind, plan: LinkPlan, columns: readonly string[]): PlannerRow {
  return {
    key: plan.link.key,
    status: plan.status,
    cells: Object.fromEntries(columns.map((c) => [c, cellText(screen, plan, c)])),
    buildoutDue: plan.buildoutDue,
  };
}

/** The group of a link in the Border Planner's grouped table (Core Planner: none). */
export function groupOf(plan: LinkPlan, grouping: Grouping): { key: string; label: string } {
  const link = plan.link;
  if (link.kind !== "external") return { key: "", label: "" };
  if (grouping === "router") return { key: `r:${link.router}`, label: link.router };
  if (grouping === "interface") return { key: `i:${link.key}`, label: `${link.router} ${link.interface}` };
  return { key: `a:${link.neighbourAs ?? "ix"}`, label: neighbourLabel(link.neighbourAs, link.asName) };
}

/** A link as one line of text: "r1 et-0/0/1 (AS64500 Name)" or "r1 xe-0/0/1 → r2 xe-0/0/2". */
export function linkTitle(plan: Pick<LinkPlan, "link">): string {
  const l = plan.link;
  if (l.kind === "external") return `${l.router} ${l.interface} (${neighbourLabel(l.neighbourAs, l.asName)})`;
  return `${l.a.router} ${l.a.interface} → ${l.b.router} ${l.b.interface}`;
}
