/**
 * Build-out warnings for the planners (Border Planner: external links, Core Planner: internal
 * links). A planner that has computed a link's forecast calls notifyBuildoutThreshold for each user
 * it plans for, with the link and its figure: days left until the link needs building out, and/or
 * its utilisation in percent. The user's own threshold decides (user_settings
 * extlinks_/intlinks_buildout_threshold and _type, shell §3):
 *
 * - type DAYS: the link crosses when daysLeft ≤ threshold;
 * - type PERCENT: the link crosses when percent ≥ threshold.
 *
 * The user is told once per link and crossing. What was told is kept in PostgreSQL (system_state
 * `buildout_threshold:<user id>`, read and written under a row lock in one transaction), so
 * planners in several processes, or the same forecast computed again, do not repeat it. A call in
 * which the link no longer crosses ends the crossing: a later crossing is told again. Changing the
 * threshold (type or value) while the link still crosses counts as a new crossing.
 */
import { eq } from "drizzle-orm";
import { systemState } from "~db/postgres/schema";
import type { Db } from "../postgres.server";
import { getUserSettings, type UserSettingsJson } from "../settings/user-settings.server";
import { notify } from "./notifications.server";

export type BuildoutLink = {
  /** "external" (Border Planner, extlinks_* settings) or "internal" (Core Planner, intlinks_*). */
  kind: "external" | "internal";
  /** The link's name as the planner shows it, e.g. the interface or the peering. */
  name: string;
  router: string;
  /** Forecast days until the link needs building out; null or absent when the planner has none. */
  daysLeft?: number | null;
  /** Utilisation in percent (0 to 100, may exceed 100); null or absent when the planner has none. */
  percent?: number | null;
};

export type BuildoutOutcome =
  /** Crossed now: the user was notified. */
  | "notified"
  /** Still crossed, already told. */
  | "already told"
  /** Not crossed (a crossing told before has ended). */
  | "below"
  /** The link lacks the figure the user's threshold type needs (daysLeft for DAYS, percent for PERCENT). */
  | "no figure";

export type Told = { type: "DAYS" | "PERCENT"; threshold: number };
type Memory = { links: Record<string, Told> };

export const buildoutStateKey = (userId: number) => `buildout_threshold:${userId}`;
const linkKey = (link: BuildoutLink) => `${link.kind}|${link.router}|${link.name}`;
const round = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

function readMemory(value: unknown): Memory {
  const links = (value as Memory | null)?.links;
  return { links: links && typeof links === "object" ? links : {} };
}

/** The notification a crossing gives (pop-up, so the planner's user sees it on any screen). */
export function buildoutNotice(link: BuildoutLink, told: Told) {
  const where = `${link.name} on ${link.router}`;
  const planner = link.kind === "external" ? "Border Planner" : "Core Planner";
  return told.type === "DAYS"
    ? {
        title: `Build-out due: ${where}`,
        message: `${where} needs building out in ${round(link.daysLeft ?? 0)} days (your threshold: ${told.threshold} days). See the ${planner}.`,
      }
    : {
        title: `Build-out threshold reached: ${where}`,
        message: `${where} is at ${round(link.percent ?? 0)} % utilisation (your threshold: ${told.threshold} %). See the ${planner}.`,
      };
}

/**
 * The user's threshold for the link's kind, and whether the link crosses it (null: the link lacks
 * the figure the threshold's type needs). Pure.
 */
export function buildoutCrossing(
  settings: Pick<
    UserSettingsJson,
    "extlinks_buildout_type" | "extlinks_buildout_threshold" | "intlinks_buildout_type" | "intlinks_buildout_threshold"
  >,
  link: BuildoutLink,
): { threshold: Told; crossed: boolean | null } {
  const threshold: Told =
    link.kind === "external"
      ? { type: settings.extlinks_buildout_type, threshold: settings.extlinks_buildout_threshold }
      : { type: settings.intlinks_buildout_type, threshold: settings.intlinks_buildout_threshold };
  const figure = threshold.type === "DAYS" ? link.daysLeft : link.percent;
  if (figure === null || figure === undefined || !Number.isFinite(figure)) return { threshold, crossed: null };
  return { threshold, crossed: threshold.type === "DAYS" ? figure <= threshold.threshold : figure >= threshold.threshold };
}

/** Compares the link's figure with the user's threshold; notifies the user once per crossing. */
export async function notifyBuildoutThreshold(db: Db, userId: number, link: BuildoutLink): Promise<BuildoutOutcome> {
  const { threshold: told, crossed } = buildoutCrossing(await getUserSettings(db, userId), link);
  if (crossed === null) return "no figure";
  const key = buildoutStateKey(userId);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await tx
      .insert(systemState)
      .values({ key, value: { links: {} } })
      .onConflictDoNothing();
    const [row] = await tx.select().from(systemState).where(eq(systemState.key, key)).for("update");
    const memory = readMemory(row?.value);
    const before = memory.links[linkKey(link)];
    let outcome: BuildoutOutcome;
    if (!crossed) {
      outcome = "below";
      if (!before) return outcome;
      delete memory.links[linkKey(link)];
    } else if (before && before.type === told.type && before.threshold === told.threshold) {
      return "already told";
    } else {
      outcome = "notified";
      memory.links[linkKey(link)] = told;
      await notify(tx, [userId], { ...buildoutNotice(link, told), doPopUp: true });
    }
    await tx.update(systemState).set({ value: memory, updatedAt: new Date() }).where(eq(systemState.key, key));
    return outcome;
  });
}
