import { data } from "@remix-run/node";
import { findToolRoute } from "~/lib/routes";
import type { Services } from "./services.server";
import { weeklyUsage } from "./usage-tracking.server";

/** The week counts the usage screen offers (the retention keeps 90 days by default: about 13 weeks). */
export const USAGE_REPORT_WEEKS = [1, 4, 13] as const;
export const USAGE_REPORT_DEFAULT_WEEKS = 4;

/** Screens that are no tool of the menu but are tracked by their path, with the names people read. */
const OTHER_SCREENS: Record<string, string> = {
  "/": "Start page",
  "/site-settings": "Site settings",
  "/site-settings/error-reports": "Error reports",
  "/site-settings/support-messages": "Support messages",
  "/site-settings/usage": "Usage",
  "/site-settings/routing-data": "Routing data",
  "/site-settings/inventory": "Network inventory",
  "/site-settings/data-sources": "Data sources",
  "/settings": "Settings",
  "/support": "Support",
};

/**
 * The name a person reads for a tracked target: the screen's menu label for a route path (through
 * its aliases), "<menu label>: <action>" for a named action of a tool (flow-explorer.export-csv),
 * else the target itself marked as not a known screen.
 */
export function usageTargetLabel(target: string): string {
  if (target.startsWith("/")) {
    const route = findToolRoute(target);
    if (route) return route.menuLabel;
    const path = target.replace(/\/+$/, "") || "/";
    return OTHER_SCREENS[path] ?? `Other screen (${path})`;
  }
  const dot = target.indexOf(".");
  const tool = findToolRoute(`/${target.slice(0, dot)}`);
  const action = target.slice(dot + 1).replace(/[-_.]+/g, " ");
  return tool ? `${tool.menuLabel}: ${action}` : `Action ${target}`;
}

/** Monday 00:00 UTC of the week `now` is in. */
export function weekStart(now: Date): Date {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * 86_400_000);
}

const weekLabel = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** The usage screen (/site-settings/usage): per week (Monday, UTC), the screens and actions used with events and distinct users. */
export async function loadUsageReportScreen(services: Services, url: URL, now = new Date()) {
  const raw = url.searchParams.get("weeks");
  let weeks: number = USAGE_REPORT_DEFAULT_WEEKS;
  if (raw !== null) {
    const n = Number(raw);
    if (!(USAGE_REPORT_WEEKS as readonly number[]).includes(n))
      throw data({ detail: `weeks must be one of ${USAGE_REPORT_WEEKS.join(", ")}.` }, { status: 400 });
    weeks = n;
  }
  const since = new Date(weekStart(now).getTime() - (weeks - 1) * 7 * 86_400_000);
  const rows = await weeklyUsage(services.pg.db, since);
  const byWeek = new Map<string, { target: string; label: string; events: number; users: number }[]>();
  for (const row of rows) {
    const list = byWeek.get(row.week) ?? [];
    list.push({ target: row.target, label: usageTargetLabel(row.target), events: row.events, users: row.users });
    byWeek.set(row.week, list);
  }
  return {
    weeks,
    choices: [...USAGE_REPORT_WEEKS],
    retentionDays: services.config.USAGE_RETENTION_DAYS,
    since: since.toISOString().slice(0, 10),
    report: [...byWeek.entries()].map(([week, targets]) => ({
      week,
      label: `Week of ${weekLabel.format(new Date(`${week}T00:00:00Z`))}`,
      events: targets.reduce((sum, t) => sum + t.events, 0),
      targets,
    })),
  };
}

export type UsageReportScreen = Awaited<ReturnType<typeof loadUsageReportScreen>>;
