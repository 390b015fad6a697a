/**
 * Tokens of the nfdump filter language. Words are runs of the characters that addresses, numbers,
 * ranges and keywords are made of ("10.0.0.0/8", "2001:db8::1", "1k", "1024-2047", "proto"), read
 * by a single pass over the text without regular expressions, so hostile input costs linear time.
 * What a word means (a keyword, a number, an address) is decided by the parser from its place.
 */
import { NfdumpFilterError } from "./errors";

export type TokenKind = "word" | "cmp" | "and" | "or" | "not" | "(" | ")" | "[" | "]" | "," | "end";

export type Token = {
  kind: TokenKind;
  /** The text as typed; for `cmp` the operator normalised to =, <, >, <=, >=. */
  text: string;
  /** 1-based column of the token's first character. */
  column: number;
};

const isWordChar = (c: string) =>
  (c >= "a" && c <= "z") ||
  (c >= "A" && c <= "Z") ||
  (c >= "0" && c <= "9") ||
  c === "_" ||
  c === "." ||
  c === ":" ||
  c === "/" ||
  c === "-";

const PUNCTUATION: Record<string, TokenKind> = { "(": "(", ")": ")", "[": "[", "]": "]", ",": "," };

/** nfdump's word operators (case does not matter, as for every keyword of the language). */
const WORD_OPERATORS: Record<string, TokenKind> = { and: "and", or: "or", not: "not" };

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const column = i + 1;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
      continue;
    }
    if (PUNCTUATION[c]) {
      tokens.push({ kind: PUNCTUATION[c], text: c, column });
      i++;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === "&&" || two === "||") {
      tokens.push({ kind: two === "&&" ? "and" : "or", text: two, column });
      i += 2;
      continue;
    }
    if (two === "<=" || two === ">=" || two === "==") {
      tokens.push({ kind: "cmp", text: two === "==" ? "=" : two, column });
      i += 2;
      continue;
    }
    if (c === "<" || c === ">" || c === "=") {
      tokens.push({ kind: "cmp", text: c, column });
      i++;
      continue;
    }
    if (c === "!") {
      tokens.push({ kind: "not", text: c, column });
      i++;
      continue;
    }
    if (c === "&" || c === "|") {
      throw new NfdumpFilterError("syntax", `Expected "${c}${c}" at column ${column}`, column, [`"${c}${c}"`]);
    }
    if (isWordChar(c)) {
      let j = i;
      while (j < text.length && isWordChar(text[j])) j++;
      const word = text.slice(i, j);
      tokens.push({ kind: WORD_OPERATORS[word.toLowerCase()] ?? "word", text: word, column });
      i = j;
      continue;
    }
    throw new NfdumpFilterError("syntax", `Unexpected character ${JSON.stringify(c)} at column ${column}`, column);
  }
  tokens.push({ kind: "end", text: "", column: text.length + 1 });
  return tokens;
}
