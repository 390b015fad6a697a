import { data, redirect } from "@remix-run/node";
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { errorReports, users } from "~db/postgres/schema";
import { formatDateLongBare, safeTimezone } from "~/lib/date-format";
import packageJson from "../../package.json";
import { pathOf } from "./alerts.server";
import type { UserContext } from "./auth/user-context.server";
import type { Db } from "./postgres.server";
import type { Services } from "./services.server";
import { getUserSettings } from "./settings/user-settings.server";

export type ClientErrorReport = { message: string; stacktrace: string; url: string };

/** Keeps a client-side error for the operators of the installation (api/error_report/), with the running release. */
export async function keepErrorReport(db: Db, userId: number | null, report: ClientErrorReport): Promise<void> {
  await db.insert(errorReports).values({ userId, ...report, release: packageJson.version });
}

/** Most groups the screen lists (the newest first). */
export const ERROR_REPORT_GROUPS_SHOWN = 200;
/** Most URL paths and releases named per group. */
const NAMED_PER_GROUP = 10;

export type ErrorReportGroup = {
  message: string;
  count: number;
  firstSeen: Date;
  lastSeen: Date;
  /** The URL paths the message was reported on (no query strings), most frequent first. */
  paths: string[];
  /** The releases that reported it ("" for reports from before the release was recorded), newest report first. */
  releases: string[];
  users: number;
  /** The stack trace of the newest report. */
  latestStacktrace: string;
  handledAt: Date | null;
  handledBy: string | null;
};

/**
 * The reports grouped by message: unhandled ones (`handled: false`) or handled ones, the group
 * seen last first. Only the reports of one state count in its groups: a message reported again
 * after it was handled shows as a new unhandled group.
 */
export async function errorReportGroups(db: Db, options: { handled: boolean }): Promise<{ groups: ErrorReportGroup[]; total: number }> {
  const state = options.handled ? isNotNull(errorReports.handledAt) : isNull(errorReports.handledAt);
  const rows = await db
    .select({
      message: errorReports.message,
      count: sql<number>`count(*)::int`,
      firstSeen: sql<string>`min(${errorReports.createdAt})`,
      lastSeen: sql<string>`max(${errorReports.createdAt})`,
      users: sql<number>`count(DISTINCT ${errorReports.userId})::int`,
      handledAt: sql<string | null>`max(${errorReports.handledAt})`,
    })
    .from(errorReports)
    .where(state)
    .groupBy(errorReports.message)
    .orderBy(sql`max(${errorReports.createdAt}) DESC`, errorReports.message)
    .limit(ERROR_REPORT_GROUPS_SHOWN);
  const [{ total }] = await db
    .select({ total: sql<number>`count(DISTINCT ${errorReports.message})::int` })
    .from(errorReports)
    .where(state);
  const groups: ErrorReportGroup[] = [];
  for (const row of rows) {
    const reports = await db
      .select({
        url: errorReports.url,
        release: errorReports.release,
        stacktrace: errorReports.stacktrace,
        handledAt: errorReports.handledAt,
        handledBy: users.email,
      })
      .from(errorReports)
      .leftJoin(users, eq(users.id, errorReports.handledBy))
      .where(and(state, eq(errorReports.message, row.message)))
      .orderBy(sql`${errorReports.createdAt} DESC`, sql`${errorReports.id} DESC`)
      .limit(1000);
    const pathCounts = new Map<string, number>();
    for (const r of reports) {
      const path = r.url ? pathOf(r.url) : "";
      if (path) pathCounts.set(path, (pathCounts.get(path) ?? 0) + 1);
    }
    const paths = [...pathCounts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([p]) => p);
    const releases = [...new Set(reports.map((r) => r.release))];
    const lastHandled = reports.filter((r) => r.handledAt).sort((a, b) => b.handledAt!.getTime() - a.handledAt!.getTime())[0];
    groups.push({
      message: row.message,
      count: Number(row.count),
      firstSeen: new Date(row.firstSeen),
      lastSeen: new Date(row.lastSeen),
      paths: paths.slice(0, NAMED_PER_GROUP),
      releases: releases.slice(0, NAMED_PER_GROUP),
      users: Number(row.users),
      latestStacktrace: reports[0]?.stacktrace ?? "",
      handledAt: lastHandled?.handledAt ?? null,
      handledBy: lastHandled?.handledBy ?? null,
    });
  }
  return { groups, total: Number(total) };
}

/** Marks every unhandled report of the message as handled by the user: how many. */
export async function markErrorReportsHandled(db: Db, message: string, userId: number, now = new Date()): Promise<number> {
  const rows = await db
    .update(errorReports)
    .set({ handledAt: now, handledBy: userId })
    .where(and(eq(errorReports.message, message), isNull(errorReports.handledAt)))
    .returning({ id: errorReports.id });
  return rows.length;
}

/** The error reports screen (/site-settings/error-reports): the groups as people read them. */
export async function loadErrorReportsScreen(services: Services, user: UserContext, url: URL) {
  const handled = url.searchParams.get("show") === "handled";
  const timezone = safeTimezone((await getUserSettings(services.pg.db, user.id)).timezone);
  const date = (d: Date) => formatDateLongBare(d, timezone);
  const { groups, total } = await errorReportGroups(services.pg.db, { handled });
  const marked = url.searchParams.get("marked");
  return {
    show: handled ? ("handled" as const) : ("open" as const),
    timezone,
    total,
    shownLimit: ERROR_REPORT_GROUPS_SHOWN,
    notice: marked !== null && /^\d+$/.test(marked) ? `${marked} ${marked === "1" ? "report" : "reports"} marked as handled.` : null,
    groups: groups.map((g) => ({
      message: g.message,
      count: g.count,
      users: g.users,
      firstSeen: date(g.firstSeen),
      lastSeen: date(g.lastSeen),
      paths: g.paths,
      releases: g.releases.map((r) => r || "not recorded"),
      latestStacktrace: g.latestStacktrace,
      handled: g.handledAt ? `${date(g.handledAt)}${g.handledBy ? ` by ${g.handledBy}` : ""}` : null,
    })),
  };
}

export type ErrorReportsScreen = Awaited<ReturnType<typeof loadErrorReportsScreen>>;

/** POST /site-settings/error-reports intent=handled message=…: marks the group as handled (PRG). */
export async function errorReportsAction(services: Services, user: UserContext, form: FormData) {
  if (form.get("intent") !== "handled") throw data({ detail: "Unknown action." }, { status: 400 });
  const message = form.get("message");
  if (typeof message !== "string" || !message.trim())
    throw data({ detail: "The message of the reports to mark is required." }, { status: 400 });
  const marked = await markErrorReportsHandled(services.pg.db, message, user.id);
  return redirect(`/site-settings/error-reports?marked=${marked}`);
}
