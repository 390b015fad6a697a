/**
 * The nfdump filter language (app/features/filter/nfdump): each primitive of the subset parsed to
 * its tree and built to its exact WHERE fragment and parameters (golden, decision 008), nfdump's
 * precedence, and every kind of bad input answered with the error naming its column and the
 * expected tokens. The meaning of the SQL on the engine is checked in
 * tests/integration/nfdump-filter-property.test.ts.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostileString } from "../helpers/hostile-input";
import {
  MAX_EXPRESSION_LENGTH,
  MAX_NESTING_DEPTH,
  NfdumpFilterError,
  compileNfdumpFilter,
  nfdumpWhere,
  parseNfdumpFilter,
  parseNfdumpNumber,
  type NfdumpNode,
} from "~/features/filter/nfdump";

function ast(text: string): NfdumpNode {
  const parsed = parseNfdumpFilter(text);
  if (!parsed.ok) throw new Error(`unexpected error: ${parsed.error.message}`);
  return parsed.ast;
}

function built(text: string) {
  const compiled = compileNfdumpFilter(text);
  if (!compiled.ok) throw new Error(`unexpected error: ${compiled.error.message}`);
  return { sql: compiled.sql, params: compiled.params };
}

function failure(text: string): NfdumpFilterError {
  const parsed = parseNfdumpFilter(text);
  if (parsed.ok) throw new Error(`expected an error for ${text}`);
  expect(parsed.error).toBeInstanceOf(NfdumpFilterError);
  return parsed.error;
}

describe("proto", () => {
  it("takes names and numbers", () => {
    expect(ast("proto tcp")).toEqual({ type: "proto", protocol: 6 });
    expect(ast("PROTO UDP")).toEqual({ type: "proto", protocol: 17 });
    expect(ast("proto icmp")).toEqual({ type: "proto", protocol: 1 });
    expect(ast("proto icmp6")).toEqual({ type: "proto", protocol: 58 });
    expect(ast("proto ipv6-icmp")).toEqual({ type: "proto", protocol: 58 });
    expect(ast("proto gre")).toEqual({ type: "proto", protocol: 47 });
    expect(ast("proto esp")).toEqual({ type: "proto", protocol: 50 });
    expect(ast("proto 89")).toEqual({ type: "proto", protocol: 89 });
    expect(ast("proto 0x11")).toEqual({ type: "proto", protocol: 17 });
    expect(built("proto tcp")).toEqual({ sql: "(protocol = {nf0:UInt8})", params: { nf0: 6 } });
  });

  it("refuses unknown names and numbers above 255", () => {
    const unknown = failure("proto foo");
    expect(unknown.message).toBe('Expected a protocol name or number (0–255) after "proto" at column 7, found "foo"');
    expect(unknown.column).toBe(7);
    expect(unknown.code).toBe("syntax");
    expect(failure("proto 256").column).toBe(7);
    expect(failure("proto").message).toBe(
      'Expected a protocol name or number (0–255) after "proto" at column 6, found the end of the expression',
    );
  });
});

describe("addresses", () => {
  it("ip / host: either side, one side, IPv4 stored IPv4-mapped", () => {
    expect(ast("ip 192.0.2.1")).toEqual({ type: "address", field: "either", networks: [{ version: 4, address: "192.0.2.1", length: 32 }] });
    expect(ast("host 192.0.2.1")).toEqual(ast("ip 192.0.2.1"));
    expect(built("src ip 192.0.2.1")).toEqual({ sql: "(src_addr = {nf0:IPv6})", params: { nf0: "::ffff:192.0.2.1" } });
    expect(built("dst host 2001:db8::1")).toEqual({ sql: "(dst_addr = {nf0:IPv6})", params: { nf0: "2001:db8::1" } });
    expect(built("ip 192.0.2.1")).toEqual({
      sql: "((src_addr = {nf0:IPv6}) OR (dst_addr = {nf0:IPv6}))",
      params: { nf0: "::ffff:192.0.2.1" },
    });
  });

  it("an IPv4-mapped address is the IPv4 address it stores", () => {
    expect(ast("ip ::ffff:192.0.2.1")).toEqual(ast("ip 192.0.2.1"));
    expect(ast("net ::ffff:10.0.0.0/104")).toEqual(ast("net 10.0.0.0/8"));
  });

  it("net: containment as a range of the column; IPv4 networks span mapped addresses only", () => {
    expect(ast("src net 10.1.2.3/16")).toEqual({
      type: "address",
      field: "src",
      networks: [{ version: 4, address: "10.1.0.0", length: 16 }],
    });
    expect(built("dst net 198.51.100.0/24")).toEqual({
      sql: "(dst_addr BETWEEN {nf0:IPv6} AND {nf1:IPv6})",
      params: { nf0: "::ffff:198.51.100.0", nf1: "::ffff:198.51.100.255" },
    });
    expect(built("net 0.0.0.0/0")).toEqual({
      sql: "((src_addr BETWEEN {nf0:IPv6} AND {nf1:IPv6}) OR (dst_addr BETWEEN {nf0:IPv6} AND {nf1:IPv6}))",
      params: { nf0: "::ffff:0.0.0.0", nf1: "::ffff:255.255.255.255" },
    });
    expect(built("src net 2001:db8::/32")).toEqual({
      sql: "(src_addr BETWEEN {nf0:IPv6} AND {nf1:IPv6})",
      params: { nf0: "2001:db8::", nf1: "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff" },
    });
  });

  it("an IPv6 network over the mapped range leaves IPv4 rows out", () => {
    expect(built("src net ::/0")).toEqual({
      sql: "(src_addr BETWEEN {nf0:IPv6} AND {nf1:IPv6} AND NOT (src_addr BETWEEN toIPv6('::ffff:0.0.0.0') AND toIPv6('::ffff:255.255.255.255')))",
      params: { nf0: "::", nf1: "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff" },
    });
  });

  it("nfdump's netmask form for IPv4", () => {
    expect(ast("net 172.16.0.0 255.240.0.0")).toEqual(ast("net 172.16.0.0/12"));
    const bad = failure("net 10.0.0.0 255.0.255.0");
    expect(bad.message).toBe('Expected a contiguous netmask (255.255.255.0) after "10.0.0.0" at column 14, found "255.0.255.0"');
  });

  it("lists of addresses and prefixes, space or comma separated", () => {
    expect(ast("dst ip in [192.0.2.1, 10.0.0.0/8 2001:db8::/48]")).toEqual({
      type: "address",
      field: "dst",
      networks: [
        { version: 4, address: "192.0.2.1", length: 32 },
        { version: 4, address: "10.0.0.0", length: 8 },
        { version: 6, address: "2001:db8::", length: 48 },
      ],
    });
    expect(built("src ip in [192.0.2.1 10.0.0.0/8]")).toEqual({
      sql: "((src_addr = {nf0:IPv6}) OR (src_addr BETWEEN {nf1:IPv6} AND {nf2:IPv6}))",
      params: { nf0: "::ffff:192.0.2.1", nf1: "::ffff:10.0.0.0", nf2: "::ffff:10.255.255.255" },
    });
  });

  it("router ip is the exporter, next ip the next hop", () => {
    expect(built("router ip 192.0.2.254")).toEqual({ sql: "(exporter_address = {nf0:IPv6})", params: { nf0: "::ffff:192.0.2.254" } });
    expect(built("next ip 2001:db8::fe")).toEqual({ sql: "(next_hop = {nf0:IPv6})", params: { nf0: "2001:db8::fe" } });
    expect(ast("next ip 10.0.0.0/8")).toEqual({
      type: "address",
      field: "next",
      networks: [{ version: 4, address: "10.0.0.0", length: 8 }],
    });
  });

  it("refuses what is no address, naming the column", () => {
    const bad = failure("proto tcp and src ip 300.1.1.1");
    expect(bad.message).toBe('Expected an IPv4 or IPv6 address or "in" after "ip" at column 22, found "300.1.1.1"');
    expect(bad.expected).toEqual(["an IPv4 or IPv6 address", '"in"']);
    expect(failure("net 10.0.0.0/33").column).toBe(5);
    expect(failure("router 10.0.0.1").message).toBe('Expected "ip" after "router" at column 8, found "10.0.0.1"');
    expect(failure("ip in [10.0.0.1").message).toBe(
      'Expected an IPv4 or IPv6 address or prefix or "]" after "10.0.0.1" at column 16, found the end of the expression',
    );
  });
});

describe("ports", () => {
  it("every comparator, with nfdump's words", () => {
    const cases: [string, string][] = [
      ["port 80", "="],
      ["port = 80", "="],
      ["port == 80", "="],
      ["port eq 80", "="],
      ["port < 80", "<"],
      ["port lt 80", "<"],
      ["port > 80", ">"],
      ["port gt 80", ">"],
      ["port <= 80", "<="],
      ["port le 80", "<="],
      ["port >= 80", ">="],
      ["port GE 80", ">="],
    ];
    for (const [text, op] of cases) expect(ast(text)).toEqual({ type: "port", field: "either", match: { kind: "compare", op, value: 80 } });
    expect(built("dst port > 1023")).toEqual({ sql: "(dst_port > {nf0:UInt16})", params: { nf0: 1023 } });
    expect(built("port 53")).toEqual({ sql: "((src_port = {nf0:UInt16}) OR (dst_port = {nf0:UInt16}))", params: { nf0: 53 } });
  });

  it("ranges and lists", () => {
    expect(ast("src port 1024-2047")).toEqual({ type: "port", field: "src", match: { kind: "range", low: 1024, high: 2047 } });
    expect(built("src port 1024-2047")).toEqual({
      sql: "(src_port BETWEEN {nf0:UInt16} AND {nf1:UInt16})",
      params: { nf0: 1024, nf1: 2047 },
    });
    expect(ast("dst port in [80 443, 8000-8100]")).toEqual({
      type: "port",
      field: "dst",
      match: {
        kind: "list",
        items: [
          { low: 80, high: 80 },
          { low: 443, high: 443 },
          { low: 8000, high: 8100 },
        ],
      },
    });
    expect(built("dst port in [80 443 80 8000-8100]")).toEqual({
      sql: "(dst_port IN {nf0:Array(UInt16)} OR dst_port BETWEEN {nf1:UInt16} AND {nf2:UInt16})",
      params: { nf0: [80, 443], nf1: 8000, nf2: 8100 },
    });
  });

  it("refuses a missing, non-numeric or out-of-range port and a reversed range", () => {
    expect(failure("proto tcp and port").message).toBe(
      'Expected a port number (0–65535) after "port" at column 19, found the end of the expression',
    );
    const named = failure("dst port http");
    expect(named.column).toBe(10);
    expect(named.expected).toEqual(["a port number (0–65535)"]);
    expect(failure("port 65536").column).toBe(6);
    expect(failure("port > -1").column).toBe(8);
    const reversed = failure("port 2000-1000");
    expect(reversed.message).toBe("The range 2000-1000 at column 6 ends below its start");
    expect(failure("port in []").message).toBe('Expected a port number (0–65535) after "[" at column 10, found "]"');
    expect(failure("port in 80").message).toBe('Expected "[" after "in" at column 9, found "80"');
  });
});

describe("AS numbers", () => {
  it("as / src as / dst as / prev as / next as, with comparators and lists", () => {
    expect(built("as 64500")).toEqual({ sql: "((as_src = {nf0:Int64}) OR (as_dst = {nf0:Int64}))", params: { nf0: 64500 } });
    expect(built("src as 15169")).toEqual({ sql: "(as_src = {nf0:Int64})", params: { nf0: 15169 } });
    expect(built("dst as >= 4200000000")).toEqual({ sql: "(as_dst >= {nf0:Int64})", params: { nf0: 4200000000 } });
    // Special values (Others -101, Not routable -1, Untracked -999) are negative: no AS number, below none.
    expect(built("src as < 100")).toEqual({ sql: "(as_src >= 0 AND as_src < {nf0:Int64})", params: { nf0: 100 } });
    expect(built("src as le 100")).toEqual({ sql: "(as_src >= 0 AND as_src <= {nf0:Int64})", params: { nf0: 100 } });
    expect(built("prev as 3356")).toEqual({ sql: "(as_hnd = {nf0:Int64})", params: { nf0: 3356 } });
    expect(built("next as in [174 1299]")).toEqual({ sql: "(as_nxt IN {nf0:Array(Int64)})", params: { nf0: [174, 1299] } });
    expect(ast("prev as in [64512-65534]")).toEqual({
      type: "as",
      field: "prev",
      match: { kind: "list", items: [{ low: 64512, high: 65534 }] },
    });
  });

  it("refuses numbers outside 32 bits and words after prev / next", () => {
    expect(failure("src as 4294967296").message).toBe('Expected an AS number (0–4294967295) after "as" at column 8, found "4294967296"');
    expect(failure("prev port 80").message).toBe('Expected "as" after "prev" at column 6, found "port"');
    expect(failure("next 80").expected).toEqual(['"as"', '"ip"']);
  });
});

describe("flags", () => {
  it("TCP records with all listed flags set, letters in any order and case", () => {
    expect(ast("flags S")).toEqual({ type: "flags", mask: 2, exact: false });
    expect(ast("flags SA")).toEqual({ type: "flags", mask: 18, exact: false });
    expect(ast("flags as")).toEqual({ type: "flags", mask: 18, exact: false });
    expect(ast("flags UAPRSF")).toEqual({ type: "flags", mask: 63, exact: false });
    expect(ast("flags X")).toEqual({ type: "flags", mask: 63, exact: false });
    expect(ast("flags EC")).toEqual({ type: "flags", mask: 192, exact: false });
    expect(built("flags RA")).toEqual({ sql: "(protocol = 6 AND bitAnd(tcp_flags, {nf0:UInt8}) = {nf0:UInt8})", params: { nf0: 20 } });
  });

  it("=letters: exactly those flags", () => {
    expect(ast("flags =S")).toEqual({ type: "flags", mask: 2, exact: true });
    expect(ast("flags = SA")).toEqual({ type: "flags", mask: 18, exact: true });
    expect(built("flags =S")).toEqual({ sql: "(protocol = 6 AND tcp_flags = {nf0:UInt8})", params: { nf0: 2 } });
  });

  it("refuses other letters", () => {
    const bad = failure("flags SYN");
    expect(bad.column).toBe(7);
    expect(bad.expected).toEqual(["TCP flag letters (U, A, P, R, S, F, E, C; X for UAPRSF)"]);
  });
});

describe("interfaces", () => {
  it("in if / out if / if read the record's ifIndexes", () => {
    expect(built("in if 3")).toEqual({ sql: "(in_if_index = {nf0:UInt32})", params: { nf0: 3 } });
    expect(built("out if 12")).toEqual({ sql: "(out_if_index = {nf0:UInt32})", params: { nf0: 12 } });
    expect(built("if 7")).toEqual({ sql: "((in_if_index = {nf0:UInt32}) OR (out_if_index = {nf0:UInt32}))", params: { nf0: 7 } });
    expect(ast("in if in [1 2]")).toEqual({
      type: "interface",
      field: "in",
      match: {
        kind: "list",
        items: [
          { low: 1, high: 1 },
          { low: 2, high: 2 },
        ],
      },
    });
  });

  it("refuses a missing index and out counters", () => {
    expect(failure("in if").message).toBe(
      'Expected an interface index (0–4294967295) after "if" at column 6, found the end of the expression',
    );
    expect(failure("in 3").expected).toEqual(['"if"', '"bytes"', '"packets"']);
    const out = failure("out bytes > 1");
    expect(out.code).toBe("unsupported");
    expect(out.message).toBe('"out" is not supported at column 1: raw flow records carry one direction\'s counters only');
  });
});

describe("counters", () => {
  it("bytes and packets scaled by the sampling rate, with k / m / g / t as powers of 1000", () => {
    expect(ast("bytes > 1k")).toEqual({ type: "counter", field: "bytes", match: { kind: "compare", op: ">", value: 1000 } });
    expect(ast("bytes > 1K")).toEqual(ast("bytes > 1000"));
    expect(ast("packets >= 2m")).toEqual({ type: "counter", field: "packets", match: { kind: "compare", op: ">=", value: 2_000_000 } });
    expect(ast("bytes < 3G")).toEqual({ type: "counter", field: "bytes", match: { kind: "compare", op: "<", value: 3_000_000_000 } });
    expect(ast("bytes 1t")).toEqual({ type: "counter", field: "bytes", match: { kind: "compare", op: "=", value: 1e12 } });
    expect(ast("in bytes > 5")).toEqual(ast("bytes > 5"));
    expect(built("bytes > 1k")).toEqual({ sql: "(bytes * sampling_rate > {nf0:UInt64})", params: { nf0: 1000 } });
    expect(built("packets lt 10")).toEqual({ sql: "(packets * sampling_rate < {nf0:UInt64})", params: { nf0: 10 } });
  });

  it("bpp is bytes per packet of the record (0 without packets)", () => {
    expect(built("bpp > 1400")).toEqual({ sql: "(if(packets = 0, 0, intDiv(bytes, packets)) > {nf0:UInt64})", params: { nf0: 1400 } });
  });

  it("bps and pps are refused: the records keep no duration", () => {
    const bps = failure("proto tcp and bps > 1m");
    expect(bps.code).toBe("unsupported");
    expect(bps.column).toBe(15);
    expect(bps.message).toBe('"bps" is not supported at column 15: raw flow records keep no flow duration to divide by');
    expect(failure("pps > 10").column).toBe(1);
  });

  it("numbers: decimal, hex, scaled; nothing else", () => {
    expect(parseNfdumpNumber("42", false)).toBe(42);
    expect(parseNfdumpNumber("0x2A", false)).toBe(42);
    expect(parseNfdumpNumber("1k", false)).toBeNull();
    expect(parseNfdumpNumber("1k", true)).toBe(1000);
    expect(parseNfdumpNumber("k", true)).toBeNull();
    expect(parseNfdumpNumber("0x", true)).toBeNull();
    expect(parseNfdumpNumber("1.5k", true)).toBeNull();
    expect(parseNfdumpNumber("9007199254740993", true)).toBeNull();
    expect(failure("bytes > 1x").message).toBe('Expected a number (with an optional k, m, g or t) after ">" at column 9, found "1x"');
  });
});

describe("ip version and any", () => {
  it("ipv4 / ipv6 read ip_version; any and the blank expression match every row", () => {
    expect(built("ipv6")).toEqual({ sql: "(ip_version = {nf0:UInt8})", params: { nf0: 6 } });
    expect(built("any")).toEqual({ sql: "1", params: {} });
    expect(ast("   ")).toEqual({ type: "any" });
    expect(nfdumpWhere({ type: "any" })).toEqual({ sql: "1", params: {} });
  });
});

describe("operators and precedence", () => {
  const p80: NfdumpNode = { type: "port", field: "either", match: { kind: "compare", op: "=", value: 80 } };
  const tcp: NfdumpNode = { type: "proto", protocol: 6 };
  const udp: NfdumpNode = { type: "proto", protocol: 17 };

  it("not binds tighter than and, and tighter than or", () => {
    expect(ast("proto tcp or proto udp and port 80")).toEqual({ type: "or", operands: [tcp, { type: "and", operands: [udp, p80] }] });
    expect(ast("not proto tcp and port 80")).toEqual({ type: "and", operands: [{ type: "not", operand: tcp }, p80] });
    expect(ast("not (proto tcp and port 80)")).toEqual({ type: "not", operand: { type: "and", operands: [tcp, p80] } });
    expect(ast("(proto tcp or proto udp) and port 80")).toEqual({ type: "and", operands: [{ type: "or", operands: [tcp, udp] }, p80] });
  });

  it("symbols and words are the same operators, chains are flat", () => {
    expect(ast("proto tcp && port 80 || !proto udp")).toEqual(ast("proto tcp and port 80 or not proto udp"));
    expect(ast("proto tcp or proto udp or port 80")).toEqual({ type: "or", operands: [tcp, udp, p80] });
    expect(ast("PROTO TCP AND NOT PORT 80")).toEqual({ type: "and", operands: [tcp, { type: "not", operand: p80 }] });
  });

  it("builds nested SQL with one parameter per value", () => {
    expect(built("src net 10.0.0.0/8 and not (dst port 22 or proto udp)")).toEqual({
      sql: "((src_addr BETWEEN {nf0:IPv6} AND {nf1:IPv6}) AND NOT ((dst_port = {nf2:UInt16}) OR (protocol = {nf3:UInt8})))",
      params: { nf0: "::ffff:10.0.0.0", nf1: "::ffff:10.255.255.255", nf2: 22, nf3: 17 },
    });
    expect(compileNfdumpFilter("proto tcp", { paramPrefix: "q_" })).toMatchObject({ sql: "(protocol = {q_0:UInt8})", params: { q_0: 6 } });
  });

  it("names the column of every syntax error", () => {
    expect(failure("proto tcp port 80").message).toBe('Expected "and" or "or" after "tcp" at column 11, found "port"');
    expect(failure("(proto tcp").message).toBe('Expected "and", "or" or ")" after "tcp" at column 11, found the end of the expression');
    expect(failure("proto tcp)").column).toBe(10);
    expect(failure("proto tcp and").column).toBe(14);
    expect(failure("proto tcp and and port 80").column).toBe(15);
    expect(failure("not").column).toBe(4);
    expect(failure("proto tcp & port 80").message).toBe('Expected "&&" at column 11');
    expect(failure("port 80 ; drop table").message).toBe('Unexpected character ";" at column 9');
    expect(failure("port 80 and 'x'").message).toBe('Unexpected character "\'" at column 13');
    const unknown = failure("proto tcp and foo 1");
    expect(unknown.column).toBe(15);
    expect(unknown.message).toBe(
      'Expected a filter primitive (proto, ip, host, net, port, as, flags, if, router ip, next ip, bytes, packets, bpp, icmp-type, icmp-code, ipv4, ipv6, any, with src, dst, prev, next, in or out), "not" or "(" after "and" at column 15, found "foo"',
    );
    expect(failure(")").expected).toEqual([expect.stringMatching(/^a filter primitive/), '"not"', '"("']);
    expect(failure(")").message).toMatch(/^Expected a filter primitive .*, "not" or "\(" at column 1, found "\)"$/);
    expect(failure("src foo").expected).toEqual(['"ip"', '"host"', '"net"', '"port"', '"as"']);
  });

  it("names nfdump primitives outside the subset as unsupported", () => {
    for (const [text, column] of [
      ["vlan 10", 1],
      ["proto tcp and src mask 24", 19],
      ["duration > 100", 1],
      ["not tos 0", 5],
      ["bgp next ip 10.0.0.1", 1],
    ] as const) {
      const error = failure(text);
      expect(error.code).toBe("unsupported");
      expect(error.column).toBe(column);
    }
  });
});

describe("limits", () => {
  it("refuses an expression over the length limit with its own message", () => {
    const text = "port 80 or ".repeat(400) + "port 80";
    expect(text.length).toBeGreaterThan(MAX_EXPRESSION_LENGTH);
    const error = failure(text);
    expect(error.code).toBe("tooLong");
    expect(error.column).toBe(MAX_EXPRESSION_LENGTH + 1);
    expect(error.message).toBe(
      `The filter expression is ${text.length} characters long; at most ${MAX_EXPRESSION_LENGTH} are allowed (column ${MAX_EXPRESSION_LENGTH + 1} is past the limit)`,
    );
  });

  it("accepts a long flat chain within the limit (chains are not nesting)", () => {
    const text = Array.from({ length: 300 }, (_, i) => `port ${i}`).join(" or ");
    expect(text.length).toBeLessThanOrEqual(MAX_EXPRESSION_LENGTH);
    const tree = ast(text);
    expect(tree.type === "or" && tree.operands.length).toBe(300);
  });

  it("refuses nesting deeper than the limit, naming the first token past it", () => {
    const ok = "(".repeat(MAX_NESTING_DEPTH) + "port 80" + ")".repeat(MAX_NESTING_DEPTH);
    expect(ast(ok)).toEqual({ type: "port", field: "either", match: { kind: "compare", op: "=", value: 80 } });
    const deep = "(".repeat(MAX_NESTING_DEPTH + 1) + "port 80" + ")".repeat(MAX_NESTING_DEPTH + 1);
    const error = failure(deep);
    expect(error.code).toBe("tooDeep");
    expect(error.column).toBe(MAX_NESTING_DEPTH + 1);
    expect(error.message).toBe(
      `The filter expression nests more than ${MAX_NESTING_DEPTH} parentheses and negations deep at column ${MAX_NESTING_DEPTH + 1}`,
    );
    const negations = "not ".repeat(MAX_NESTING_DEPTH + 1) + "port 80";
    expect(failure(negations)).toMatchObject({ code: "tooDeep", column: 4 * MAX_NESTING_DEPTH + 1 });
  });
});

describe("hostile input", () => {
  it("any text parses or fails with the typed error, never anything else", () => {
    const pieces = fc.constantFrom(
      "port",
      "in",
      "[",
      "]",
      "(",
      ")",
      "not",
      "!",
      "and",
      "||",
      "src",
      "ip",
      "net",
      "10.0.0.0/8",
      "80",
      "1k",
      ">=",
      "flags",
      "as",
      ",",
      "-",
    );
    const text = fc.oneof(
      hostileString,
      fc.array(pieces, { maxLength: 30 }).map((p) => p.join(" ")),
      fc.array(pieces, { maxLength: 30 }).map((p) => p.join("")),
    );
    fc.assert(
      fc.property(text, (t) => {
        const result = compileNfdumpFilter(t);
        if (result.ok) return typeof result.sql === "string";
        expect(result.error).toBeInstanceOf(NfdumpFilterError);
        expect(result.error.column).toBeGreaterThanOrEqual(1);
        expect(result.error.column).toBeLessThanOrEqual(Math.min(t.length, MAX_EXPRESSION_LENGTH) + 1);
        expect(result.error.message).toContain(`column ${result.error.column}`);
        return true;
      }),
      { numRuns: 500 },
    );
  });
});

describe("docs/rna.md", () => {
  const whole = readFileSync(new URL("../../docs/rna.md", import.meta.url), "utf8");
  // The filter language's own section: the other sections' tables hold columns and parameters, not expressions.
  const from = whole.indexOf("## Filter expressions (nfdump language)");
  const doc = whole.slice(from, whole.indexOf("\n## ", from + 1) < 0 ? undefined : whole.indexOf("\n## ", from + 1));

  it("every example expression of the documentation parses", () => {
    const block = /More examples:\n\n```\n([\s\S]*?)```/.exec(doc);
    const examples = block ? block[1].trim().split("\n") : [];
    expect(examples.length).toBeGreaterThanOrEqual(5);
    const inTable = [...doc.matchAll(/^\|[^\n]*\| ([^|\n]*) \|$/gm)].flatMap((m) => [...m[1].matchAll(/`([^`]+)`/g)].map((e) => e[1]));
    expect(inTable.length).toBeGreaterThan(20);
    for (const text of [...examples, ...inTable]) {
      const parsed = parseNfdumpFilter(text);
      expect(parsed.ok ? "ok" : `${text}: ${parsed.error.message}`).toBe("ok");
    }
  });

  it("states the limits the parser enforces", () => {
    expect(doc).toContain(`at most **${MAX_EXPRESSION_LENGTH} characters**`);
    expect(doc).toContain(`at most **${MAX_NESTING_DEPTH} deep**`);
  });
});
