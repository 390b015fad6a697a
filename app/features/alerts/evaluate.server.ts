/**
 * The alert rules' evaluation (docs/alerts.md): every minute, in the background, on the one host
 * that runs the ingest components (wiring: runInBackground "alerts", `where: "component host"`).
 *
 * - Only the newest complete 5-minute bucket is evaluated: the bucket whose end is at least the
 *   collector's longest flush (FLUSH_SECONDS at most 5 s) plus a margin (30 s) ago.
 * - Rules with the same range and window are read together: threshold rules over the one bucket,
 *   band rules over the bucket and the four weeks of history the seasonal band needs; each group in
 *   statements of at most ALERT_RULES_PER_QUERY rules (short chunks), through the analytics query
 *   limiter at its lowest priority (query.server.ts `priority: "lowest"`), so rules never delay
 *   interactive users.
 * - Each rule's view is resolved as its owner's at evaluation time (filter-resolver.server.ts): a
 *   delegated owner's restriction is applied as it is now, so a narrowed restriction narrows the
 *   rule. An owner who no longer exists, is inactive, or lost VIEW_ALERTS has the rule skipped; a
 *   view its owner may no longer use gives No data.
 * - A rule's state is read under a row lock, stepped (state-machine.ts) and written back with its
 *   new event in one transaction: the once-per-crossing memory. Only the process that wrote the
 *   event tells the recipients, so two evaluators (two processes, a restart) never tell twice.
 */
import { and, eq, inArray } from "drizzle-orm";
import { alertEvents, alertRules, alertState, outboxWebhooks, userGroups, type AlertRuleView } from "~db/postgres/schema";
import { getDimension, isDimensionId } from "~/features/filter/dimensions";
import { parseApiFilters, resolveParsedFilters } from "~/features/filter/filter-resolver.server";
import { operatorAsn } from "~/features/filter/operator-as.server";
import type { RequestFilter } from "~/features/filter/request-filter";
import { WEEK_SECONDS } from "~/lib/forecast-seasonal";
import { alertBand, bandLimits } from "~/lib/seasonal-band";
import { loadUserContext, type UserContext } from "~/server/auth/user-context.server";
import { chQuery } from "~/server/clickhouse/query.server";
import { log } from "~/server/log.server";
import { sendMail } from "~/server/mail/mailer.server";
import { notify } from "~/server/notifications/notifications.server";
import { deliverWebhook } from "~/server/outbox.server";
import type { Db } from "~/server/postgres.server";
import type { Services } from "~/server/services.server";
import { z } from "zod";
import { alertBatchQuery, BUCKET_SECONDS, type RuleSelection } from "./sql";
import { step, type AlertCondition, type AlertState, type AlertTransition, type BucketSample, type RuleLogic } from "./state-machine";

type Stores = Pick<Services, "pg" | "ch" | "config">;
export type AlertRuleRow = typeof alertRules.$inferSelect;

/** The collector's longest flush interval (FLUSH_SECONDS is at most 5). */
export const COLLECTOR_FLUSH_SECONDS = 5;
/** Waited beyond the bucket's end and the flush before the bucket counts as complete. */
export const EVALUATION_MARGIN_SECONDS = 30;
/** History read for band rules: the seasonal model's four previous weeks. */
export const BAND_HISTORY_SECONDS = 4 * WEEK_SECONDS;
/** Rules per statement: the short chunks in which a group is read. */
export const ALERT_RULES_PER_QUERY = 200;
/** The API version whose dimensions a rule's view may use. */
const RULE_API_VERSION = 17;

/** The Flow Explorer's `filter` parameters (`DIMENSION:v1,!v2`) as request filters. */
export function viewFilters(filters: readonly string[]): { dimension: string; values: string[] }[] {
  return filters.map((f) => {
    const colon = f.indexOf(":");
    const dimension = (colon < 0 ? f : f.slice(0, colon)).trim();
    const values =
      colon < 0
        ? []
        : f
            .slice(colon + 1)
            .split(",")
            .map((v) => v.trim())
            .filter((v) => v !== "");
    return { dimension, values };
  });
}

/** The newest bucket complete at `now` (epoch seconds): its start. */
export function newestCompleteBucket(now: number): number {
  return Math.floor((now - COLLECTOR_FLUSH_SECONDS - EVALUATION_MARGIN_SECONDS) / BUCKET_SECONDS) * BUCKET_SECONDS - BUCKET_SECONDS;
}

export function ruleLogic(rule: AlertRuleRow): RuleLogic {
  const condition: AlertCondition =
    rule.conditionKind === "outside_band"
      ? { kind: "outside_band", metric: rule.metric, factor: rule.bandFactor ?? 0 }
      : { kind: rule.conditionKind, metric: rule.metric, threshold: rule.threshold ?? 0 };
  return { condition, minDurationSeconds: rule.minDurationSeconds, hysteresis: rule.hysteresis };
}

/**
 * What a rule's view selects for its owner now: the owner's restriction applied; null with the
 * reason when the view cannot be read for them (No data then).
 */
export async function ruleSelection(
  stores: Pick<Services, "pg">,
  owner: UserContext,
  view: AlertRuleView,
): Promise<{ selection: RuleSelection } | { error: string }> {
  if (!isDimensionId(view.dimension)) return { error: `Unknown dimension ${view.dimension}.` };
  const requested: RequestFilter[] = viewFilters(view.filter);
  if (view.value !== null) requested.push({ dimension: view.dimension, values: [view.value] });
  const parsed = parseApiFilters(owner, RULE_API_VERSION, requested);
  const resolved = await resolveParsedFilters(stores, owner, parsed);
  const problem = resolved.refused[0] ?? resolved.errors[0];
  if (problem) return { error: problem.message };
  const ipVersion = view.ipVersion === "4" ? 4 : view.ipVersion === "6" ? 6 : "all";
  return { selection: { filters: resolved.filters, ipVersion, direction: getDimension(view.dimension).direction } };
}

/** One rule's series read for an evaluation: per bucket start, the value in the rule's metric (null: no data). */
export type RuleSeries = Map<number, number | null>;

/**
 * Reads the rules' series over `range` in grouped statements (ALERT_RULES_PER_QUERY rules each) at
 * the limiter's lowest priority. Buckets without any row for a rule are null.
 */
export async function readRuleSeries(
  stores: Pick<Services, "ch">,
  rules: readonly { selection: RuleSelection; metric: "bps" | "pps" }[],
  range: { start: number; end: number },
  operator: number,
): Promise<RuleSeries[]> {
  const out: RuleSeries[] = rules.map(() => new Map());
  for (let offset = 0; offset < rules.length; offset += ALERT_RULES_PER_QUERY) {
    const chunk = rules.slice(offset, offset + ALERT_RULES_PER_QUERY);
    const query = alertBatchQuery(
      chunk.map((r) => r.selection),
      range,
      operator,
    );
    const rows = await chQuery(stores.ch, { ...query, priority: "lowest", schema: batchRow });
    for (const row of rows)
      chunk.forEach((rule, i) => {
        const value =
          row.matched[i] === 0 ? null : rule.metric === "bps" ? (row.bytes[i] * 8) / BUCKET_SECONDS : row.packets[i] / BUCKET_SECONDS;
        out[offset + i].set(row.bucket, value);
      });
  }
  return out;
}

const batchRow = z.object({
  bucket: z.coerce.number(),
  bytes: z.array(z.coerce.number()),
  packets: z.array(z.coerce.number()),
  matched: z.array(z.coerce.number()),
});

/** The sample of the bucket starting at `target` from a rule's series; band rules get the band from the history before it. */
export function sampleOf(
  series: RuleSeries,
  rule: Pick<AlertRuleRow, "conditionKind" | "bandFactor">,
  target: number,
  historyStart: number,
): BucketSample {
  const value = series.get(target) ?? null;
  if (rule.conditionKind !== "outside_band") return { start: target, step: BUCKET_SECONDS, value };
  const n = (target - historyStart) / BUCKET_SECONDS;
  const values = Array.from({ length: n }, (_, i) => series.get(historyStart + i * BUCKET_SECONDS) ?? null);
  const band = values.some((v) => v !== null) ? alertBand({ start: historyStart, step: BUCKET_SECONDS, values }, target) : null;
  return {
    start: target,
    step: BUCKET_SECONDS,
    value,
    band: band ? { expected: band.expected, ...bandLimits(band, rule.bandFactor ?? 0) } : null,
  };
}

export function toMachineState(row: typeof alertState.$inferSelect): AlertState {
  return {
    status: row.status,
    since: row.since,
    lastBucket: row.lastBucket,
    breachSince: row.breachSince,
    crossingValue: row.crossingValue,
    triggeredAt: row.triggeredAt,
    resolvedAt: row.resolvedAt,
    acknowledgedAt: row.acknowledgedAt,
    acknowledgedBy: row.acknowledgedBy,
    silencedUntil: row.silencedUntil,
  };
}

/** The notification of a transition (the spec's notification shape: title, message, pop-up). */
export function transitionNotice(rule: Pick<AlertRuleRow, "id" | "name" | "severity" | "metric">, t: AlertTransition) {
  const unit = rule.metric === "bps" ? "bit/s" : "packets/s";
  const figure = (v: number | null) => (v === null ? "" : `${formatRate(v)} ${unit}`);
  const when = new Date(t.at * 1000).toISOString().replace(".000Z", "Z");
  const message =
    t.to === "No data"
      ? `No data for the bucket ending ${when}.`
      : t.to === "Triggered"
        ? `${figure(t.value)} crossed the limit of ${figure(t.limit)} in the bucket ending ${when}.`
        : t.to === "Resolved"
          ? `Back to ${figure(t.value)} (limit ${figure(t.limit)}) in the bucket ending ${when}.`
          : `Data again: ${figure(t.value)} in the bucket ending ${when}.`;
  return { title: `Alert ${t.to} (${rule.severity}): ${rule.name}`, message: `${message} See /alerts?rule=${rule.id}.` };
}

function formatRate(v: number): string {
  const units = ["", "k", "M", "G", "T"];
  let i = 0;
  let x = v;
  while (Math.abs(x) >= 1000 && i < units.length - 1) {
    x /= 1000;
    i++;
  }
  return `${Number(x.toFixed(2))} ${units[i]}`.trimEnd().replace(/ $/, "");
}

/** Users a rule tells: its listed users and the members of its listed groups (each once). */
async function recipientUsers(db: Db, rule: AlertRuleRow): Promise<number[]> {
  const ids = new Set(rule.recipients.userIds);
  if (rule.recipients.groupIds.length) {
    const members = await db
      .select({ id: userGroups.userId })
      .from(userGroups)
      .where(inArray(userGroups.groupId, rule.recipients.groupIds));
    for (const m of members) ids.add(m.id);
  }
  return [...ids].sort((a, b) => a - b);
}

export type StepResult = { transition: AlertTransition | null; told: boolean; late: boolean };

/**
 * Steps one rule by one sample under its state's row lock; writes the event and the users'
 * notifications in the same transaction, then (after the commit) the e-mails and the webhook post.
 */
export async function applySample(stores: Stores, rule: AlertRuleRow, sample: BucketSample, now: number): Promise<StepResult> {
  const db = stores.pg.db;
  const users = await recipientUsers(db, rule);
  const result = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await tx.insert(alertState).values({ ruleId: rule.id }).onConflictDoNothing();
    const [row] = await tx.select().from(alertState).where(eq(alertState.ruleId, rule.id)).for("update");
    const outcome = step(toMachineState(row), ruleLogic(rule), sample, now);
    if (outcome.late) return { transition: null, told: false, late: true };
    await tx
      .update(alertState)
      .set({ ...outcome.state, updatedAt: new Date() })
      .where(eq(alertState.ruleId, rule.id));
    const t = outcome.transition;
    if (!t) return { transition: null, told: false, late: false };
    const inserted = await tx
      .insert(alertEvents)
      .values({
        ruleId: rule.id,
        fromStatus: t.from,
        toStatus: t.to,
        bucketStart: t.bucketStart,
        at: t.at,
        value: t.value,
        limit: t.limit,
        notified: t.notify,
      })
      .onConflictDoNothing()
      .returning({ id: alertEvents.id });
    const told = inserted.length > 0 && t.notify;
    if (told) await notify(tx, users, { ...transitionNotice(rule, t), doPopUp: rule.severity !== "info" });
    return { transition: t, told, late: false };
  });
  if (result.told && result.transition) {
    const notice = transitionNotice(rule, result.transition);
    for (const to of rule.recipients.emails) void sendMail(db, { to, subject: notice.title, text: notice.message }, { background: true });
    const target = rule.recipients.webhook;
    if (target && (target === "main" ? stores.config.ALERT_WEBHOOK_URL : stores.config.ALERT_WEBHOOK_TEST_URL)) {
      const [row] = await db
        .insert(outboxWebhooks)
        .values({
          target,
          payload: { text: `**${notice.title}** ${notice.message}`, username: "flowlens" },
          attempts: 0,
          nextAttemptAt: null,
        })
        .returning();
      void deliverWebhook(db, stores.config, row).catch(() => undefined);
    }
  }
  return result;
}

export type EvaluationReport = { bucket: number; rules: number; queries: number; transitions: number; skipped: number };

/** One evaluation of every enabled rule on the newest complete bucket at `now` (epoch seconds). */
export async function evaluateAlerts(stores: Stores, now = Math.floor(Date.now() / 1000)): Promise<EvaluationReport> {
  const target = newestCompleteBucket(now);
  const rules = await stores.pg.db
    .select()
    .from(alertRules)
    .where(and(eq(alertRules.enabled, true)))
    .orderBy(alertRules.id);
  const report: EvaluationReport = { bucket: target, rules: rules.length, queries: 0, transitions: 0, skipped: 0 };
  if (!rules.length) return report;
  const owners = new Map<number, UserContext | null>();
  const readable: { rule: AlertRuleRow; selection: RuleSelection }[] = [];
  const unreadable: AlertRuleRow[] = [];
  for (const rule of rules) {
    if (!owners.has(rule.ownerId)) owners.set(rule.ownerId, await loadUserContext(stores.pg.db, rule.ownerId));
    const owner = owners.get(rule.ownerId);
    if (!owner || !owner.permissions.includes("VIEW_ALERTS")) {
      report.skipped++;
      continue;
    }
    const selected = await ruleSelection(stores, owner, rule.view);
    if ("error" in selected) unreadable.push(rule);
    else readable.push({ rule, selection: selected.selection });
  }
  const operator = readable.length ? await operatorAsn(stores) : 0;
  const groups = [
    { range: { start: target, end: target + BUCKET_SECONDS }, members: readable.filter((r) => r.rule.conditionKind !== "outside_band") },
    {
      range: { start: target - BAND_HISTORY_SECONDS, end: target + BUCKET_SECONDS },
      members: readable.filter((r) => r.rule.conditionKind === "outside_band"),
    },
  ];
  for (const group of groups) {
    if (!group.members.length) continue;
    report.queries += Math.ceil(group.members.length / ALERT_RULES_PER_QUERY);
    const series = await readRuleSeries(
      stores,
      group.members.map((m) => ({ selection: m.selection, metric: m.rule.metric })),
      group.range,
      operator,
    );
    for (const [i, { rule }] of group.members.entries()) {
      const outcome = await applySample(stores, rule, sampleOf(series[i], rule, target, group.range.start), now);
      if (outcome.transition) report.transitions++;
    }
  }
  for (const rule of unreadable) {
    const outcome = await applySample(stores, rule, { start: target, step: BUCKET_SECONDS, value: null }, now);
    if (outcome.transition) report.transitions++;
  }
  return report;
}

/** The background task: an evaluation at the start of every minute, one at a time; failures are logged. */
export function alertEvaluator(): { start: (services: Services) => void; stop: () => Promise<unknown> } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const schedule = (services: Services) => {
    if (stopped) return;
    const wait = 60_000 - (Date.now() % 60_000);
    timer = setTimeout(() => {
      running = evaluateAlerts(services)
        .catch((error: unknown) => log.error(`alert evaluation failed: ${String(error)}`))
        .finally(() => schedule(services));
    }, wait);
    timer.unref?.();
  };
  return {
    start: (services) => {
      stopped = false;
      schedule(services);
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
