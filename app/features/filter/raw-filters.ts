/**
 * Filter kinds of the raw flow records (flows_raw) beside the flow dimensions: the filters the
 * Looking Glass's 'Show in RNA' writes from a route (features/lookingglass/columns.ts rnaFilter:
 * `DST_PREFIX:10.1.2.0/24`, `AS_DST:64511`, `NEXT_HOP:192.0.2.1`, `EXPORTER:fra-er1`), with their
 * source / destination / either variants. Pure and isomorphic; the SQL reuses the nfdump
 * language's builder (nfdump/sql.ts), so a prefix here matches exactly as `dst net` does there
 * (containment, IPv4 never matching IPv6 rows).
 *
 * A value is `[!]value[@vrf]`: `!` negates, `@name` scopes it to the VRF of that name (vrf_name),
 * for a route the Looking Glass showed in a VRF's table. Within one kind the positive values are
 * alternatives (any may match) and the negated ones are all excluded; kinds are ANDed with each
 * other and with the dimension filters.
 */
import { formatNetwork, parseNetwork } from "~/lib/ip";
import { invalidInput } from "~/lib/messages";
import { parseAsValue } from "./filters";
import { nfdumpWhere, type NfdumpNode, type WhereFragment } from "./nfdump";

type Side = "src" | "dst" | "either";

type RawKindDef =
  | { kind: "address"; label: string; field: Side | "next" }
  | { kind: "as"; label: string; field: Side | "prev" | "next" }
  | { kind: "exporter"; label: string };

export const RAW_FILTER_KINDS = {
  SRC_PREFIX: { kind: "address", label: "Source prefix", field: "src" },
  DST_PREFIX: { kind: "address", label: "Destination prefix", field: "dst" },
  PREFIX: { kind: "address", label: "Source or destination prefix", field: "either" },
  AS_SRC: { kind: "as", label: "Source AS", field: "src" },
  AS_DST: { kind: "as", label: "Destination AS", field: "dst" },
  AS: { kind: "as", label: "Source or destination AS", field: "either" },
  AS_HND: { kind: "as", label: "Handover AS", field: "prev" },
  AS_NXT: { kind: "as", label: "Next-hop AS", field: "next" },
  NEXT_HOP: { kind: "address", label: "Next hop", field: "next" },
  EXPORTER: { kind: "exporter", label: "Exporter" },
} as const satisfies Record<string, RawKindDef>;

export type RawFilterKind = keyof typeof RAW_FILTER_KINDS;

export const RAW_FILTER_KIND_IDS = Object.keys(RAW_FILTER_KINDS) as RawFilterKind[];

export function isRawFilterKind(value: string): value is RawFilterKind {
  return Object.hasOwn(RAW_FILTER_KINDS, value);
}

export type RawFilter = {
  kind: RawFilterKind;
  /** Normalised: a prefix in CIDR form, an AS number, an exporter name or address. */
  value: string;
  isNegation: boolean;
  /** The VRF the value is scoped to; null: every VRF. */
  vrf: string | null;
};

const VRF_NAME = /^[^\s@]{1,100}$/;

/** One value of a kind (`!10.0.0.0/8@CUST`): the filter, or the invalidInput text. */
export function parseRawFilterValue(kind: RawFilterKind, input: string): { filter: RawFilter } | { error: string } {
  const def: RawKindDef = RAW_FILTER_KINDS[kind];
  const text = input.trim();
  const isNegation = text.startsWith("!");
  const body = isNegation ? text.slice(1).trim() : text;
  const at = body.lastIndexOf("@");
  const value = (at < 0 ? body : body.slice(0, at)).trim();
  const vrf = at < 0 ? null : body.slice(at + 1).trim();
  const bad = { error: invalidInput(text, def.label) };
  if (vrf !== null && !VRF_NAME.test(vrf)) return bad;
  if (def.kind === "address") {
    const network = parseNetwork(value);
    if (!network) return bad;
    return { filter: { kind, value: formatNetwork({ ...network, hasLength: true }), isNegation, vrf } };
  }
  if (def.kind === "as") {
    const parsed = parseAsValue(value);
    if (!parsed || parsed.isNegation) return bad;
    return { filter: { kind, value: parsed.value, isNegation, vrf } };
  }
  if (!value || value.length > 200) return bad;
  const network = parseNetwork(value);
  const normalised = network && !network.hasLength ? formatNetwork(network) : value;
  return { filter: { kind, value: normalised, isNegation, vrf } };
}

/** One filter as an nfdump tree where the language has the primitive; null for the exporter (by name or address). */
function asTree(filter: RawFilter): NfdumpNode | null {
  const def: RawKindDef = RAW_FILTER_KINDS[filter.kind];
  if (def.kind === "address") {
    const network = parseNetwork(filter.value);
    if (!network) throw new Error(`Invalid prefix ${filter.value}`);
    const address = formatNetwork({ ...network, hasLength: false });
    return { type: "address", field: def.field, networks: [{ version: network.version, address, length: network.length }] };
  }
  if (def.kind === "as") {
    const asn = Number(filter.value);
    return { type: "as", field: def.field, match: { kind: "list", items: [{ low: asn, high: asn }] } };
  }
  return null;
}

class Conditions {
  readonly params: Record<string, unknown> = {};
  private count = 0;
  constructor(private readonly prefix: string) {}

  bind(value: unknown, type: string): string {
    const name = `${this.prefix}v${this.count++}`;
    this.params[name] = value;
    return `{${name}:${type}}`;
  }

  one(filter: RawFilter): string {
    const tree = asTree(filter);
    let sql: string;
    if (tree) {
      const built: WhereFragment = nfdumpWhere(tree, { paramPrefix: `${this.prefix}n${this.count++}_` });
      Object.assign(this.params, built.params);
      sql = built.sql;
    } else {
      const network = parseNetwork(filter.value);
      const name = this.bind(filter.value, "String");
      if (network && !network.hasLength) {
        const built = nfdumpWhere(
          { type: "address", field: "router", networks: [{ version: network.version, address: filter.value, length: network.length }] },
          { paramPrefix: `${this.prefix}n${this.count++}_` },
        );
        Object.assign(this.params, built.params);
        sql = `(exporter_name = ${name} OR ${built.sql})`;
      } else {
        sql = `(exporter_name = ${name})`;
      }
    }
    return filter.vrf === null ? sql : `(${sql} AND vrf_name = ${this.bind(filter.vrf, "String")})`;
  }
}

/**
 * The WHERE conditions of raw filters over flows_raw (each a parenthesised boolean expression to
 * AND), with parameters named `${prefix}…`.
 */
export function rawFilterConditions(filters: readonly RawFilter[], prefix = "rf"): { conds: string[]; params: Record<string, unknown> } {
  const builder = new Conditions(prefix);
  const conds: string[] = [];
  for (const kind of RAW_FILTER_KIND_IDS) {
    const mine = filters.filter((f) => f.kind === kind);
    const positive = mine.filter((f) => !f.isNegation).map((f) => builder.one(f));
    const negative = mine.filter((f) => f.isNegation).map((f) => builder.one(f));
    if (positive.length) conds.push(positive.length === 1 ? positive[0] : `(${positive.join(" OR ")})`);
    for (const n of negative) conds.push(`NOT ${n}`);
  }
  return { conds, params: builder.params };
}

/** `DST_PREFIX:10.1.2.0/24` (URL form), as the Looking Glass writes it. */
export function formatRawFilter(filter: RawFilter): string {
  return `${filter.kind}:${filter.isNegation ? "!" : ""}${filter.value}${filter.vrf === null ? "" : `@${filter.vrf}`}`;
}
