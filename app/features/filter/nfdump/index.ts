/**
 * The nfdump filter language of the raw flow records: parse an expression (the RNA's `q`, the
 * API's `filterExpression`) and turn it into a WHERE fragment over flows_raw. docs/rna.md,
 * "Filter expressions (nfdump language)", is the user's description of the subset.
 */
import { NfdumpFilterError } from "./errors";
import { parseNfdumpFilter } from "./parser";
import { nfdumpWhere, type WhereFragment } from "./sql";
import type { NfdumpNode } from "./ast";

export type { Comparator, Network, NfdumpNode, NumberMatch } from "./ast";
export { NfdumpFilterError, type NfdumpErrorCode } from "./errors";
export { MAX_EXPRESSION_LENGTH, MAX_NESTING_DEPTH, parseNfdumpFilter, parseNfdumpNumber, type NfdumpParseResult } from "./parser";
export { nfdumpWhere, type WhereFragment } from "./sql";
export { PROTOCOL_NUMBERS } from "./protocols";

/** Parse and build in one step: the fragment with its parameters and the tree, or the error (a 400). */
export function compileNfdumpFilter(
  text: string,
  options: { paramPrefix?: string } = {},
): ({ ok: true; ast: NfdumpNode } & WhereFragment) | { ok: false; error: NfdumpFilterError } {
  const parsed = parseNfdumpFilter(text);
  if (!parsed.ok) return parsed;
  return { ok: true, ast: parsed.ast, ...nfdumpWhere(parsed.ast, options) };
}
