/**
 * The numeric column filters of the tool tables (spec shell §2, §5: "Numeric column filters accept
 * only > and <"). Pure and isomorphic.
 *
 * A filter is `>` or `<`, a number, an optional SI prefix and an optional unit: ">10M", "< 5 %",
 * "> 1.5G", ">2.5 Gbit/s", "<-20%". The prefixes are the decimal ones the tables format with
 * (k 1e3, M 1e6, G 1e9, T 1e12, P 1e15, E 1e18, as formatBitsPerSecond writes them); they are
 * read in either case because operators write "10m" for ten megabit — there is no milli here.
 */

const SI_FACTORS: Record<string, number> = { k: 1e3, m: 1e6, g: 1e9, t: 1e12, p: 1e15, e: 1e18 };

export type NumericFilter = { op: ">" | "<"; value: number };

export const NUMERIC_FILTER_HINT = "Use > or < and a number, e.g. >10M, <5 %, > 1.5G";

const PATTERN = /^([<>])\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*([kmgtpe])?\s*(bit\/s|bps|b\/s|%)?$/i;

/** The filter of a text; null for an empty text; "invalid" for anything else that is not `>`/`<` and a number. */
export function parseNumericFilter(text: string): NumericFilter | null | "invalid" {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const m = PATTERN.exec(trimmed);
  if (!m) return "invalid";
  const factor = m[3] ? SI_FACTORS[m[3].toLowerCase()] : 1;
  const value = Number(m[2]) * factor;
  if (!Number.isFinite(value)) return "invalid";
  return { op: m[1] as ">" | "<", value };
}

/** Whether a cell value passes the filter text; an empty or invalid text filters nothing (its input shows why). */
export function matchesNumericFilter(cellValue: unknown, text: unknown): boolean {
  const filter = parseNumericFilter(typeof text === "string" ? text : "");
  if (filter === null || filter === "invalid") return true;
  const n = typeof cellValue === "number" ? cellValue : Number(cellValue);
  if (!Number.isFinite(n)) return false;
  return filter.op === ">" ? n > filter.value : n < filter.value;
}
