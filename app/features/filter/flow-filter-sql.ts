/**
 * The dimension filters of flows (filters.ts, resolved by filter-resolver.server.ts) as WHERE
 * conditions: one builder for every table that carries the dimension columns — the aggregates
 * flows_5m / flows_1h (features/flows/sql.ts) and the raw records flows_raw (the Raw Network
 * Analyzer), so the same filter selects the same traffic in both. Pure: text and bound parameters.
 *
 * Per dimension, positive values → IN, negated → NOT IN; dimensions ANDed; a directed dimension
 * (ingress / egress, dimensions.ts) matches only rows of its direction: a positive filter keeps
 * `direction AND key IN (...)`, a negated one removes exactly those rows. The operator's AS is the
 * parameter `operatorAsn`, needed only when `usesOperator` says so.
 */
import { DIMENSION_IDS, getDimension, type DimensionId, type Direction } from "./dimensions";
import type { FlowFilter } from "./filters";

export const DIRECTION_SQL: Record<Direction, string> = {
  INGRESS: "as_hnd != {operatorAsn:Int64}",
  EGRESS: "(as_hnd = {operatorAsn:Int64} AND as_nxt != {operatorAsn:Int64})",
};

export type FilterConditions = { conds: string[]; params: Record<string, unknown>; usesOperator: boolean };

function filterValue(dimension: DimensionId, value: string): number | string {
  if (getDimension(dimension).valueType === "Int64") {
    const n = Number(value);
    if (!Number.isSafeInteger(n)) throw new Error(`Invalid numeric filter value ${value} for ${dimension}`);
    return n;
  }
  return value;
}

/** The conditions of the filters, in catalogue order, with parameters `${prefix}${i}_in` / `_out`. */
export function dimensionFilterConditions(filters: readonly FlowFilter[], prefix = "f"): FilterConditions {
  const conds: string[] = [];
  const params: Record<string, unknown> = {};
  let usesOperator = false;
  let index = 0;
  for (const id of DIMENSION_IDS) {
    const mine = filters.filter((f) => f.dimension === id);
    if (!mine.length) continue;
    const def = getDimension(id);
    const type = `Array(${def.valueType})`;
    const dir = def.direction ? DIRECTION_SQL[def.direction] : null;
    if (dir) usesOperator = true;
    const pos = [...new Set(mine.filter((f) => !f.isNegation).map((f) => filterValue(id, f.value)))];
    const neg = [...new Set(mine.filter((f) => f.isNegation).map((f) => filterValue(id, f.value)))];
    if (pos.length) {
      const name = `${prefix}${index}_in`;
      params[name] = pos;
      conds.push(dir ? `(${dir} AND ${def.key} IN {${name}:${type}})` : `${def.key} IN {${name}:${type}}`);
    }
    if (neg.length) {
      const name = `${prefix}${index}_out`;
      params[name] = neg;
      conds.push(dir ? `NOT (${dir} AND ${def.key} IN {${name}:${type}})` : `${def.key} NOT IN {${name}:${type}}`);
    }
    index++;
  }
  return { conds, params, usesOperator };
}
