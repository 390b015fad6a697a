/**
 * The Alerts screen (/alerts, VIEW_ALERTS to see, MANAGE_ALERTS to change; docs/alerts.md): the
 * rules the user sees (a delegated account only its own) with their state, the last transition in
 * the user's timezone, the value that crossed and the limit as the Flow Explorer writes rates, a
 * link to the view and, for a triggered rule on one value of an object dimension, to its root-cause
 * analysis; a rule's history; the create and edit forms with "Test against the last 7 days"; the
 * confirmation step of a deletion; acknowledge and silence. Every change is a POST form with an
 * `intent`, answered by a redirect with `saved=<what>` (PRG) or by the service's refusal (400, 403,
 * 404, 409 with the messages next to the fields) with the values as typed; never a 500.
 */
import { data, redirect } from "@remix-run/node";
import { and, desc, eq, inArray } from "drizzle-orm";
import { alertEvents, groups, users } from "~db/postgres/schema";
import { availableDimensions, DIMENSIONS, isDimensionId, type DimensionId } from "~/features/filter/dimensions";
import { flowExplorerViewHref } from "~/lib/alert-link";
import { formatUnix, formatUnixRange, safeTimezone } from "~/lib/date-format";
import { ApiProblem } from "~/server/api/contract.server";
import { readProtectedForm } from "~/server/auth/guard.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { getUserSettings } from "~/server/settings/user-settings.server";
import { CONDITION_LABELS, describeCondition, formatRate, formatSeconds, SEVERITY_LABELS, STATE_COLORS } from "./format";
import {
  alertsUrl,
  EMPTY_RULE_FORM,
  formOfRule,
  parseAlertsParams,
  readRuleForm,
  ruleBodyOf,
  SAVED_MESSAGES,
  SILENCES,
  userEmailsOf,
  type RuleForm,
} from "./params";
import { previewRule, PREVIEW_DAYS } from "./preview.server";
import {
  actOnAlertRule,
  createAlertRule,
  deleteAlertRule,
  getAlertRule,
  listAlertEvents,
  listAlertRules,
  updateAlertRule,
} from "./rules.server";
import type { AlertRuleBody } from "./request-schema";

type Stores = Pick<Services, "pg" | "ch" | "config">;

/**
 * The root-cause analysis of one value of a dimension over a range, or null (a dimension it does
 * not take): the flows tool answers it (rootCauseRowHref); the route hands it in, so this tool does
 * not import the flows tool.
 */
export type RootCauseOf = (dimension: DimensionId, value: string, range: { start: number; end: number }) => string | null;

/** The period the root-cause link of a triggered rule covers: the day up to the end of the bucket that triggered it. */
export const ROOT_CAUSE_LOOKBACK_SECONDS = 86_400;
export const HISTORY_LIMIT = 100;

export const mayManageAlerts = (user: Pick<UserContext, "permissions">) => user.permissions.includes("MANAGE_ALERTS");
const mayAnalyse = (user: UserContext) => !user.isDelegated && user.permissions.includes("API_FLOWS_INTERFACES");

/** The latest event of each rule (its limit is not in the state). */
async function lastEvents(db: Services["pg"]["db"], ids: number[]) {
  if (!ids.length) return new Map<number, typeof alertEvents.$inferSelect>();
  const rows = await db
    .selectDistinctOn([alertEvents.ruleId])
    .from(alertEvents)
    .where(inArray(alertEvents.ruleId, ids))
    .orderBy(alertEvents.ruleId, desc(alertEvents.at), desc(alertEvents.id));
  return new Map(rows.map((r) => [r.ruleId, r]));
}

async function emailsOf(db: Services["pg"]["db"], ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, r.email]));
}

export async function loadAlerts(services: Stores, user: UserContext, url: URL, rootCauseOf: RootCauseOf) {
  const params = parseAlertsParams(url.searchParams);
  const db = services.pg.db;
  const settings = await getUserSettings(db, user.id);
  const tz = safeTimezone(settings.timezone || "UTC");
  const notices: string[] = [];
  const rules = await listAlertRules(db, user);
  const events = await lastEvents(
    db,
    rules.map((r) => r.id),
  );
  const emails = await emailsOf(db, [...new Set(rules.flatMap((r) => [r.ownerId, ...r.recipients.userIds]))]);
  const dimensionLabel = new Map<string, string>(DIMENSIONS.map((d) => [d.id, d.label]));
  const labelOf = (d: string) => dimensionLabel.get(d) ?? d;
  const analyse = mayAnalyse(user);
  const rows = rules.map((r) => {
    const last = events.get(r.id);
    const crossing = last && (last.toStatus === "Triggered" || last.toStatus === "Resolved") ? last : null;
    const triggered = r.state.status === "Triggered";
    const rootCause =
      analyse && triggered && r.view.value && isDimensionId(r.view.dimension) && r.state.triggeredAt
        ? rootCauseOf(r.view.dimension, r.view.value, {
            start: r.state.triggeredAt - ROOT_CAUSE_LOOKBACK_SECONDS,
            end: r.state.triggeredAt,
          })
        : null;
    return {
      id: r.id,
      name: r.name,
      owner: emails.get(r.ownerId) ?? "",
      enabled: r.enabled,
      status: r.state.status,
      statusColor: STATE_COLORS[r.state.status],
      since: r.state.since === null ? null : formatUnix(r.state.since, tz),
      /** Whether any bucket was evaluated (a rule can be evaluated without ever changing state). */
      evaluated: r.state.lastBucket !== null,
      severity: SEVERITY_LABELS[r.severity],
      view: `${labelOf(r.view.dimension)}${r.view.value ? ` = ${r.view.value}` : " (total)"}${r.view.filter.length ? `, filtered by ${r.view.filter.join(", ")}` : ""}${r.view.ipVersion !== "all" ? `, IPv${r.view.ipVersion}` : ""}`,
      viewHref: flowExplorerViewHref(r.view),
      condition: describeCondition(r),
      minDuration: formatSeconds(r.minDurationSeconds),
      value: crossing ? formatRate(crossing.value, r.metric) : "–",
      limit: crossing ? formatRate(crossing.limit, r.metric) : "–",
      acknowledged:
        r.state.acknowledgedAt === null ? null : { by: r.state.acknowledgedBy ?? "", at: formatUnix(r.state.acknowledgedAt, tz) },
      silencedUntil:
        r.state.silencedUntil !== null && r.state.silencedUntil * 1000 > Date.now() ? formatUnix(r.state.silencedUntil, tz) : null,
      rootCause,
    };
  });

  const find = async (id: number | null) => {
    if (id === null) return null;
    try {
      return await getAlertRule(db, user, id);
    } catch (error) {
      if (!(error instanceof ApiProblem)) throw error;
      notices.push(error.body.detail);
      return null;
    }
  };
  const [opened, edited, toDelete] = await Promise.all([find(params.rule), find(params.edit), find(params.confirmDelete)]);
  const history = opened
    ? (await listAlertEvents(db, user, { rule: opened.id, limit: HISTORY_LIMIT })).map((e) => ({
        id: e.id,
        at: formatUnix(e.at, tz),
        from: e.from,
        to: e.to,
        value: formatRate(e.value, opened.metric),
        limit: formatRate(e.limit, opened.metric),
        notified: e.notified,
      }))
    : [];
  const manage = mayManageAlerts(user);
  const editedForm = edited
    ? formOfRule({ ...edited, userEmails: edited.recipients.userIds.map((id) => emails.get(id) ?? "").filter(Boolean) })
    : null;
  const prefill = params.prefill;
  const creating =
    manage && (params.creating || !edited)
      ? {
          ...EMPTY_RULE_FORM,
          ...(prefill.dimension
            ? { dimension: prefill.dimension, filter: prefill.filter.join("\n"), ipVersion: prefill.ipVersion, value: prefill.value }
            : {}),
          users: user.email,
        }
      : null;
  const groupRows = user.isDelegated ? [] : await db.select({ id: groups.id, name: groups.name }).from(groups).orderBy(groups.name);
  return {
    params,
    notices,
    timezone: tz,
    savedMessage: params.saved ? SAVED_MESSAGES[params.saved] : null,
    rows,
    showOwner: !user.isDelegated,
    history: opened ? { id: opened.id, name: opened.name, events: history } : null,
    manage,
    edited: manage && edited && editedForm ? { id: edited.id, name: edited.name, form: editedForm } : null,
    creating: params.creating && creating ? creating : null,
    newForm: creating,
    toDelete: manage && toDelete ? { id: toDelete.id, name: toDelete.name } : null,
    dimensions: availableDimensions(user.permissions).map((d) => ({ value: d.id, label: d.label })),
    conditions: Object.entries(CONDITION_LABELS).map(([value, label]) => ({ value, label })),
    severities: Object.entries(SEVERITY_LABELS).map(([value, label]) => ({ value, label })),
    groups: groupRows.map((g) => ({ value: String(g.id), label: g.name })),
    webhooks: [
      ...(services.config.ALERT_WEBHOOK_URL ? [{ value: "main", label: "The team chat (main webhook)" }] : []),
      ...(services.config.ALERT_WEBHOOK_TEST_URL ? [{ value: "test", label: "The test webhook" }] : []),
    ],
    silences: SILENCES,
    previewDays: PREVIEW_DAYS,
  };
}

export type AlertsScreen = Awaited<ReturnType<typeof loadAlerts>>;

export type AlertsIntent = "create" | "update" | "delete" | "acknowledge" | "silence" | "preview" | "";
const INTENTS = new Set(["create", "update", "delete", "acknowledge", "silence", "preview"]);

export type PreviewView = {
  range: string;
  buckets: number;
  withData: number;
  transitions: { at: string; from: string; to: string; value: string; limit: string }[];
};

export type AlertsActionResult = {
  intent: AlertsIntent;
  /** The rule the form is about (null: the create form). */
  id: number | null;
  errors: Record<string, string>;
  form: RuleForm | null;
  preview: PreviewView | null;
};

/** The account ids of the `users` field; a delegated account names only itself. */
async function recipientIds(db: Services["pg"]["db"], user: UserContext, form: RuleForm): Promise<{ ids: number[] } | { error: string }> {
  const wanted = [...new Set(userEmailsOf(form))];
  if (!wanted.length) return { ids: [] };
  if (user.isDelegated) {
    const others = wanted.filter((e) => e !== user.email.toLowerCase());
    return others.length ? { error: `A delegated account can name only itself: ${others.join(", ")}.` } : { ids: [user.id] };
  }
  const rows = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(inArray(users.email, wanted), eq(users.isActive, true)));
  const found = new Map(rows.map((r) => [r.email.toLowerCase(), r.id]));
  const missing = wanted.filter((e) => !found.has(e));
  if (missing.length) return { error: `No active account with the e-mail address ${missing.join(", ")}.` };
  return { ids: wanted.map((e) => found.get(e)!) };
}

function problemErrors(problem: ApiProblem): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const e of problem.body.errors ?? []) errors[e.field === "view" ? "view" : e.field] ??= e.message;
  if (!Object.keys(errors).length) errors[""] = problem.body.detail;
  return errors;
}

export async function saveAlerts(services: Stores, user: UserContext, request: Request) {
  const form = await readProtectedForm(request);
  const rawIntent = String(form.get("intent") ?? "");
  const intent = (INTENTS.has(rawIntent) ? rawIntent : "") as AlertsIntent;
  const idText = String(form.get("id") ?? "");
  const id = /^\d{1,9}$/.test(idText) ? Number(idText) : null;
  const typed = intent === "create" || intent === "update" || intent === "preview" ? readRuleForm(form) : null;
  const answer = (errors: Record<string, string>, status: number, preview: PreviewView | null = null) =>
    data<AlertsActionResult>({ intent, id, errors, form: typed, preview }, { status });
  if (!mayManageAlerts(user)) return answer({ "": "Changing alert rules needs the Manage alerts permission (MANAGE_ALERTS)." }, 403);
  const db = services.pg.db;
  const bodyOf = async (): Promise<{ body: AlertRuleBody } | { errors: Record<string, string> }> => {
    const recipients = await recipientIds(db, user, typed!);
    const result = ruleBodyOf(typed!, "ids" in recipients ? recipients.ids : []);
    if ("error" in recipients) return { errors: { ...("errors" in result ? result.errors : {}), users: recipients.error } };
    return result;
  };
  try {
    switch (intent) {
      case "create": {
        const checked = await bodyOf();
        if ("errors" in checked) return answer(checked.errors, 400);
        const made = await createAlertRule(services, user, checked.body);
        return redirect(alertsUrl({ rule: made.id, saved: "created" }));
      }
      case "update": {
        if (id === null) return answer({ "": "No alert rule with this id." }, 404);
        const checked = await bodyOf();
        if ("errors" in checked) return answer(checked.errors, 400);
        await updateAlertRule(services, user, id, checked.body);
        return redirect(alertsUrl({ rule: id, saved: "updated" }));
      }
      case "preview": {
        const checked = await bodyOf();
        if ("errors" in checked) return answer(checked.errors, 400);
        const tz = safeTimezone((await getUserSettings(db, user.id)).timezone || "UTC");
        const preview = await previewRule(services, user, checked.body);
        if ("error" in preview) return answer({ view: preview.error }, 400);
        const metric = checked.body.metric;
        return answer({}, 200, {
          range: formatUnixRange(preview.range.start, preview.range.end, tz),
          buckets: preview.buckets,
          withData: preview.withData,
          transitions: preview.transitions.map((t) => ({
            at: formatUnix(t.at, tz),
            from: t.from,
            to: t.to,
            value: formatRate(t.value, metric),
            limit: formatRate(t.limit, metric),
          })),
        });
      }
      case "delete": {
        if (id === null) return answer({ "": "No alert rule with this id." }, 404);
        // Without JavaScript the list's Delete leads to the confirmation page; only its button sends confirm=yes.
        if (form.get("confirm") !== "yes") return redirect(alertsUrl({ confirmDelete: id }));
        await deleteAlertRule(db, user, id);
        return redirect(alertsUrl({ saved: "deleted" }));
      }
      case "acknowledge": {
        if (id === null) return answer({ "": "No alert rule with this id." }, 404);
        await actOnAlertRule(db, user, id, { action: "acknowledge" });
        return redirect(alertsUrl({ rule: id, saved: "acknowledged" }));
      }
      case "silence": {
        if (id === null) return answer({ "": "No alert rule with this id." }, 404);
        const seconds = Number(form.get("seconds"));
        if (!Number.isInteger(seconds) || !(seconds === 0 || SILENCES.some((s) => s.seconds === seconds)))
          return answer({ "": "Choose one of the offered silences." }, 400);
        await actOnAlertRule(db, user, id, { action: "silence", seconds });
        return redirect(alertsUrl({ rule: id, saved: seconds === 0 ? "unsilenced" : "silenced" }));
      }
      default:
        return answer({ "": "Unknown action." }, 400);
    }
  } catch (error) {
    if (error instanceof ApiProblem) return answer(problemErrors(error), error.status);
    throw error;
  }
}
