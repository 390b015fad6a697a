/**
 * The alert rules as the API and the Alerts screen see them (docs/alerts.md): who sees which rule
 * (a delegated account only its own; everybody else holding VIEW_ALERTS all of them), who changes
 * them (MANAGE_ALERTS; a delegated account only its own), and a rule's view checked against its
 * creator's restriction when it is saved (evaluation applies the owner's restriction again).
 */
import { and, desc, eq, inArray } from "drizzle-orm";
import { alertEvents, alertRules, alertState } from "~db/postgres/schema";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Db } from "~/server/postgres.server";
import type { Services } from "~/server/services.server";
import { ruleSelection, toMachineState, type AlertRuleRow } from "./evaluate.server";
import type { AlertRuleBody } from "./request-schema";
import { acknowledge, acknowledgeError, INITIAL_STATE, silence, type AlertState } from "./state-machine";

type Stores = Pick<Services, "pg">;

export type AlertRuleView = {
  id: number;
  ownerId: number;
  name: string;
  view: AlertRuleRow["view"];
  metric: AlertRuleRow["metric"];
  condition: AlertRuleRow["conditionKind"];
  threshold: number | null;
  bandFactor: number | null;
  minDurationSeconds: number;
  hysteresis: number;
  severity: AlertRuleRow["severity"];
  recipients: AlertRuleRow["recipients"];
  enabled: boolean;
  state: AlertState;
};

const notFound = () => new ApiProblem(404, { detail: "No alert rule with this id." });

function shape(rule: AlertRuleRow, state: typeof alertState.$inferSelect | undefined): AlertRuleView {
  return {
    id: rule.id,
    ownerId: rule.ownerId,
    name: rule.name,
    view: rule.view,
    metric: rule.metric,
    condition: rule.conditionKind,
    threshold: rule.threshold,
    bandFactor: rule.bandFactor,
    minDurationSeconds: rule.minDurationSeconds,
    hysteresis: rule.hysteresis,
    severity: rule.severity,
    recipients: rule.recipients,
    enabled: rule.enabled,
    state: state ? toMachineState(state) : INITIAL_STATE,
  };
}

const visible = (user: Pick<UserContext, "id" | "isDelegated">) => (user.isDelegated ? eq(alertRules.ownerId, user.id) : undefined);

export async function listAlertRules(db: Db, user: Pick<UserContext, "id" | "isDelegated">): Promise<AlertRuleView[]> {
  const rules = await db.select().from(alertRules).where(visible(user)).orderBy(alertRules.id);
  if (!rules.length) return [];
  const states = await db
    .select()
    .from(alertState)
    .where(
      inArray(
        alertState.ruleId,
        rules.map((r) => r.id),
      ),
    );
  const byRule = new Map(states.map((s) => [s.ruleId, s]));
  return rules.map((r) => shape(r, byRule.get(r.id)));
}

async function visibleRule(db: Db, user: Pick<UserContext, "id" | "isDelegated">, id: number): Promise<AlertRuleRow> {
  const [rule] = await db
    .select()
    .from(alertRules)
    .where(and(eq(alertRules.id, id), visible(user)));
  if (!rule) throw notFound();
  return rule;
}

export async function getAlertRule(db: Db, user: Pick<UserContext, "id" | "isDelegated">, id: number): Promise<AlertRuleView> {
  const rule = await visibleRule(db, user, id);
  const [state] = await db.select().from(alertState).where(eq(alertState.ruleId, id));
  return shape(rule, state);
}

/**
 * Who a delegated account's rule may tell: the account itself and e-mail addresses (its own NOC's) — never the
 * operator's other users, its groups or its team-chat webhooks.
 */
function delegatedRecipientsProblem(user: UserContext, r: AlertRuleBody["recipients"]): string | null {
  if (!user.isDelegated) return null;
  if (r.userIds.some((id) => id !== user.id)) return "A delegated account's rule tells the account itself only.";
  if (r.groupIds.length) return "A delegated account's rule cannot tell groups.";
  if (r.webhook !== null) return "A delegated account's rule cannot post to the team-chat webhooks.";
  return null;
}

/** The body checked beyond its schema: the view readable by `user` (inside a delegated restriction), the recipients it may name. */
async function checkedValues(stores: Stores, user: UserContext, body: AlertRuleBody) {
  const recipients = delegatedRecipientsProblem(user, body.recipients);
  if (recipients) throw new ApiProblem(400, { detail: "Invalid request body.", errors: [{ field: "recipients", message: recipients }] });
  const selected = await ruleSelection(stores, user, { ...body.view, value: body.view.value || null });
  if ("error" in selected)
    throw new ApiProblem(400, { detail: "Invalid request body.", errors: [{ field: "view", message: selected.error }] });
  return {
    name: body.name,
    view: { ...body.view, value: body.view.value || null },
    metric: body.metric,
    conditionKind: body.condition,
    threshold: body.condition === "outside_band" ? null : body.threshold,
    bandFactor: body.condition === "outside_band" ? body.bandFactor : null,
    minDurationSeconds: body.minDurationSeconds,
    hysteresis: body.hysteresis,
    severity: body.severity,
    recipients: body.recipients,
    enabled: body.enabled,
  };
}

export async function createAlertRule(stores: Stores, user: UserContext, body: AlertRuleBody): Promise<AlertRuleView> {
  const values = await checkedValues(stores, user, body);
  const [rule] = await stores.pg.db
    .insert(alertRules)
    .values({ ...values, ownerId: user.id })
    .returning();
  return shape(rule, undefined);
}

/** A changed rule starts again from OK (its history stays): the old state belonged to the old condition. */
export async function updateAlertRule(stores: Stores, user: UserContext, id: number, body: AlertRuleBody): Promise<AlertRuleView> {
  await visibleRule(stores.pg.db, user, id);
  const values = await checkedValues(stores, user, body);
  const [rule] = await stores.pg.db
    .update(alertRules)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(alertRules.id, id))
    .returning();
  await stores.pg.db.delete(alertState).where(eq(alertState.ruleId, id));
  return shape(rule, undefined);
}

export async function deleteAlertRule(db: Db, user: Pick<UserContext, "id" | "isDelegated">, id: number): Promise<void> {
  await visibleRule(db, user, id);
  await db.delete(alertRules).where(eq(alertRules.id, id));
}

/** Acknowledges or silences a rule under its state's row lock (the evaluator's lock). */
export async function actOnAlertRule(
  db: Db,
  user: UserContext,
  id: number,
  action: { action: "acknowledge" } | { action: "silence"; seconds: number },
  now = Math.floor(Date.now() / 1000),
): Promise<AlertRuleView> {
  const rule = await visibleRule(db, user, id);
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await tx.insert(alertState).values({ ruleId: id }).onConflictDoNothing();
    const [row] = await tx.select().from(alertState).where(eq(alertState.ruleId, id)).for("update");
    const state = toMachineState(row);
    let next: AlertState;
    if (action.action === "acknowledge") {
      const error = acknowledgeError(state);
      if (error) throw new ApiProblem(409, { detail: error, exception_code: "alert_not_triggered" });
      next = acknowledge(state, user.email, now);
    } else next = silence(state, now, action.seconds);
    await tx
      .update(alertState)
      .set({ ...next, updatedAt: new Date() })
      .where(eq(alertState.ruleId, id));
  });
  return getAlertRule(db, user, rule.id);
}

export type AlertEventView = {
  id: number;
  ruleId: number;
  from: string;
  to: string;
  bucketStart: number;
  at: number;
  value: number | null;
  limit: number | null;
  notified: boolean;
};

/** The history: newest first, of one rule or of every rule the user sees. */
export async function listAlertEvents(
  db: Db,
  user: Pick<UserContext, "id" | "isDelegated">,
  options: { rule?: number; limit: number },
): Promise<AlertEventView[]> {
  if (options.rule !== undefined) await visibleRule(db, user, options.rule);
  const rows = await db
    .select({ event: alertEvents })
    .from(alertEvents)
    .innerJoin(alertRules, eq(alertRules.id, alertEvents.ruleId))
    .where(and(options.rule !== undefined ? eq(alertEvents.ruleId, options.rule) : undefined, visible(user)))
    .orderBy(desc(alertEvents.at), desc(alertEvents.id))
    .limit(options.limit);
  return rows.map(({ event: e }) => ({
    id: e.id,
    ruleId: e.ruleId,
    from: e.fromStatus,
    to: e.toStatus,
    bucketStart: e.bucketStart,
    at: e.at,
    value: e.value,
    limit: e.limit,
    notified: e.notified,
  }));
}
