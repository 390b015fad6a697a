/**
 * Build-out notices (docs/planners.md "Build-out notices"): every hour, in the process that runs
 * the ingest components, every external and internal link is forecast over the last 30 whole UTC
 * days and each user who plans it is given the figure; notifyBuildoutThreshold compares it with the
 * user's own build-out threshold and tells the user once per link and crossing.
 *
 * Who plans a link: staff and superusers, users holding FRONTEND_LINK_UTIL_EXTERNAL (external
 * links) or API_LINK_UTIL_INTERNAL (internal links), and delegated accounts holding the external
 * permission for the external links they may see. The forecast's level is each user's own high
 * threshold, so the daily series are computed once and the forecast per user.
 */
import { and, eq } from "drizzle-orm";
import { users } from "~db/postgres/schema";
import { forecastBuildout } from "~/lib/forecast";
import { loadUserContext } from "~/server/auth/user-context.server";
import type { BackgroundTask } from "~/server/lifecycle.server";
import { log } from "~/server/log.server";
import { notifyBuildoutThreshold, type BuildoutOutcome } from "~/server/notifications/buildout-threshold.server";
import { staffAndSuperusers, usersHoldingPermission } from "~/server/notifications/notifications.server";
import type { Services } from "~/server/services.server";
import { DEFAULT_USER_SETTINGS, getUserSettings } from "~/server/settings/user-settings.server";
import { dailyMaxOfDirections } from "./figures";
import { linksVisibleTo, readCatalogue } from "./links.server";
import { buildoutLinkOf, buildoutTypeOf, planGivenLinks, thresholdsOf } from "./plan.server";
import type { LinkKind } from "./types";

export const BUILDOUT_CHECK_INTERVAL_MS = 3_600_000;
export const BUILDOUT_PERIOD_DAYS = 30;
const DAY = 86_400;

const PLANNER_PERMISSION: Record<LinkKind, string> = {
  external: "FRONTEND_LINK_UTIL_EXTERNAL",
  internal: "API_LINK_UTIL_INTERNAL",
};

export type BuildoutCheck = { links: number; calls: number; outcomes: Record<BuildoutOutcome, number> };

/** The last BUILDOUT_PERIOD_DAYS whole UTC days before `nowMs`. */
export function buildoutRange(nowMs: number): { start: number; end: number } {
  const end = Math.floor(nowMs / 1000 / DAY) * DAY;
  return { start: end - BUILDOUT_PERIOD_DAYS * DAY, end };
}

/** Active delegated accounts that hold the Border Planner (their restrictions name an AS number). */
async function delegatedPlanners(services: Pick<Services, "pg">): Promise<number[]> {
  const rows = await services.pg.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.isActive, true), eq(users.isDelegated, true)))
    .orderBy(users.id);
  const holding: number[] = [];
  for (const { id } of rows) {
    const context = await loadUserContext(services.pg.db, id);
    if (context?.permissions.includes(PLANNER_PERMISSION.external)) holding.push(id);
  }
  return holding;
}

/** One round: forecast every link and tell each user who plans it. */
export async function checkBuildouts(services: Pick<Services, "pg" | "ch">, nowMs = Date.now()): Promise<BuildoutCheck> {
  const range = buildoutRange(nowMs);
  const catalogue = await readCatalogue(services);
  const staff = await staffAndSuperusers(services.pg.db);
  const delegated = await delegatedPlanners(services);
  const result: BuildoutCheck = { links: 0, calls: 0, outcomes: { notified: 0, "already told": 0, below: 0, "no figure": 0 } };
  for (const kind of ["external", "internal"] as const) {
    const links = kind === "external" ? catalogue.external : catalogue.internal;
    if (!links.length) continue;
    result.links += links.length;
    // UTC days for everyone: the notice is one figure per link, not per viewer's calendar.
    const plans = await planGivenLinks(services, { ...DEFAULT_USER_SETTINGS, timezone: "UTC" }, kind, links, range);
    const holders = await usersHoldingPermission(services.pg.db, PLANNER_PERMISSION[kind]);
    const recipients: { id: number; keys: Set<string> | null }[] = [...new Set([...staff, ...holders])].map((id) => ({ id, keys: null }));
    if (kind === "external")
      for (const id of delegated) {
        const visible = await linksVisibleTo(services, { userId: id, isDelegated: true }, kind, catalogue);
        recipients.push({ id, keys: new Set(visible.map((l) => l.key)) });
      }
    for (const { id, keys } of recipients) {
      const settings = await getUserSettings(services.pg.db, id);
      for (const plan of plans) {
        if (keys && !keys.has(plan.link.key)) continue;
        const forecast = forecastBuildout(dailyMaxOfDirections(plan.in.daily, plan.out.daily), {
          level: thresholdsOf(settings, kind).high,
          type: buildoutTypeOf(settings, kind),
        });
        const outcome = await notifyBuildoutThreshold(services.pg.db, id, buildoutLinkOf(plan.link, forecast));
        result.calls += 1;
        result.outcomes[outcome] += 1;
      }
    }
  }
  return result;
}

let timer: ReturnType<typeof setInterval> | null = null;
let running: Promise<unknown> | null = null;

/** Every hour in the process that runs the ingest components, so one process tells however many web replicas run. */
export const buildoutNoticesTask: BackgroundTask = {
  where: "component host",
  start(services) {
    if (timer) return;
    timer = setInterval(() => {
      if (running) return;
      running = checkBuildouts(services)
        .then((o) => {
          if (o.outcomes.notified) log.info(`build-out notices: ${o.outcomes.notified} sent over ${o.links} links`);
        })
        .catch((error) => log.warn(`build-out check failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => (running = null));
    }, BUILDOUT_CHECK_INTERVAL_MS);
    timer.unref();
  },
  async stop() {
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  },
};
