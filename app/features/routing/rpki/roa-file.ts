/**
 * Validated ROA payload files, as relying party software writes them. Pure.
 *
 * - JSON of rpki-client (`-j`) and Routinator (`--format json`, also `jsonext`):
 *   `{"roas": [{"asn": 13335 | "AS13335", "prefix": "1.1.1.0/24", "maxLength": 24, "ta": "apnic"}]}`
 *   (other members — metadata, expires, aspas, bgpsec_keys, Routinator's `source` — are ignored, but
 *   jsonext's `source[].tal` names the trust anchor when `ta` is absent);
 * - CSV of Routinator (`--format csv`, `csvcompat`) and the RIPE NCC validator: a header naming the
 *   columns `ASN`, `IP Prefix`, `Max Length` and optionally `Trust Anchor`, in any order, values
 *   quoted or not.
 *
 * Every entry is checked (AS number 0–4294967295, a prefix with its host bits clear, maxLength from
 * the prefix length to 32 or 128; an absent maxLength is the prefix length, as in a ROA, RFC 6482);
 * any bad entry refuses the whole file, naming the entry (JSON) or line (CSV) of the first problems.
 * Entries repeated within the file count once.
 */
import { ADDRESS_BITS, formatNetwork, parseIpAddress, type IpVersion } from "~/lib/ip";
import { parsePrefix } from "./roa-index";

/** A VRP of a file: the prefix in its canonical text (compressed IPv6), its family and length. */
export type FileVrp = { prefix: string; version: IpVersion; length: number; maxLength: number; asn: number; trustAnchor: string };

export type RoaFileFormat = "json" | "csv";
export const ROA_FILE_FORMAT_LABELS: Record<RoaFileFormat, string> = {
  json: "JSON (rpki-client, Routinator)",
  csv: "CSV (Routinator, RIPE validator)",
};

export type RoaFileResult =
  | { ok: true; format: RoaFileFormat; vrps: FileVrp[]; entries: number; duplicates: number }
  | { ok: false; format: RoaFileFormat | null; errors: string[]; errorCount: number };

/** Problems listed per refused file; the count says how many there were in all. */
export const MAX_LISTED_ERRORS = 20;
const MAX_TRUST_ANCHOR_LENGTH = 100;
const MAX_ASN = 4_294_967_295;

class Problems {
  readonly list: string[] = [];
  count = 0;
  add(message: string): void {
    this.count += 1;
    if (this.list.length < MAX_LISTED_ERRORS) this.list.push(message);
  }
}

/** "1.1.1.0/24" → the prefix in canonical text, or why not: a prefix needs its length and clear host bits. */
export function parseVrpPrefix(text: string): { version: IpVersion; length: number; prefix: string } | string {
  const quick = parsePrefix(text);
  if (quick) {
    const prefix = quick.version === 4 ? text : formatNetwork({ version: 6, value: quick.value, length: quick.length, hasLength: true });
    return { version: quick.version, length: quick.length, prefix };
  }
  const slash = text.indexOf("/");
  if (slash < 0) return `prefix "${text}" has no length (e.g. 192.0.2.0/24)`;
  const address = parseIpAddress(text.slice(0, slash));
  const lengthText = text.slice(slash + 1);
  if (!address) return `"${text}" is not an IPv4 or IPv6 prefix`;
  if (!/^\d{1,3}$/.test(lengthText) || Number(lengthText) > ADDRESS_BITS[address.version])
    return `prefix "${text}": the length must be 0 to ${ADDRESS_BITS[address.version]}`;
  const length = Number(lengthText);
  const bits = BigInt(ADDRESS_BITS[address.version]);
  const hostMask = (1n << (bits - BigInt(length))) - 1n;
  if ((address.value & hostMask) !== 0n) {
    const network = formatNetwork({ ...address, value: address.value & ~hostMask, length, hasLength: true });
    return `prefix "${text}" has host bits set (the network is ${network})`;
  }
  return { version: address.version, length, prefix: formatNetwork({ ...address, length, hasLength: true }) };
}

function parseAsn(value: unknown): number | string {
  let n: number;
  if (typeof value === "number") n = value;
  else if (typeof value === "string" && /^(AS)?\d{1,10}$/i.test(value.trim())) n = Number(value.trim().replace(/^AS/i, ""));
  else return `AS number ${JSON.stringify(value) ?? "missing"} is not a number or "AS" and a number`;
  if (!Number.isInteger(n) || n < 0 || n > MAX_ASN) return `AS number ${String(value)} is not from 0 to ${MAX_ASN}`;
  return n;
}

function parseMaxLength(value: unknown, prefix: { version: IpVersion; length: number }): number | string {
  if (value === undefined || value === null || value === "") return prefix.length;
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d{1,3}$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isInteger(n)) return `maxLength ${JSON.stringify(value)} is not a whole number`;
  const bits = ADDRESS_BITS[prefix.version];
  if (n < prefix.length) return `maxLength ${n} is shorter than the prefix length ${prefix.length}`;
  if (n > bits) return `maxLength ${n} is longer than an IPv${prefix.version} address (${bits})`;
  return n;
}

/** One entry's fields → a VRP, or the problem (without the entry's position: the caller adds it). Called half a million times a file. */
function toVrp(asnField: unknown, prefixField: unknown, maxLengthField: unknown, ta: unknown): FileVrp | string {
  const prefixText = typeof prefixField === "string" ? prefixField.trim() : "";
  if (!prefixText) return "the prefix is missing";
  const prefix = parseVrpPrefix(prefixText);
  if (typeof prefix === "string") return prefix;
  const asn =
    typeof asnField === "number" && Number.isInteger(asnField) && asnField >= 0 && asnField <= MAX_ASN ? asnField : parseAsn(asnField);
  if (typeof asn === "string") return asn;
  const maxLength =
    typeof maxLengthField === "number" &&
    Number.isInteger(maxLengthField) &&
    maxLengthField >= prefix.length &&
    maxLengthField <= ADDRESS_BITS[prefix.version]
      ? maxLengthField
      : parseMaxLength(maxLengthField, prefix);
  if (typeof maxLength === "string") return maxLength;
  let trustAnchor = "";
  if (ta !== undefined && ta !== null) {
    if (typeof ta !== "string") return `trust anchor ${JSON.stringify(ta)} is not text`;
    trustAnchor = ta.trim();
    if (trustAnchor.length > MAX_TRUST_ANCHOR_LENGTH) return `trust anchor is longer than ${MAX_TRUST_ANCHOR_LENGTH} characters`;
  }
  return { prefix: prefix.prefix, version: prefix.version, length: prefix.length, maxLength, asn, trustAnchor };
}

const vrpKey = (v: FileVrp) => `${v.prefix} ${v.maxLength} ${v.asn} ${v.trustAnchor}`;

function finish(format: RoaFileFormat, parsed: FileVrp[], problems: Problems, entries: number): RoaFileResult {
  if (problems.count) return { ok: false, format, errors: problems.list, errorCount: problems.count };
  if (entries === 0) return { ok: false, format, errors: ["The file holds no ROAs."], errorCount: 1 };
  const seen = new Set<string>();
  const vrps: FileVrp[] = [];
  for (const vrp of parsed) {
    const key = vrpKey(vrp);
    if (seen.has(key)) continue;
    seen.add(key);
    vrps.push(vrp);
  }
  return { ok: true, format, vrps, entries, duplicates: parsed.length - vrps.length };
}

function parseJson(text: string): RoaFileResult {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { ok: false, format: "json", errors: [`Not valid JSON: ${(error as Error).message}`], errorCount: 1 };
  }
  const roas = (document as { roas?: unknown } | null)?.roas;
  if (typeof document !== "object" || document === null || Array.isArray(document) || !Array.isArray(roas))
    return {
      ok: false,
      format: "json",
      errors: ['The JSON has no "roas" list: expected {"roas": [{"asn": …, "prefix": …, "maxLength": …, "ta": …}]}.'],
      errorCount: 1,
    };
  const problems = new Problems();
  const parsed: FileVrp[] = [];
  roas.forEach((entry: unknown, i: number) => {
    const where = `roas entry ${i + 1}`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      problems.add(`${where}: not an object`);
      return;
    }
    const e = entry as Record<string, unknown>;
    // Routinator's jsonext names the trust anchor in each source of the payload.
    const ta =
      e.ta ??
      e.tal ??
      (Array.isArray(e.source) ? (e.source as { tal?: unknown }[]).find((s) => typeof s?.tal === "string")?.tal : undefined);
    const vrp = toVrp(e.asn, e.prefix, e.maxLength ?? e.max_length, ta);
    if (typeof vrp === "string") problems.add(`${where}${typeof e.prefix === "string" ? ` (${e.prefix})` : ""}: ${vrp}`);
    else parsed.push(vrp);
  });
  return finish("json", parsed, problems, roas.length);
}

/** One CSV line's fields: comma-separated, optionally in double quotes ("" inside quotes is a quote). */
function csvFields(line: string): string[] | null {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    let field = "";
    if (line[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= line.length) return null; // unterminated quote
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        field += line[i++];
      }
      if (i < line.length && line[i] !== ",") return null;
    } else {
      const end = line.indexOf(",", i);
      field = end < 0 ? line.slice(i) : line.slice(i, end);
      i = end < 0 ? line.length : end;
    }
    fields.push(field.trim());
    if (i >= line.length) return fields;
    i += 1; // the comma
  }
}

const HEADER_NAMES: Record<string, "asn" | "prefix" | "maxLength" | "ta"> = {
  asn: "asn",
  "ip prefix": "prefix",
  prefix: "prefix",
  "max length": "maxLength",
  maxlength: "maxLength",
  max_length: "maxLength",
  "trust anchor": "ta",
  ta: "ta",
  tal: "ta",
};

function parseCsv(text: string): RoaFileResult {
  const lines = text.split(/\r?\n/);
  const problems = new Problems();
  const parsed: FileVrp[] = [];
  let columns: Partial<Record<"asn" | "prefix" | "maxLength" | "ta", number>> | null = null;
  let entries = 0;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    if (!line.trim() || line.trimStart().startsWith("#")) continue;
    const where = `line ${n + 1}`;
    const fields = csvFields(line);
    if (!fields) {
      problems.add(`${where}: a quoted value is not closed`);
      continue;
    }
    if (!columns) {
      columns = {};
      fields.forEach((name, i) => {
        const key = HEADER_NAMES[name.toLowerCase()];
        if (key && columns![key] === undefined) columns![key] = i;
      });
      if (columns.asn === undefined || columns.prefix === undefined) {
        return {
          ok: false,
          format: "csv",
          errors: [
            `${where}: expected the header "ASN,IP Prefix,Max Length,Trust Anchor" (Routinator or RIPE validator CSV), ` +
              'or a JSON file with "roas" (rpki-client, Routinator).',
          ],
          errorCount: 1,
        };
      }
      continue;
    }
    entries += 1;
    const at = (i: number | undefined) => (i === undefined ? undefined : fields[i]);
    const vrp = toVrp(at(columns.asn), at(columns.prefix), at(columns.maxLength), at(columns.ta));
    if (typeof vrp === "string") problems.add(`${where}: ${vrp}`);
    else parsed.push(vrp);
  }
  if (!columns) return { ok: false, format: null, errors: ["The file is empty."], errorCount: 1 };
  return finish("csv", parsed, problems, entries);
}

/** Reads a VRP file of either format (told apart by its first character: `{` is JSON). */
export function parseRoaFile(text: string): RoaFileResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = body.trimStart()[0];
  if (first === undefined) return { ok: false, format: null, errors: ["The file is empty."], errorCount: 1 };
  if (first === "{" || first === "[") return parseJson(body);
  if (body.includes("\u0000")) return { ok: false, format: null, errors: ["This is not a text file (JSON or CSV)."], errorCount: 1 };
  return parseCsv(body);
}

/** The refusal as one text: the problems listed, and how many more there were. */
export function roaFileErrorText(result: Extract<RoaFileResult, { ok: false }>): string {
  const more = result.errorCount - result.errors.length;
  return result.errors.join("\n") + (more > 0 ? `\n… and ${more} more problem${more === 1 ? "" : "s"}.` : "");
}
