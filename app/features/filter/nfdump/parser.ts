/**
 * A recursive-descent parser for the subset of nfdump's filter language that flows_raw can answer
 * (docs/rna.md, "Filter expressions (nfdump language)"). Precedence as in nfdump: `not` binds
 * tighter than `and`, `and` tighter than `or`; parentheses group. Keywords are case-insensitive.
 *
 * Every failure is an NfdumpFilterError naming the 1-based column and the tokens that would have
 * been accepted there. The input is bounded before it is read (length) and while it is read
 * (nesting), so no text can make the parser, or the SQL built from its result, run away.
 */
import { formatIpAddress, networkAddress, parseIpAddress, parseNetwork, type IpVersion } from "~/lib/ip";
import type { AsField, Comparator, CounterField, InterfaceField, Network, NfdumpNode, NumberMatch, PortField } from "./ast";
import { NfdumpFilterError, listOfAlternatives } from "./errors";
import { tokenize, type Token } from "./lexer";
import { PROTOCOL_NUMBERS } from "./protocols";

/** Longest expression accepted, in characters: a URL parameter, with room for long lists. */
export const MAX_EXPRESSION_LENGTH = 4096;
/** Deepest nesting of parentheses and negations. */
export const MAX_NESTING_DEPTH = 32;

/** What may begin a term: a primitive (named by its keywords), a negation or a parenthesis. */
const TERM_EXPECTED = [
  "a filter primitive (proto, ip, host, net, port, as, flags, if, router ip, next ip, bytes, packets, bpp, icmp-type, icmp-code, ipv4, ipv6, any, with src, dst, prev, next, in or out)",
  '"not"',
  '"("',
];

/** nfdump words this subset does not implement; named as such rather than as a syntax error. */
const UNSUPPORTED = new Set([
  "ident",
  "count",
  "cnt",
  "vlan",
  "mpls",
  "mac",
  "tos",
  "fwdstat",
  "flowdir",
  "duration",
  "flows",
  "first",
  "last",
  "engine",
  "engine-type",
  "engine-id",
  "exporter",
  "observation",
  "payload",
  "asa",
  "nat",
  "xlate",
  "tun",
  "geo",
  "tz",
  "ttl",
  "min",
  "max",
  "mask",
  "icmp",
  "latency",
  "client",
  "server",
  "ingress",
  "egress",
  "pf",
  "ethertype",
  "bgp",
  "vrf",
  "ja3",
  "ja4",
]);

/** The records keep no flow duration, which nfdump divides by for these two. */
const NEEDS_DURATION = new Set(["bps", "pps"]);

const COMPARATOR_WORDS: Record<string, Comparator> = { eq: "=", lt: "<", gt: ">", le: "<=", ge: ">=" };

/** TCP flag letters (nfdump's): FIN 1, SYN 2, RST 4, PSH 8, ACK 16, URG 32, ECE 64, CWR 128. */
const FLAG_BITS: Record<string, number> = { F: 1, S: 2, R: 4, P: 8, A: 16, U: 32, E: 64, C: 128, X: 63 };

type NumberKind = { what: string; max: number; scaled: boolean };
const PORT: NumberKind = { what: "a port number (0–65535)", max: 65535, scaled: false };
const AS_NUMBER: NumberKind = { what: "an AS number (0–4294967295)", max: 4294967295, scaled: false };
const IF_INDEX: NumberKind = { what: "an interface index (0–4294967295)", max: 4294967295, scaled: false };
const ICMP_VALUE: NumberKind = { what: "an ICMP type or code (0–255)", max: 255, scaled: false };
const PROTOCOL: NumberKind = { what: "a protocol name or number (0–255)", max: 255, scaled: false };
const COUNTER: NumberKind = { what: "a number (with an optional k, m, g or t)", max: Number.MAX_SAFE_INTEGER, scaled: true };

const SCALE: Record<string, number> = { k: 1e3, m: 1e6, g: 1e9, t: 1e12 };

const isDigits = (s: string) => s.length > 0 && [...s].every((c) => c >= "0" && c <= "9");
const isHexDigits = (s: string) => s.length > 0 && [...s].every((c) => (c >= "0" && c <= "9") || (c >= "a" && c <= "f"));

/**
 * A non-negative integer as nfdump writes it: decimal, hex with 0x, and where `scaled` a decimal
 * with k, m, g or t (powers of 1000, as nfdump's scanner multiplies). Null when it is none, or
 * larger than a double holds exactly.
 */
export function parseNfdumpNumber(text: string, scaled: boolean): number | null {
  const lower = text.toLowerCase();
  let value: number;
  if (lower.startsWith("0x")) {
    if (!isHexDigits(lower.slice(2))) return null;
    value = parseInt(lower.slice(2), 16);
  } else {
    const suffix = SCALE[lower[lower.length - 1]];
    const digits = suffix && scaled ? lower.slice(0, -1) : lower;
    if (!isDigits(digits)) return null;
    value = Number(digits) * (suffix && scaled ? suffix : 1);
  }
  return Number.isSafeInteger(value) ? value : null;
}

/** A mapped address (::ffff:a.b.c.d/len ≥ 96) is the IPv4 network it stores: the project's form of IPv4. */
function toNetwork(version: IpVersion, value: bigint, length: number): Network {
  if (version === 6 && length >= 96 && value >> 32n === 0xffffn) {
    return { version: 4, address: formatIpAddress({ version: 4, value: value & 0xffffffffn }), length: length - 96 };
  }
  return { version, address: formatIpAddress({ version, value }), length };
}

/** The length of a contiguous IPv4 netmask ("255.255.255.0" → 24), or null. */
function maskLength(text: string): number | null {
  const mask = parseIpAddress(text);
  if (!mask || mask.version !== 4) return null;
  for (let length = 0; length <= 32; length++) {
    const bits = length === 0 ? 0n : ((1n << BigInt(length)) - 1n) << BigInt(32 - length);
    if (bits === mask.value) return length;
  }
  return null;
}

class Parser {
  private pos = 0;
  private depth = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  private peek(): Token {
    return this.tokens[this.pos];
  }
  private next(): Token {
    const token = this.tokens[this.pos];
    if (token.kind !== "end") this.pos++;
    return token;
  }
  private word(token: Token = this.peek()): string | null {
    return token.kind === "word" ? token.text.toLowerCase() : null;
  }

  /** A syntax error at the current token: what was expected, after which token, and what came instead. */
  private fail(expected: readonly string[], at: Token = this.peek()): never {
    const index = this.tokens.indexOf(at);
    const previous = index > 0 ? this.tokens[index - 1] : null;
    const after = previous ? ` after "${previous.text}"` : "";
    const found = at.kind === "end" ? "the end of the expression" : `"${at.text}"`;
    throw new NfdumpFilterError(
      "syntax",
      `Expected ${listOfAlternatives(expected)}${after} at column ${at.column}, found ${found}`,
      at.column,
      expected,
    );
  }

  private unsupported(token: Token, reason: string): never {
    throw new NfdumpFilterError("unsupported", `"${token.text}" is not supported at column ${token.column}: ${reason}`, token.column);
  }

  private enter(token: Token): void {
    this.depth++;
    if (this.depth > MAX_NESTING_DEPTH) {
      throw new NfdumpFilterError(
        "tooDeep",
        `The filter expression nests more than ${MAX_NESTING_DEPTH} parentheses and negations deep at column ${token.column}`,
        token.column,
      );
    }
  }

  parse(): NfdumpNode {
    if (this.peek().kind === "end") return { type: "any" };
    const node = this.parseOr();
    if (this.peek().kind !== "end") this.fail(['"and"', '"or"']);
    return node;
  }

  private parseOr(): NfdumpNode {
    const operands = [this.parseAnd()];
    while (this.peek().kind === "or") {
      this.next();
      operands.push(this.parseAnd());
    }
    return operands.length === 1 ? operands[0] : { type: "or", operands };
  }

  private parseAnd(): NfdumpNode {
    const operands = [this.parseUnary()];
    while (this.peek().kind === "and") {
      this.next();
      operands.push(this.parseUnary());
    }
    return operands.length === 1 ? operands[0] : { type: "and", operands };
  }

  private parseUnary(): NfdumpNode {
    const token = this.peek();
    if (token.kind === "not") {
      this.next();
      this.enter(token);
      const operand = this.parseUnary();
      this.depth--;
      return { type: "not", operand };
    }
    if (token.kind === "(") {
      this.next();
      this.enter(token);
      const inner = this.parseOr();
      if (this.peek().kind !== ")") this.fail(['"and"', '"or"', '")"']);
      this.next();
      this.depth--;
      return inner;
    }
    return this.parsePrimitive();
  }

  private parsePrimitive(): NfdumpNode {
    const token = this.peek();
    const word = this.word(token);
    if (word === null) this.fail(TERM_EXPECTED);
    if (UNSUPPORTED.has(word)) this.unsupported(token, "this nfdump primitive is not part of the supported subset");
    if (NEEDS_DURATION.has(word)) this.unsupported(token, "raw flow records keep no flow duration to divide by");
    this.next();
    switch (word) {
      case "any":
        return { type: "any" };
      case "ipv4":
        return { type: "ipVersion", version: 4 };
      case "ipv6":
        return { type: "ipVersion", version: 6 };
      case "proto":
        return { type: "proto", protocol: this.parseProtocol() };
      case "ip":
      case "host":
        return { type: "address", field: "either", networks: this.parseAddresses() };
      case "net":
        return { type: "address", field: "either", networks: [this.parseNet()] };
      case "port":
        return { type: "port", field: "either", match: this.parseNumberMatch(PORT) };
      case "as":
        return { type: "as", field: "either", match: this.parseNumberMatch(AS_NUMBER) };
      case "if":
        return { type: "interface", field: "either", match: this.parseNumberMatch(IF_INDEX) };
      case "flags":
        return this.parseFlags();
      case "bytes":
      case "packets":
      case "bpp":
        return this.parseCounter(word);
      case "icmp-type":
        return { type: "icmp", field: "type", match: this.parseNumberMatch(ICMP_VALUE) };
      case "icmp-code":
        return { type: "icmp", field: "code", match: this.parseNumberMatch(ICMP_VALUE) };
      case "src":
      case "dst":
        return this.parseDirected(word);
      case "prev":
      case "next":
        return this.parseAdjacent(word);
      case "router":
        this.expectWord("ip");
        return { type: "address", field: "router", networks: this.parseAddresses() };
      case "in":
      case "out":
        return this.parseInOut(word, token);
      default:
        return this.fail(TERM_EXPECTED, token);
    }
  }

  private expectWord(expected: string): void {
    if (this.word() !== expected) this.fail([`"${expected}"`]);
    this.next();
  }

  private parseDirected(direction: "src" | "dst"): NfdumpNode {
    const token = this.peek();
    const word = this.word(token);
    if (word !== null && UNSUPPORTED.has(word)) this.unsupported(token, "this nfdump primitive is not part of the supported subset");
    const field: PortField = direction;
    switch (word) {
      case "ip":
      case "host":
        this.next();
        return { type: "address", field, networks: this.parseAddresses() };
      case "net":
        this.next();
        return { type: "address", field, networks: [this.parseNet()] };
      case "port":
        this.next();
        return { type: "port", field, match: this.parseNumberMatch(PORT) };
      case "as":
        this.next();
        return { type: "as", field, match: this.parseNumberMatch(AS_NUMBER) };
      default:
        return this.fail(['"ip"', '"host"', '"net"', '"port"', '"as"']);
    }
  }

  private parseAdjacent(side: "prev" | "next"): NfdumpNode {
    const word = this.word();
    if (word === "as") {
      this.next();
      const field: AsField = side;
      return { type: "as", field, match: this.parseNumberMatch(AS_NUMBER) };
    }
    if (side === "next" && word === "ip") {
      this.next();
      return { type: "address", field: "next", networks: this.parseAddresses() };
    }
    return this.fail(side === "next" ? ['"as"', '"ip"'] : ['"as"']);
  }

  private parseInOut(side: "in" | "out", token: Token): NfdumpNode {
    const word = this.word();
    if (word === "if") {
      this.next();
      const field: InterfaceField = side;
      return { type: "interface", field, match: this.parseNumberMatch(IF_INDEX) };
    }
    if (word === "bytes" || word === "packets") {
      // A raw record counts one direction: nfdump's `in` counters are the record's own ones, its
      // `out` counters (of bidirectional records) do not exist here.
      if (side === "out") this.unsupported(token, "raw flow records carry one direction's counters only");
      this.next();
      return this.parseCounter(word);
    }
    return this.fail(side === "in" ? ['"if"', '"bytes"', '"packets"'] : ['"if"']);
  }

  private parseProtocol(): number {
    const token = this.peek();
    const word = this.word(token);
    if (word === null) this.fail([PROTOCOL.what]);
    const named = PROTOCOL_NUMBERS.get(word);
    const value = named ?? parseNfdumpNumber(word, false);
    if (value === null || value > PROTOCOL.max) this.fail([PROTOCOL.what]);
    this.next();
    return value;
  }

  /** `flags SA`: at least these flags; `flags =SA`: exactly these. Either implies TCP, as in nfdump. */
  private parseFlags(): NfdumpNode {
    const exact = this.peek().kind === "cmp" && this.peek().text === "=";
    if (exact) this.next();
    const token = this.peek();
    const word = token.kind === "word" ? token.text.toUpperCase() : null;
    const expected = "TCP flag letters (U, A, P, R, S, F, E, C; X for UAPRSF)";
    if (word === null || ![...word].every((c) => c in FLAG_BITS)) this.fail([expected]);
    this.next();
    return { type: "flags", mask: [...word].reduce((mask, c) => mask | FLAG_BITS[c], 0), exact };
  }

  private parseCounter(field: CounterField): NfdumpNode {
    const op = this.parseComparator() ?? "=";
    return { type: "counter", field, match: { kind: "compare", op, value: this.parseNumber(COUNTER) } };
  }

  private parseComparator(): Comparator | null {
    const token = this.peek();
    if (token.kind === "cmp") {
      this.next();
      return token.text as Comparator;
    }
    const word = this.word(token);
    if (word !== null && word in COMPARATOR_WORDS) {
      this.next();
      return COMPARATOR_WORDS[word];
    }
    return null;
  }

  private parseNumber(kind: NumberKind): number {
    const token = this.peek();
    const value = token.kind === "word" ? parseNfdumpNumber(token.text, kind.scaled) : null;
    if (value === null || value > kind.max) this.fail([kind.what]);
    this.next();
    return value;
  }

  /** "1024-2047" → the range; null when the word is no range. */
  private parseRange(token: Token, kind: NumberKind): { low: number; high: number } | null {
    if (token.kind !== "word") return null;
    const parts = token.text.split("-");
    if (parts.length !== 2) return null;
    const low = parseNfdumpNumber(parts[0], kind.scaled);
    const high = parseNfdumpNumber(parts[1], kind.scaled);
    if (low === null || high === null || low > kind.max || high > kind.max) return null;
    if (low > high) {
      throw new NfdumpFilterError("syntax", `The range ${token.text} at column ${token.column} ends below its start`, token.column, [
        "a range low-high",
      ]);
    }
    return { low, high };
  }

  /** `[cmp] n`, a range `a-b`, or `in [ n a-b … ]`. */
  private parseNumberMatch(kind: NumberKind): NumberMatch {
    if (this.word() === "in") {
      this.next();
      return { kind: "list", items: this.parseList(() => this.parseListNumber(kind), kind.what) };
    }
    const op = this.parseComparator();
    if (op === null) {
      const range = this.parseRange(this.peek(), kind);
      if (range) {
        this.next();
        return { kind: "range", ...range };
      }
    }
    return { kind: "compare", op: op ?? "=", value: this.parseNumber(kind) };
  }

  private parseListNumber(kind: NumberKind): { low: number; high: number } {
    const range = this.parseRange(this.peek(), kind);
    if (range) {
      this.next();
      return range;
    }
    const value = this.parseNumber(kind);
    return { low: value, high: value };
  }

  /** `[ item item, item … ]`: space or comma separated, at least one item. */
  private parseList<T>(item: () => T, what: string): T[] {
    if (this.peek().kind !== "[") this.fail(['"["']);
    this.next();
    const items = [item()];
    for (;;) {
      if (this.peek().kind === ",") this.next();
      if (this.peek().kind === "]") break;
      if (this.peek().kind === "end") this.fail([what, '"]"']);
      items.push(item());
    }
    this.next();
    return items;
  }

  /** An address or prefix after ip / host / router ip / next ip, or `in [ … ]` of them. */
  private parseAddresses(): Network[] {
    const what = "an IPv4 or IPv6 address";
    if (this.word() === "in") {
      this.next();
      return this.parseList(() => this.parseNetworkToken(what), what + " or prefix");
    }
    return [this.parseNetworkToken(what, ['"in"'])];
  }

  private parseNetworkToken(what: string, alternatives: readonly string[] = []): Network {
    const token = this.peek();
    const network = token.kind === "word" ? parseNetwork(token.text) : null;
    if (!network) this.fail([what, ...alternatives]);
    this.next();
    return toNetwork(network.version, network.value, network.length);
  }

  /** `net a.b.c.d/len`, `net 2001:db8::/32`, or nfdump's IPv4 form `net a.b.c.d 255.255.255.0`. */
  private parseNet(): Network {
    const token = this.peek();
    const network = token.kind === "word" ? parseNetwork(token.text) : null;
    if (!network) this.fail(["a network (address/length)"]);
    this.next();
    const maskToken = this.peek();
    if (network.version === 4 && !network.hasLength && maskToken.kind === "word" && parseIpAddress(maskToken.text)?.version === 4) {
      const length = maskLength(maskToken.text);
      if (length === null) this.fail(["a contiguous netmask (255.255.255.0)"]);
      this.next();
      return toNetwork(4, networkAddress(4, network.value, length), length);
    }
    return toNetwork(network.version, network.value, network.length);
  }
}

export type NfdumpParseResult = { ok: true; ast: NfdumpNode } | { ok: false; error: NfdumpFilterError };

/** The expression's syntax tree, or the error naming its column. A blank expression matches every row. */
export function parseNfdumpFilter(text: string): NfdumpParseResult {
  try {
    if (text.length > MAX_EXPRESSION_LENGTH) {
      const column = MAX_EXPRESSION_LENGTH + 1;
      throw new NfdumpFilterError(
        "tooLong",
        `The filter expression is ${text.length} characters long; at most ${MAX_EXPRESSION_LENGTH} are allowed (column ${column} is past the limit)`,
        column,
      );
    }
    return { ok: true, ast: new Parser(tokenize(text)).parse() };
  } catch (error) {
    if (error instanceof NfdumpFilterError) return { ok: false, error };
    throw error;
  }
}
