/**
 * AS path patterns of the Looking Glass and Control Plane (looking glass §5): empty or blank, or a
 * sequence of AS numbers, `?` and `*` separated by optional whitespace. `?` is exactly one AS,
 * `*` any number of ASes (none included), an AS number itself. The pattern matches the whole path:
 * "3356 *" is every path that starts with 3356; the empty pattern matches only empty paths
 * (routes originated by the operator's own network).
 *
 * Parsed by hand; the compiled regular expression contains only digits, spaces and our own fixed
 * tokens, so it is safe for RE2 (ClickHouse) and for JavaScript's engine alike.
 */

export type AsPathToken = { kind: "asn"; asn: number } | { kind: "one" } | { kind: "any" };

export const AS_PATH_PATTERN_ERROR =
  "Invalid AS path pattern: use AS numbers, ? for exactly one AS and * for any number of ASes, separated by spaces.";
export const MAX_ASN = 4_294_967_295;

const isDigit = (c: string) => c >= "0" && c <= "9";
const isSpace = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r";

/** Tokens of a pattern, or an error naming what is wrong. */
export function parseAsPathPattern(raw: string): { ok: true; tokens: AsPathToken[] } | { ok: false; error: string } {
  const text = raw.trim();
  const tokens: AsPathToken[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (isSpace(c)) {
      i++;
    } else if (c === "?") {
      tokens.push({ kind: "one" });
      i++;
    } else if (c === "*") {
      tokens.push({ kind: "any" });
      i++;
    } else if (isDigit(c)) {
      let j = i;
      while (j < text.length && isDigit(text[j])) j++;
      const digits = text.slice(i, j);
      const asn = Number(digits);
      if (digits.length > 10 || asn > MAX_ASN)
        return { ok: false, error: `${AS_PATH_PATTERN_ERROR} ${digits} is larger than the largest AS number (${MAX_ASN}).` };
      tokens.push({ kind: "asn", asn });
      i = j;
    } else {
      return { ok: false, error: `${AS_PATH_PATTERN_ERROR} "${c}" is not allowed.` };
    }
  }
  return { ok: true, tokens };
}

/** The canonical text of a pattern: tokens separated by single spaces ("3356*" → "3356 *"). */
export function formatAsPathPattern(tokens: AsPathToken[]): string {
  return tokens.map((t) => (t.kind === "asn" ? String(t.asn) : t.kind === "one" ? "?" : "*")).join(" ");
}

/**
 * The path as the compiled pattern reads it: each AS number followed by one space
 * ("3356 15169 "), the empty path as "". ClickHouse builds the same text with
 * `arrayStringConcat(arrayMap(a -> concat(toString(a), ' '), as_path))`.
 */
export function asPathSubject(path: readonly number[]): string {
  return path.map((asn) => `${asn} `).join("");
}

/** An anchored regular expression over asPathSubject() text. */
export function asPathRegex(tokens: AsPathToken[]): string {
  const body = tokens.map((t) => (t.kind === "asn" ? `${t.asn} ` : t.kind === "one" ? "[0-9]+ " : "(?:[0-9]+ )*")).join("");
  return `^${body}$`;
}

/** Whether a pattern matches a path (the same regex as the database query uses). */
export function matchesAsPath(tokens: AsPathToken[], path: readonly number[]): boolean {
  return new RegExp(asPathRegex(tokens)).test(asPathSubject(path));
}
