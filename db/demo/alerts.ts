/**
 * The demo's alert rules (docs/alerts.md "Demo rules"): one per event of the traffic model that
 * happens inside the generated period, on the view the event changes, owned by the demo superuser
 * and telling nobody (add yourself as a recipient to try the notifications). Each is an "above"
 * rule whose threshold is set just above the view's busiest 5 minutes outside the event (before a
 * shift, which lasts to the end; before and after the outage), read from the loaded flows_5m rows
 * with the evaluator's own query, so it fires on what the event does:
 *
 * - interface outage: the transit's backup port (In-interface) takes the failed port's traffic;
 * - handover shift: the transit provider the moved AS now arrives through (Handover AS);
 * - router shift: the router the peering moved to (Ingress router).
 *
 * "Test against the last 7 days" on a rule's edit form shows when it fires (the older events lie
 * before the last 7 days; their rules keep firing at the daily peaks that follow them).
 */
import { eq } from "drizzle-orm";
import * as schema from "~db/postgres/schema";
import type { AlertRuleView } from "~db/postgres/schema";
import { readRuleSeries, ruleSelection } from "~/features/alerts/evaluate.server";
import { loadUserContext } from "~/server/auth/user-context.server";
import type { ClickhouseHandle } from "~/server/clickhouse/query.server";
import type { Db } from "~/server/postgres.server";
import type { Services } from "~/server/services.server";
import type { DemoEvent, DemoPath } from "./traffic";

type Stores = { pg: { db: Db }; ch: ClickhouseHandle };

export type DemoAlertRule = { name: string; view: AlertRuleView; severity: "info" | "warning" | "critical"; event: DemoEvent };

const ADMIN_EMAIL = "admin@flowlens.example";
/** The threshold's margin above the busiest bucket outside the event. */
const MARGIN = 1.05;

/** The paths that start at the event: where its traffic goes from then on. */
const movedPaths = (paths: readonly DemoPath[], e: DemoEvent) =>
  paths.filter((p) => p.validFrom === e.at && (e.kind === "interface-outage" ? p.asHnd === e.asn : p.asSrc === e.asn));

/** The rules' views, from the events and the paths they move (pure). */
export function demoAlertRules(events: readonly DemoEvent[], paths: readonly DemoPath[]): DemoAlertRule[] {
  const rules: DemoAlertRule[] = [];
  for (const e of events) {
    const moved = movedPaths(paths, e);
    if (!moved.length) continue;
    const p = moved.reduce((a, b) => (b.rateBps > a.rateBps ? b : a));
    const view = (dimension: string, value: string): AlertRuleView => ({ dimension, filter: [], ipVersion: "all", value });
    if (e.kind === "interface-outage")
      rules.push({
        name: `Backup port ${p.ingressRouter} ${p.inIf} of transit AS${e.asn} above its usual peak`,
        view: view("INTERFACE_IN", `${p.ingressRouter}|${p.inIf}`),
        severity: "critical",
        event: e,
      });
    else if (e.kind === "handover-shift")
      rules.push({
        name: `Transit AS${p.asHnd} above its usual peak`,
        view: view("AS_HND_INGRESS", String(p.asHnd)),
        severity: "warning",
        event: e,
      });
    // The failover and the overflow edit the finished streams (no path moves): no rule of this kind for them.
    else if (e.kind === "router-shift")
      rules.push({
        name: `Ingress router ${p.ingressRouter} above its usual peak`,
        view: view("ROUTER_IN", p.ingressRouter),
        severity: "warning",
        event: e,
      });
  }
  return rules;
}

/** Three significant digits, rounded up: a threshold people read. */
function roundUp(v: number): number {
  const scale = 10 ** (Math.floor(Math.log10(v)) - 2);
  return Math.ceil(v / scale) * scale;
}

/** Adds the demo's rules; the thresholds from the loaded flows outside each event. */
export async function seedDemoAlertRules(
  stores: Stores,
  options: { events: readonly DemoEvent[]; paths: readonly DemoPath[]; start: number; end: number; operatorAsn: number },
): Promise<DemoAlertRule[]> {
  const db = stores.pg.db;
  const [admin] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, ADMIN_EMAIL));
  const owner = admin ? await loadUserContext(db, admin.id) : null;
  if (!owner) return [];
  const added: DemoAlertRule[] = [];
  for (const rule of demoAlertRules(options.events, options.paths)) {
    const from = Math.floor(rule.event.at / 300) * 300;
    const to = rule.event.until ?? options.end;
    if (from <= options.start) continue;
    const selected = await ruleSelection(stores as unknown as Pick<Services, "pg">, owner, rule.view);
    if ("error" in selected) continue;
    const [series] = await readRuleSeries(
      stores as unknown as Pick<Services, "ch">,
      [{ selection: selected.selection, metric: "bps" }],
      { start: options.start, end: options.end },
      options.operatorAsn,
    );
    const outside = [...series].filter(([t]) => t < from || t >= to).map(([, v]) => v ?? 0);
    const peak = Math.max(0, ...outside);
    if (peak <= 0) continue;
    await db.insert(schema.alertRules).values({
      ownerId: owner.id,
      name: rule.name,
      view: rule.view,
      metric: "bps",
      conditionKind: "above",
      threshold: roundUp(peak * MARGIN),
      minDurationSeconds: 900,
      hysteresis: 0.1,
      severity: rule.severity,
      recipients: { userIds: [], groupIds: [], emails: [], webhook: null },
    });
    added.push(rule);
  }
  return added;
}
