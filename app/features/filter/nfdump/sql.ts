/**
 * An nfdump filter's syntax tree as a ClickHouse WHERE fragment over flows_raw
 * (db/clickhouse/0001_flows.sql, 0004_collector_raw.sql). Pure: text and parameters, no I/O
 * (docs/decisions/008-pure-sql-builders-with-golden-tests.md). Every value of the expression is a
 * bound {name:Type} parameter; the text holds only column names, operators and the fixed bounds
 * of the IPv4-mapped range.
 *
 * Addresses: IPv4 is stored IPv4-mapped in the IPv6 columns (::ffff:a.b.c.d). An IPv4 network is
 * the range of its mapped addresses, so it can only match IPv4 values; an IPv6 network that covers
 * the mapped range (::/0 … ::ffff:0:0/96 is IPv4 itself, see the parser) leaves it out, so it
 * matches IPv6 values only. Containment is a BETWEEN on the column, which ClickHouse compares as
 * 128-bit numbers.
 *
 * Counters: `bytes` and `packets` are the record's counters scaled by its sampling rate, the
 * traffic the record stands for, as the aggregates and the RNA's totals count it
 * (flows_5m_mv: bytes * sampling_rate). `bpp` is bytes per packet, which sampling does not change
 * (both counters scale alike); a record without packets has bpp 0, as in nfdump.
 */
import { lastAddress, networkAddress, parseIpAddress, toIpv6Column } from "~/lib/ip";
import type { AddressField, AsField, CounterField, InterfaceField, Network, NfdumpNode, NumberMatch, PortField } from "./ast";

export type WhereFragment = { sql: string; params: Record<string, unknown> };

const ADDRESS_COLUMNS: Record<AddressField, readonly string[]> = {
  src: ["src_addr"],
  dst: ["dst_addr"],
  either: ["src_addr", "dst_addr"],
  router: ["exporter_address"],
  next: ["next_hop"],
};
const PORT_COLUMNS: Record<PortField, readonly string[]> = { src: ["src_port"], dst: ["dst_port"], either: ["src_port", "dst_port"] };
/** prev: the AS that handed the traffic over (handover AS); next: the next-hop AS (docs/glossary.md). */
const AS_COLUMNS: Record<AsField, readonly string[]> = {
  src: ["as_src"],
  dst: ["as_dst"],
  either: ["as_src", "as_dst"],
  prev: ["as_hnd"],
  next: ["as_nxt"],
};
/** The record's SNMP ifIndexes, known to the inventory or not. */
const INTERFACE_COLUMNS: Record<InterfaceField, readonly string[]> = {
  in: ["in_if_index"],
  out: ["out_if_index"],
  either: ["in_if_index", "out_if_index"],
};
const COUNTER_EXPRESSIONS: Record<CounterField, string> = {
  bytes: "bytes * sampling_rate",
  packets: "packets * sampling_rate",
  bpp: "if(packets = 0, 0, intDiv(bytes, packets))",
};

/** The IPv4-mapped addresses: where IPv4 lives in the IPv6 columns. Fixed bounds, not user values. */
const MAPPED_LOW = 0xffffn << 32n;
const MAPPED_HIGH = MAPPED_LOW | 0xffffffffn;
const MAPPED_RANGE = "toIPv6('::ffff:0.0.0.0') AND toIPv6('::ffff:255.255.255.255')";

class Builder {
  readonly params: Record<string, unknown> = {};
  private count = 0;
  constructor(private readonly prefix: string) {}

  /** A new parameter holding `value`, as its placeholder. */
  bind(value: unknown, type: string): string {
    const name = `${this.prefix}${this.count++}`;
    this.params[name] = value;
    return `{${name}:${type}}`;
  }

  node(node: NfdumpNode): string {
    switch (node.type) {
      case "and":
        return `(${node.operands.map((o) => this.node(o)).join(" AND ")})`;
      case "or":
        return `(${node.operands.map((o) => this.node(o)).join(" OR ")})`;
      case "not":
        return `NOT ${this.node(node.operand)}`;
      case "any":
        return "1";
      case "ipVersion":
        return `(ip_version = ${this.bind(node.version, "UInt8")})`;
      case "proto":
        return `(protocol = ${this.bind(node.protocol, "UInt8")})`;
      case "flags": {
        // nfdump reads TCP flags of TCP records only: other protocols' flag bits mean nothing.
        const mask = this.bind(node.mask, "UInt8");
        return node.exact ? `(protocol = 6 AND tcp_flags = ${mask})` : `(protocol = 6 AND bitAnd(tcp_flags, ${mask}) = ${mask})`;
      }
      case "address":
        return this.addresses(ADDRESS_COLUMNS[node.field], node.networks);
      case "port":
        return this.numbers(PORT_COLUMNS[node.field], node.match, "UInt16");
      case "as":
        return this.numbers(AS_COLUMNS[node.field], node.match, "Int64", true);
      case "interface":
        return this.numbers(INTERFACE_COLUMNS[node.field], node.match, "UInt32");
      case "counter":
        return this.numbers([COUNTER_EXPRESSIONS[node.field]], node.match, "UInt64");
      case "icmp":
        // Nullable columns (0007): NULL for other protocols and for ICMP records that said no type.
        return `(protocol IN (1, 58) AND ${this.numbers([`assumeNotNull(icmp_${node.field})`], node.match, "UInt8")} AND icmp_${node.field} IS NOT NULL)`;
    }
  }

  /** True when any of the columns lies in any of the networks. */
  private addresses(columns: readonly string[], networks: readonly Network[]): string {
    const ranges = networks.map((network) => {
      const parsed = parseIpAddress(network.address);
      if (!parsed || parsed.version !== network.version) throw new Error(`Invalid network address ${network.address}`);
      const low = networkAddress(network.version, parsed.value, network.length);
      const high = lastAddress(network.version, parsed.value, network.length);
      const lowColumn = toIpv6Column({ version: network.version, value: low });
      const highColumn = toIpv6Column({ version: network.version, value: high });
      // An IPv6 network over the mapped range would take IPv4 rows in: they are left out.
      const coversMapped = network.version === 6 && low <= MAPPED_LOW && high >= MAPPED_HIGH;
      if (low === high) return { equal: this.bind(lowColumn, "IPv6"), coversMapped };
      return { low: this.bind(lowColumn, "IPv6"), high: this.bind(highColumn, "IPv6"), coversMapped };
    });
    const terms = columns.flatMap((column) =>
      ranges.map((range) => {
        const inside = "equal" in range ? `${column} = ${range.equal}` : `${column} BETWEEN ${range.low} AND ${range.high}`;
        return range.coversMapped ? `(${inside} AND NOT (${column} BETWEEN ${MAPPED_RANGE}))` : `(${inside})`;
      }),
    );
    return terms.length === 1 ? terms[0] : `(${terms.join(" OR ")})`;
  }

  /**
   * True when any of the columns (or expressions) satisfies the match. `numbersOnly`: the column
   * also holds negative special values (the AS columns: Others, Not routable, Untracked), which
   * are no AS number and so below none: `as < 100` means the AS numbers 0–99.
   */
  private numbers(columns: readonly string[], match: NumberMatch, type: string, numbersOnly = false): string {
    let term: (column: string) => string;
    if (match.kind === "compare") {
      const value = this.bind(match.value, type);
      const below = match.op === "<" || match.op === "<=";
      term = (column) =>
        numbersOnly && below ? `(${column} >= 0 AND ${column} ${match.op} ${value})` : `(${column} ${match.op} ${value})`;
    } else if (match.kind === "range") {
      const low = this.bind(match.low, type);
      const high = this.bind(match.high, type);
      term = (column) => `(${column} BETWEEN ${low} AND ${high})`;
    } else {
      const singles = [...new Set(match.items.filter((i) => i.low === i.high).map((i) => i.low))];
      const set = singles.length ? this.bind(singles, `Array(${type})`) : null;
      const ranges = match.items.filter((i) => i.low !== i.high).map((i) => [this.bind(i.low, type), this.bind(i.high, type)] as const);
      term = (column) => {
        const parts = [...(set ? [`${column} IN ${set}`] : []), ...ranges.map(([low, high]) => `${column} BETWEEN ${low} AND ${high}`)];
        return `(${parts.join(" OR ")})`;
      };
    }
    const terms = columns.map(term);
    return terms.length === 1 ? terms[0] : `(${terms.join(" OR ")})`;
  }
}

/**
 * The WHERE fragment of a filter: a parenthesised boolean expression to AND with the rest of a
 * query's conditions. `paramPrefix` names its parameters (`nf0`, `nf1` …) apart from the query's own.
 */
export function nfdumpWhere(ast: NfdumpNode, options: { paramPrefix?: string } = {}): WhereFragment {
  const builder = new Builder(options.paramPrefix ?? "nf");
  const sql = builder.node(ast);
  return { sql, params: builder.params };
}
