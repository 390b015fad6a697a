/**
 * The one error of the nfdump filter language: what went wrong, where (a 1-based column of the
 * expression as typed) and which tokens would have been accepted there. The API answers it as a
 * 400 with this message; nothing in parsing or building SQL throws anything else for bad input.
 */

/**
 * - syntax: the text does not follow the grammar (a missing operand, a stray character, a bad number);
 * - unsupported: a word of nfdump's language that this subset does not implement (`vlan`, `bps` …);
 * - tooLong / tooDeep: the expression is over the length or nesting limit.
 */
export type NfdumpErrorCode = "syntax" | "unsupported" | "tooLong" | "tooDeep";

export class NfdumpFilterError extends Error {
  override readonly name = "NfdumpFilterError";
  constructor(
    readonly code: NfdumpErrorCode,
    message: string,
    /** 1-based column of the offending token (one past the end for a missing token). */
    readonly column: number,
    /** What the grammar would have accepted at that column, as people read it ("a port number", `")"`). */
    readonly expected: readonly string[] = [],
  ) {
    super(message);
  }
}

/** "a", "a or b", "a, b or c": the expected tokens of a message. */
export function listOfAlternatives(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}
