/**
 * The Alerts screen's URL state and form model (/alerts, VIEW_ALERTS; changes MANAGE_ALERTS).
 * Isomorphic: the view and the server read the same rules.
 *
 * GET parameters: rule=<id> (the rule whose history is open), edit=<id> (its edit form), new=1
 * (the create form, prefilled from the Flow Explorer's parameters dimension, filter (repeated),
 * ipVersion and value: the "Alert on this view" link), delete=<id> (the confirmation step of a
 * deletion), saved=<what> (the notice after a change).
 */
import { ALERT_SEVERITIES } from "~db/postgres/schema/alerts";
import { ALERTS_PATH } from "~/lib/alert-link";
import { parseRate, rateText } from "./format";
import { alertRuleBodySchema, type AlertRuleBody } from "./request-schema";
import { MAX_SILENCE_SECONDS } from "./state-machine";

export { ALERTS_PATH };

export const SAVED_MESSAGES: Record<string, string> = {
  created: "The alert rule was created; it is evaluated from the next complete 5-minute bucket.",
  updated: "The alert rule was saved; its state starts again from OK (its history stays).",
  deleted: "The alert rule was deleted with its history.",
  acknowledged: "The alert was acknowledged.",
  silenced: "The alert rule is silenced: its transitions are kept in the history, nobody is told until the silence ends.",
  unsilenced: "The silence was ended.",
};

/** The silences the screen offers, in seconds (at most MAX_SILENCE_SECONDS). */
export const SILENCES: readonly { seconds: number; label: string }[] = [
  { seconds: 3600, label: "1 hour" },
  { seconds: 4 * 3600, label: "4 hours" },
  { seconds: 86_400, label: "1 day" },
  { seconds: MAX_SILENCE_SECONDS, label: "1 week" },
];

export type AlertsParams = {
  rule: number | null;
  edit: number | null;
  creating: boolean;
  confirmDelete: number | null;
  saved: string | null;
  /** The new-rule form's view from the URL (the Flow Explorer's parameter names). */
  prefill: { dimension: string; filter: string[]; ipVersion: string; value: string };
};

const ID = /^\d{1,9}$/;
const id = (v: string | null) => (v && ID.test(v) ? Number(v) : null);

export function parseAlertsParams(search: URLSearchParams): AlertsParams {
  const saved = search.get("saved");
  const ipVersion = search.get("ipVersion") ?? "all";
  return {
    rule: id(search.get("rule")),
    edit: id(search.get("edit")),
    creating: search.get("new") === "1",
    confirmDelete: id(search.get("delete")),
    saved: saved && saved in SAVED_MESSAGES ? saved : null,
    prefill: {
      dimension: (search.get("dimension") ?? "").trim().slice(0, 64),
      filter: search
        .getAll("filter")
        .map((f) => f.trim())
        .filter(Boolean)
        .slice(0, 50),
      ipVersion: ["all", "4", "6"].includes(ipVersion) ? ipVersion : "all",
      value: (search.get("value") ?? "").trim().slice(0, 200),
    },
  };
}

export function alertsUrl(p: {
  rule?: number | null;
  edit?: number | null;
  creating?: boolean;
  confirmDelete?: number | null;
  saved?: string;
}) {
  const s = new URLSearchParams();
  if (p.rule) s.set("rule", String(p.rule));
  if (p.edit) s.set("edit", String(p.edit));
  if (p.creating) s.set("new", "1");
  if (p.confirmDelete) s.set("delete", String(p.confirmDelete));
  if (p.saved) s.set("saved", p.saved);
  const text = s.toString();
  return text ? `${ALERTS_PATH}?${text}` : ALERTS_PATH;
}

/** The rule form as typed: every field a string (filters and addresses one per line). */
export type RuleForm = {
  name: string;
  dimension: string;
  filter: string;
  ipVersion: string;
  value: string;
  metric: string;
  condition: string;
  threshold: string;
  bandFactor: string;
  /** Minutes. */
  minDuration: string;
  /** Percent. */
  hysteresis: string;
  severity: string;
  /** E-mail addresses of flowlens accounts, one per line. */
  users: string;
  groups: string[];
  emails: string;
  webhook: string;
  enabled: boolean;
};

export const RULE_FORM_FIELDS = [
  "name",
  "dimension",
  "filter",
  "ipVersion",
  "value",
  "metric",
  "condition",
  "threshold",
  "bandFactor",
  "minDuration",
  "hysteresis",
  "severity",
  "users",
  "emails",
  "webhook",
] as const;

export const EMPTY_RULE_FORM: RuleForm = {
  name: "",
  dimension: "AS_SRC_INGRESS",
  filter: "",
  ipVersion: "all",
  value: "",
  metric: "bps",
  condition: "above",
  threshold: "",
  bandFactor: "1",
  minDuration: "15",
  hysteresis: "10",
  severity: "warning",
  users: "",
  groups: [],
  emails: "",
  webhook: "",
  enabled: true,
};

/** The form of a form post (unknown fields ignored, missing ones at the new form's defaults). */
export function readRuleForm(form: FormData): RuleForm {
  const one = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const out = { ...EMPTY_RULE_FORM, groups: [] as string[], enabled: form.get("enabled") === "on" || form.get("enabled") === "1" };
  for (const f of RULE_FORM_FIELDS) out[f] = form.has(f) ? one(f) : EMPTY_RULE_FORM[f];
  out.groups = form
    .getAll("groups")
    .filter((v): v is string => typeof v === "string" && ID.test(v))
    .slice(0, 100);
  return out;
}

/** A stored rule as its form shows it. */
export function formOfRule(rule: {
  name: string;
  view: { dimension: string; filter: string[]; ipVersion: string; value: string | null };
  metric: string;
  condition: string;
  threshold: number | null;
  bandFactor: number | null;
  minDurationSeconds: number;
  hysteresis: number;
  severity: string;
  recipients: { groupIds: number[]; emails: string[]; webhook: string | null };
  enabled: boolean;
  userEmails: string[];
}): RuleForm {
  return {
    name: rule.name,
    dimension: rule.view.dimension,
    filter: rule.view.filter.join("\n"),
    ipVersion: rule.view.ipVersion,
    value: rule.view.value ?? "",
    metric: rule.metric,
    condition: rule.condition,
    threshold: rule.threshold === null ? "" : rateText(rule.threshold),
    bandFactor: rule.bandFactor === null ? "1" : String(rule.bandFactor),
    minDuration: String(Math.round((rule.minDurationSeconds / 60) * 1000) / 1000),
    hysteresis: String(Math.round(rule.hysteresis * 100 * 1000) / 1000),
    severity: rule.severity,
    users: rule.userEmails.join("\n"),
    groups: rule.recipients.groupIds.map(String),
    emails: rule.recipients.emails.join("\n"),
    webhook: rule.recipients.webhook ?? "",
    enabled: rule.enabled,
  };
}

const lines = (text: string) =>
  text
    .split(/[\r\n,;]+/)
    .map((l) => l.trim())
    .filter(Boolean);

/** Where the schema's issues are shown: the form field of each body path. */
function fieldOf(path: readonly PropertyKey[]): string {
  const [head, second] = path.map(String);
  if (head === "view")
    return second === "filter" ? "filter" : second === "ipVersion" ? "ipVersion" : second === "value" ? "value" : "dimension";
  if (head === "recipients")
    return second === "emails" ? "emails" : second === "webhook" ? "webhook" : second === "groupIds" ? "groups" : "users";
  if (head === "minDurationSeconds") return "minDuration";
  return head ?? "";
}

/**
 * The API body of a typed form (the same schema as api/alerts/rules/), or the messages by field.
 * `userIds` are the accounts the server found for the `users` field.
 */
export function ruleBodyOf(form: RuleForm, userIds: number[]): { body: AlertRuleBody } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const number = (field: keyof RuleForm, text: string, message: string): number | null => {
    if (text.trim() === "") return null;
    const v = Number(text.trim().replace(",", "."));
    if (!Number.isFinite(v)) errors[field] = message;
    return Number.isFinite(v) ? v : null;
  };
  let threshold: number | null = null;
  if (form.condition !== "outside_band" && form.threshold.trim() !== "") {
    threshold = parseRate(form.threshold);
    if (threshold === null) errors.threshold = "Enter a number, optionally with k, M, G or T (1.5G is 1,500,000,000).";
  }
  const minutes = number("minDuration", form.minDuration, "The minimum duration is a number of minutes from 0 to 1440.");
  const minDurationSeconds = minutes === null ? 0 : Math.round(minutes * 60);
  if (minutes !== null && (minDurationSeconds < 0 || minDurationSeconds > 86_400))
    errors.minDuration = "The minimum duration is a number of minutes from 0 to 1440.";
  const percent = number("hysteresis", form.hysteresis, "The hysteresis is a percentage from 0 up to (not including) 100.");
  if (percent !== null && (percent < 0 || percent >= 100))
    errors.hysteresis = "The hysteresis is a percentage from 0 up to (not including) 100.";
  const bandFactor =
    form.condition === "outside_band"
      ? number("bandFactor", form.bandFactor, "The band factor is a number above 0 and at most 100.")
      : null;
  if (Object.keys(errors).length) return { errors };
  const parsed = alertRuleBodySchema.safeParse({
    name: form.name,
    view: { dimension: form.dimension, filter: lines(form.filter), ipVersion: form.ipVersion, value: form.value.trim() || null },
    metric: form.metric,
    condition: form.condition,
    threshold,
    bandFactor,
    minDurationSeconds,
    hysteresis: (percent ?? 0) / 100,
    severity: (ALERT_SEVERITIES as readonly string[]).includes(form.severity) ? form.severity : form.severity || "warning",
    recipients: {
      userIds,
      groupIds: form.groups.map(Number),
      emails: lines(form.emails),
      webhook: form.webhook === "main" || form.webhook === "test" ? form.webhook : form.webhook ? form.webhook : null,
    },
    enabled: form.enabled,
  });
  if (parsed.success) return { body: parsed.data };
  for (const issue of parsed.error.issues) {
    const field = fieldOf(issue.path);
    errors[field] ??= issue.code === "invalid_value" || issue.code === "invalid_type" ? "Choose one of the offered values." : issue.message;
  }
  return { errors };
}

/** The e-mail addresses of the `users` field, to be found as accounts. */
export const userEmailsOf = (form: RuleForm) => lines(form.users).map((e) => e.toLowerCase());
