/**
 * Usage tracking: POST usertracking/interaction/ {target} records which screen (its route path) or
 * named action a user used, and when — only for logged-in users who gave their consent (the
 * endpoint's access rule), at most USAGE_EVENTS_PER_MINUTE per user, kept USAGE_RETENTION_DAYS
 * days. A target is never a URL with its query: anything with a query, fragment or scheme is refused.
 * The staff report counts the events and distinct users per week (weeks start on Monday, UTC).
 */
import { and, gte, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { usageEvents } from "~db/postgres/schema";
import { RateLimiter } from "./bounded-maps.server";
import type { BackgroundTask } from "./lifecycle.server";
import { log } from "./log.server";
import type { Db } from "./postgres.server";

export const USAGE_EVENTS_PER_MINUTE = 60;
export const usageLimiter = new RateLimiter({
  windowMs: 60_000,
  perAddress: USAGE_EVENTS_PER_MINUTE,
  withoutAddress: USAGE_EVENTS_PER_MINUTE,
});

/** A route path (/flow-explorer, /site-settings/error-reports) or a named action (flow-explorer.export-csv). */
export const usageTarget = z
  .string()
  .trim()
  .max(120, "At most 120 characters.")
  .regex(
    /^(\/[a-z0-9._/-]*|[a-z][a-z0-9-]*(\.[a-z0-9-]+)+)$/i,
    "A route path (e.g. /flow-explorer) or a named action (e.g. flow-explorer.export), without query string.",
  );

export const interactionBody = z.object({ target: usageTarget });

export async function recordInteraction(db: Db, userId: number, target: string, now = new Date()): Promise<void> {
  await db.insert(usageEvents).values({ userId, target, createdAt: now });
}

/** Removes the events older than the retention: how many. */
export async function pruneUsageEvents(db: Db, retentionDays: number, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - retentionDays * 86_400_000);
  const rows = await db.delete(usageEvents).where(lt(usageEvents.createdAt, before)).returning({ id: usageEvents.id });
  return rows.length;
}

export type UsageWeekRow = { week: string; target: string; events: number; users: number };

/** Events and distinct users per week and target since `since`: the newest week first, then the most used. */
export async function weeklyUsage(db: Db, since: Date): Promise<UsageWeekRow[]> {
  const week = sql<string>`to_char(date_trunc('week', ${usageEvents.createdAt} AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      week,
      target: usageEvents.target,
      events: sql<number>`count(*)::int`,
      users: sql<number>`count(DISTINCT ${usageEvents.userId})::int`,
    })
    .from(usageEvents)
    .where(and(gte(usageEvents.createdAt, since)))
    .groupBy(week, usageEvents.target)
    .orderBy(sql`1 DESC`, sql`3 DESC`, usageEvents.target);
  return rows.map((r) => ({ week: String(r.week), target: r.target, events: Number(r.events), users: Number(r.users) }));
}

let timer: ReturnType<typeof setInterval> | null = null;

/** Drops the events past USAGE_RETENTION_DAYS, hourly, in every app process (a delete by time: replicas may overlap harmlessly). */
export const usageRetentionTask: BackgroundTask = {
  start: (services) => {
    if (timer) return;
    const prune = () =>
      void pruneUsageEvents(services.pg.db, services.config.USAGE_RETENTION_DAYS).catch((error: unknown) =>
        log.error(`usage tracking retention failed: ${String(error)}`),
      );
    timer = setInterval(prune, 3600_000);
    timer.unref?.();
  },
  stop: async () => {
    if (timer) clearInterval(timer);
    timer = null;
  },
};
