/**
 * The alert rules' grouped read: many rules with the same range and window in one statement over
 * flows_5m. Pure: text and bound parameters, built from the flows' own condition builder
 * (filter/flow-filter-sql.ts: the same filter selects the same traffic as in the Flow Explorer).
 *
 * One row per 5-minute bucket of the range; per rule (in the order given) the bytes, packets and
 * the number of aggregate rows its conditions match (0: no data for that rule in that bucket).
 * bit/s = bytes × 8 / 300 and packets/s = packets / 300, as the Flow Explorer's timeseries.
 */
import type { Direction } from "~/features/filter/dimensions";
import { dimensionFilterConditions, DIRECTION_SQL } from "~/features/filter/flow-filter-sql";
import type { FlowFilter, IpVersion } from "~/features/filter/filters";
import type { Statement } from "~/server/clickhouse/query.server";

export const BUCKET_SECONDS = 300;
export const ALERT_QUERY_NAME = "alerts.evaluate";

/** What one rule selects: its resolved filters (the owner's restriction included), IP version and direction. */
export type RuleSelection = { filters: readonly FlowFilter[]; ipVersion: IpVersion; direction: Direction | null };

/** The WHERE of one rule (without the range), with its parameters prefixed `r<i>_`. */
function ruleCondition(rule: RuleSelection, i: number): { cond: string; params: Record<string, unknown>; usesOperator: boolean } {
  const conds: string[] = [];
  let usesOperator = false;
  if (rule.ipVersion === 4 || rule.ipVersion === 6) conds.push(`ip_version = ${rule.ipVersion}`);
  if (rule.direction) {
    conds.push(DIRECTION_SQL[rule.direction]);
    usesOperator = true;
  }
  const filtered = dimensionFilterConditions(rule.filters, `r${i}_`);
  conds.push(...filtered.conds);
  return {
    cond: conds.length ? conds.map((c) => `(${c})`).join(" AND ") : "1",
    params: filtered.params,
    usesOperator: usesOperator || filtered.usesOperator,
  };
}

export function alertBatchQuery(
  rules: readonly RuleSelection[],
  range: { start: number; end: number },
  operatorAsn: number,
): Statement & { params: Record<string, unknown> } {
  if (!rules.length) throw new Error("An alert batch needs at least one rule");
  if (range.start % BUCKET_SECONDS || range.end % BUCKET_SECONDS || range.end <= range.start)
    throw new Error("The alert range is whole 5-minute buckets");
  const params: Record<string, unknown> = { start: range.start, end: range.end };
  let usesOperator = false;
  const conds = rules.map((rule, i) => {
    const c = ruleCondition(rule, i);
    Object.assign(params, c.params);
    usesOperator ||= c.usesOperator;
    return c.cond;
  });
  if (usesOperator) {
    if (!Number.isSafeInteger(operatorAsn)) throw new Error("operatorAsn must be an integer");
    params.operatorAsn = operatorAsn;
  }
  const sql = [
    "SELECT toUInt32(time) AS bucket,",
    `  [${conds.map((c) => `toFloat64(sumIf(bytes, ${c}))`).join(", ")}] AS bytes,`,
    `  [${conds.map((c) => `toFloat64(sumIf(packets, ${c}))`).join(", ")}] AS packets,`,
    `  [${conds.map((c) => `toFloat64(countIf(${c}))`).join(", ")}] AS matched`,
    "FROM flows_5m",
    "WHERE time >= toDateTime({start:UInt32}, 'UTC') AND time < toDateTime({end:UInt32}, 'UTC')",
    "GROUP BY bucket ORDER BY bucket",
  ].join("\n");
  return { name: ALERT_QUERY_NAME, sql, params };
}
