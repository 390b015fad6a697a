/**
 * The billing 95th percentile, one rule for every figure billed or planned on (the Border Planner's
 * billed 95th of a link, Revenues & Costs' bill of a contract): of the n 5-minute values present,
 * sorted ascending, the top k = floor(n/20) are dropped (the 5 % of samples a carrier forgives) and
 * the highest remaining one, sorted[n − 1 − k], is the figure. Null for no values.
 */
export function billingPercentile(values: readonly number[]): number | null {
  const n = values.length;
  if (n === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[n - 1 - Math.floor(n / 20)];
}

/**
 * The same rule in ClickHouse over an array expression and its length expression: the 1-based
 * element n − intDiv(n, 20) of the ascending sort (what billingPercentile returns).
 */
export function billingPercentileSql(arrayExpression: string, countExpression: string): string {
  return `arrayElement(arraySort(${arrayExpression}), ${countExpression} - intDiv(${countExpression}, 20))`;
}
