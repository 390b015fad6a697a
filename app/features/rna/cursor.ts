/**
 * The keyset cursor of the RNA's pages (RnaPage.next, RnaQuery.after): the last row's order values,
 * how many rows with exactly those values the pages so far gave (records equal in every column),
 * how many rows came before (for the top-N of groups), and a signature of the query's shape, so a
 * cursor is refused by a query it does not fit rather than read against other columns. base64url
 * of JSON: opaque to clients, checked in full when read (it comes from the request).
 */
import { parseIpAddress } from "~/lib/ip";
import type { RnaSqlQuery } from "./sql";

export type Cursor = { signature: string; values: string[]; skip: number; position: number };

/** The shape a cursor belongs to: the columns, prefixes and order (not the range or filters, which a page may keep). */
export function querySignature(query: Pick<RnaSqlQuery, "columns" | "aggregation" | "sort">): string {
  const text = JSON.stringify([query.columns, query.aggregation, query.sort]);
  // FNV-1a, 32 bits: a check of fit, not of authenticity (a forged cursor only selects rows the query may read anyway).
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.signature, cursor.values, cursor.skip, cursor.position]), "utf8").toString("base64url");
}

const MAX_VALUE_LENGTH = 1000;

const INTEGER_RANGES: Record<string, readonly [bigint, bigint]> = {
  UInt8: [0n, 255n],
  UInt16: [0n, 65_535n],
  UInt32: [0n, 4_294_967_295n],
  UInt64: [0n, 18_446_744_073_709_551_615n],
  Int16: [-32_768n, 32_767n],
  Int64: [-9_223_372_036_854_775_808n, 9_223_372_036_854_775_807n],
};

/** Whether a value read from a cursor binds as `type` (so a forged one is a 400, never an engine error). */
export function fitsType(value: string, type: string): boolean {
  const range = INTEGER_RANGES[type];
  if (range) return /^-?\d{1,20}$/.test(value) && BigInt(value) >= range[0] && BigInt(value) <= range[1];
  if (type === "IPv6") return parseIpAddress(value) !== null;
  if (type === "Array(UInt32)") {
    const m = /^\[(.*)\]$/.exec(value);
    return !!m && (m[1] === "" || m[1].split(",").every((v) => fitsType(v, "UInt32")));
  }
  return type === "String";
}

/** The cursor, or "invalid" when it is malformed, of another query, or its values do not fit the query's keys. */
export function decodeCursor(text: string, signature: string, types: readonly string[]): Cursor | "invalid" {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    return "invalid";
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) return "invalid";
  const [sig, values, skip, position] = parsed as unknown[];
  if (sig !== signature || !Array.isArray(values) || values.length !== types.length) return "invalid";
  if (!values.every((v, i) => typeof v === "string" && v.length <= MAX_VALUE_LENGTH && fitsType(v, types[i]))) return "invalid";
  const count = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
  if (!count(skip) || !count(position)) return "invalid";
  return { signature: sig, values: values as string[], skip: skip as number, position: position as number };
}
