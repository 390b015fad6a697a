/**
 * Zod building blocks for input that ends up in PostgreSQL, HTTP headers or log lines, shared by
 * the endpoint contract (app/server/api/contract.server.ts) and the request schemas. PostgreSQL
 * refuses NUL in text and ids beyond its 32-bit `integer`; CR/LF in a value that reaches a header
 * or a log line would forge one. Such input is the caller's mistake: a 400 naming the field, never
 * a 500 from the store.
 */
import { z } from "zod";

/** The largest value of a PostgreSQL `integer` (serial ids). */
export const INT32_MAX = 2_147_483_647;

const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const NO_CONTROL_CHARACTERS = "must not contain control characters (such as NUL, tab or line breaks)";
export const NO_NUL = "must not contain NUL characters";
export const POSITIVE_INT32 = `must be a whole number from 1 to ${INT32_MAX}`;

export const hasControlCharacter = (text: string) => CONTROL.test(text);

/** One line of text (names, e-mail addresses, search terms): no control characters at all. */
export const singleLineText = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((text) => !CONTROL.test(text), NO_CONTROL_CHARACTERS);

/** Text that may span lines (messages, stack traces): line breaks and tabs, no other control characters. */
export const multiLineText = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((text) => !CONTROL_BUT_LINE_BREAKS.test(text), "must not contain control characters other than line breaks and tabs");

/** A row id of a PostgreSQL `integer` column as a JSON number. */
export const int32Id = z.number({ error: POSITIVE_INT32 }).int(POSITIVE_INT32).min(1, POSITIVE_INT32).max(INT32_MAX, POSITIVE_INT32);

/** The same id written as text (path and query parameters, form fields): decimal digits only. */
export const int32IdText = z
  .string({ error: POSITIVE_INT32 })
  .regex(/^[0-9]{1,10}$/, POSITIVE_INT32)
  .transform(Number)
  .pipe(int32Id);

/** A row id written in a form field or URL parameter, or null when the text is not one (so never beyond an `integer`). */
export function parseInt32Id(text: unknown): number | null {
  const parsed = int32IdText.safeParse(text);
  return parsed.success ? parsed.data : null;
}

/**
 * The fields of a decoded JSON value whose string (or key) holds a NUL character, as dotted paths
 * ("filters.0.value") in document order, at most `max` of them. Walks without recursion, so a
 * deeply nested body cannot exhaust the stack.
 */
export function fieldsWithNul(value: unknown, max = 10): string[] {
  const found: string[] = [];
  const queue: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  for (let i = 0; i < queue.length && found.length < max; i++) {
    const { value: current, path } = queue[i];
    if (typeof current === "string") {
      if (current.includes("\u0000")) found.push(path.join(".") || "(body)");
    } else if (current && typeof current === "object") {
      for (const [key, child] of Object.entries(current)) {
        if (key.includes("\u0000")) found.push([...path, key.replace(/\u0000/g, "\\0")].join("."));
        else queue.push({ value: child, path: [...path, key] });
      }
    }
  }
  return found.slice(0, max);
}

/** The first parameter whose name or value has a control character (no parameter needs one), or null. */
export function parameterWithControlCharacter(params: Iterable<[string, string | undefined]>): string | null {
  for (const [name, value] of params) {
    if (CONTROL.test(name)) return name.replace(/[\u0000-\u001f\u007f]/g, "?");
    if (value !== undefined && CONTROL.test(value)) return name;
  }
  return null;
}
