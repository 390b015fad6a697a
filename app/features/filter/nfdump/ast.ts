/**
 * The parsed form of an nfdump filter expression. `and` and `or` hold all operands of a chain
 * (`a or b or c` is one node of three), so a long chain is a flat list, never a deep tree: the
 * SQL stays within ClickHouse's parser depth and the nesting limit counts only parentheses and
 * negations, which are what a person nests.
 */
import type { IpVersion } from "~/lib/ip";

export type Comparator = "=" | "<" | ">" | "<=" | ">=";

/** A number compared, a closed range, or a list of numbers and ranges (`in [ … ]`). */
export type NumberMatch =
  | { kind: "compare"; op: Comparator; value: number }
  | { kind: "range"; low: number; high: number }
  | { kind: "list"; items: readonly { low: number; high: number }[] };

/** A network: its first address in normal form ("10.1.0.0", "2001:db8::") and its length in bits. */
export type Network = { version: IpVersion; address: string; length: number };

/** Which address a primitive reads: source, destination, either of them, the exporter, the next hop. */
export type AddressField = "src" | "dst" | "either" | "router" | "next";
export type PortField = "src" | "dst" | "either";
/** src / dst: the source and destination AS; prev / next: the adjacent ASes (handover, next hop). */
export type AsField = "src" | "dst" | "either" | "prev" | "next";
export type InterfaceField = "in" | "out" | "either";
/** bytes and packets scaled by the record's sampling rate; bpp is bytes per packet. */
export type CounterField = "bytes" | "packets" | "bpp";

export type NfdumpNode =
  | { type: "and"; operands: readonly NfdumpNode[] }
  | { type: "or"; operands: readonly NfdumpNode[] }
  | { type: "not"; operand: NfdumpNode }
  | { type: "any" }
  | { type: "ipVersion"; version: IpVersion }
  | { type: "proto"; protocol: number }
  | { type: "address"; field: AddressField; networks: readonly Network[] }
  | { type: "port"; field: PortField; match: NumberMatch }
  | { type: "as"; field: AsField; match: NumberMatch }
  | { type: "interface"; field: InterfaceField; match: NumberMatch }
  /** A TCP record with all bits of `mask` set in its flags (`exact`: with exactly those bits, nfdump's `flags =SA`). */
  | { type: "flags"; mask: number; exact: boolean }
  | { type: "counter"; field: CounterField; match: NumberMatch }
  /** An ICMP or ICMPv6 record whose type (or code) matches; records without one never match. */
  | { type: "icmp"; field: "type" | "code"; match: NumberMatch };
