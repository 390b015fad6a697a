/**
 * How the values of flow dimensions read for people: the screens, the exports and the `name` field
 * of the JSON answers. The machine form (`key`: an AS number, "lon-er1|xe-0/0/6", "6", "") stays in
 * the JSON API and in URLs. Pure and isomorphic.
 *
 * - AS numbers: the effective name (mapping layers, else as_info; looked up on the server); special values by their names.
 * - Applications and infrastructures: the empty value is traffic no mapping names: "Not mapped".
 * - IANA protocols: the protocol's name ("TCP"), the number where the name is not known; in the
 *   protocol views' rows of ICMP and IPv6-ICMP (keys "1/8", dimensions.ts) the protocol and the ICMP
 *   type: "ICMP Echo Request", "IPv6-ICMP Destination Unreachable", "ICMP type 200" for a type the
 *   registry does not name, "ICMP (type not known)".
 * - Interfaces and internal links: router and interface separated by a space, the interface's
 *   description (from the inventory, server side) in brackets where known.
 */
import { SPECIAL_AS_VALUES } from "~/lib/special-as";
import {
  getDimension,
  ICMP_TYPE_NOT_KNOWN,
  ICMP_TYPE_SEPARATOR,
  INTERFACE_SEPARATOR,
  othersValue,
  OTHERS_LABEL,
  type DimensionId,
} from "./dimensions";

/** Common IANA protocol numbers (https://www.iana.org/assignments/protocol-numbers). */
export const IANA_PROTOCOLS: readonly { number: number; name: string }[] = [
  { number: 1, name: "ICMP" },
  { number: 2, name: "IGMP" },
  { number: 4, name: "IPv4 (IP-in-IP)" },
  { number: 6, name: "TCP" },
  { number: 17, name: "UDP" },
  { number: 41, name: "IPv6 (encapsulation)" },
  { number: 46, name: "RSVP" },
  { number: 47, name: "GRE" },
  { number: 50, name: "ESP" },
  { number: 51, name: "AH" },
  { number: 58, name: "IPv6-ICMP" },
  { number: 88, name: "EIGRP" },
  { number: 89, name: "OSPF" },
  { number: 103, name: "PIM" },
  { number: 112, name: "VRRP" },
  { number: 115, name: "L2TP" },
  { number: 132, name: "SCTP" },
  { number: 136, name: "UDPLite" },
  { number: 137, name: "MPLS-in-IP" },
];

const PROTOCOL_NAMES = new Map(IANA_PROTOCOLS.map((p) => [String(p.number), p.name]));

/** "TCP" for "6"; the number itself where no name is known. */
export function protocolLabel(value: string): string {
  return PROTOCOL_NAMES.get(value) ?? value;
}

/** A protocol view's key split into protocol and ICMP type ("1/8"); null for a plain protocol number. */
function icmpRowOf(key: string): { protocol: number; type: number } | null {
  const [protocol, type, ...rest] = key.split(ICMP_TYPE_SEPARATOR);
  if (type === undefined || rest.length || !/^\d+$/.test(protocol) || !/^-?\d+$/.test(type)) return null;
  return { protocol: Number(protocol), type: Number(type) };
}

/**
 * A row of the protocol views: "ICMP Echo Request", "IPv6-ICMP Time Exceeded", "ICMP type 200",
 * "ICMP (type not known)"; a plain protocol number as protocolLabel says.
 */
export function protocolRowLabel(key: string): string {
  const icmp = icmpRowOf(key);
  if (!icmp) return protocolLabel(key);
  const protocol = protocolLabel(String(icmp.protocol));
  if (icmp.type === ICMP_TYPE_NOT_KNOWN) return `${protocol} (type not known)`;
  return `${protocol} ${icmpTypeName(icmp.protocol, icmp.type) ?? `type ${icmp.type}`}`;
}

/** "lon-er1 xe-0/0/6", with the description in brackets when there is one. */
export function interfaceLabel(key: string, description?: string | null): string {
  const text = key.split(INTERFACE_SEPARATOR).join(" ");
  return description ? `${text} (${description})` : text;
}

const ICMP_TYPE_NOT_KNOWN_EXPLANATION =
  "ICMP traffic whose type is not known: written before the aggregates kept the ICMP type, or sent by an exporter that does not say it. It is counted in full with its protocol; only its type is unknown.";

export const NOT_MAPPED_NAME = "Not mapped";
const NOT_MAPPED_EXPLANATION = {
  APPLICATION:
    "Traffic from autonomous systems that no application mapping covers: access and transit networks and the many smaller networks whose traffic is not one known application. It is counted in full; only its application is unknown.",
  INFRASTRUCTURE:
    "Traffic from autonomous systems that no infrastructure mapping covers: networks that are not a known content delivery or cloud infrastructure. It is counted in full; only its infrastructure is unknown.",
} as const;

const SPECIAL_AS = new Map<string, { name: string; explanation: string }>(
  SPECIAL_AS_VALUES.map((s) => [String(s.asn), { name: s.name, explanation: s.explanation }]),
);

/** Whether a value of the dimension is the empty "no mapping" value of applications / infrastructures. */
function isUnmapped(dimension: DimensionId, key: string): boolean {
  const kind = getDimension(dimension).filterKind;
  return (kind === "APPLICATION" || kind === "INFRASTRUCTURE") && key.trim() === "";
}

/**
 * A value as people read it without a lookup: AS numbers as "AS15169" (special values by name),
 * protocols by name, interfaces with a space, the empty mapping as "Not mapped".
 */
export function valueLabel(dimension: DimensionId, key: string): string {
  const kind = getDimension(dimension).filterKind;
  if (kind === "AS_NUMBER") return SPECIAL_AS.get(key)?.name ?? `AS${key}`;
  // The folded rest of a top N (-101 for numeric dimensions such as the protocol).
  if (key === String(othersValue(dimension))) return OTHERS_LABEL;
  if (isUnmapped(dimension, key)) return NOT_MAPPED_NAME;
  if (kind === "IANA_PROTOCOL") return protocolRowLabel(key);
  if (kind === "INTERFACE" || kind === "INTERNAL_LINK") return interfaceLabel(key);
  return key;
}

/** What a value that is not a real one means (special AS values, "Not mapped"); null for ordinary values. */
export function valueExplanation(dimension: DimensionId, key: string): { name: string; explanation: string } | null {
  const kind = getDimension(dimension).filterKind;
  if (kind === "AS_NUMBER") return SPECIAL_AS.get(key) ?? null;
  if (kind === "APPLICATION" && isUnmapped(dimension, key))
    return { name: NOT_MAPPED_NAME, explanation: NOT_MAPPED_EXPLANATION.APPLICATION };
  if (kind === "INFRASTRUCTURE" && isUnmapped(dimension, key))
    return { name: NOT_MAPPED_NAME, explanation: NOT_MAPPED_EXPLANATION.INFRASTRUCTURE };
  if (kind === "IANA_PROTOCOL" && icmpRowOf(key)?.type === ICMP_TYPE_NOT_KNOWN)
    return { name: protocolRowLabel(key), explanation: ICMP_TYPE_NOT_KNOWN_EXPLANATION };
  return null;
}

/** The FAQ's explanations of "Not mapped", per dimension kind. */
export const NOT_MAPPED_EXPLANATIONS = [
  { label: "Application", explanation: NOT_MAPPED_EXPLANATION.APPLICATION },
  { label: "Infrastructure", explanation: NOT_MAPPED_EXPLANATION.INFRASTRUCTURE },
] as const;

/** A filter as people read it: "Source AS (ingress): AS15169 Google", "not IANA protocol: UDP", "… (locked)". */
export function filterLabel(filter: {
  dimension: DimensionId;
  value: string;
  isNegation: boolean;
  locked?: boolean;
  name?: string | null;
}): string {
  const def = getDimension(filter.dimension);
  const plain = valueLabel(filter.dimension, filter.value);
  const value = def.filterKind === "AS_NUMBER" && filter.name && filter.name !== plain ? `${plain} ${filter.name}` : (filter.name ?? plain);
  return `${filter.isNegation ? "not " : ""}${def.label}: ${value}${filter.locked ? " (locked)" : ""}`;
}

/** ICMP (protocol 1) type names and, per type, code names: IANA "ICMP Type Numbers"; type 8, IANA's "Echo", as people say it. */
const ICMP_TYPES: Record<number, { name: string; codes?: Record<number, string> }> = {
  0: { name: "Echo Reply" },
  3: {
    name: "Destination Unreachable",
    codes: {
      0: "Net Unreachable",
      1: "Host Unreachable",
      2: "Protocol Unreachable",
      3: "Port Unreachable",
      4: "Fragmentation Needed and Don't Fragment was Set",
      5: "Source Route Failed",
      6: "Destination Network Unknown",
      7: "Destination Host Unknown",
      8: "Source Host Isolated",
      9: "Communication with Destination Network is Administratively Prohibited",
      10: "Communication with Destination Host is Administratively Prohibited",
      11: "Destination Network Unreachable for Type of Service",
      12: "Destination Host Unreachable for Type of Service",
      13: "Communication Administratively Prohibited",
      14: "Host Precedence Violation",
      15: "Precedence cutoff in effect",
    },
  },
  4: { name: "Source Quench" },
  5: {
    name: "Redirect",
    codes: {
      0: "Redirect Datagram for the Network",
      1: "Redirect Datagram for the Host",
      2: "Redirect Datagram for the Type of Service and Network",
      3: "Redirect Datagram for the Type of Service and Host",
    },
  },
  8: { name: "Echo Request" },
  9: { name: "Router Advertisement" },
  10: { name: "Router Solicitation" },
  11: { name: "Time Exceeded", codes: { 0: "Time to Live exceeded in Transit", 1: "Fragment Reassembly Time Exceeded" } },
  12: { name: "Parameter Problem", codes: { 0: "Pointer indicates the error", 1: "Missing a Required Option", 2: "Bad Length" } },
  13: { name: "Timestamp" },
  14: { name: "Timestamp Reply" },
  40: { name: "Photuris" },
  42: { name: "Extended Echo Request" },
  43: { name: "Extended Echo Reply" },
};

/** ICMPv6 (protocol 58) type and code names: IANA "ICMPv6 Parameters". */
const ICMPV6_TYPES: Record<number, { name: string; codes?: Record<number, string> }> = {
  1: {
    name: "Destination Unreachable",
    codes: {
      0: "No route to destination",
      1: "Communication with destination administratively prohibited",
      2: "Beyond scope of source address",
      3: "Address unreachable",
      4: "Port unreachable",
      5: "Source address failed ingress/egress policy",
      6: "Reject route to destination",
      7: "Error in Source Routing Header",
    },
  },
  2: { name: "Packet Too Big" },
  3: { name: "Time Exceeded", codes: { 0: "Hop limit exceeded in transit", 1: "Fragment reassembly time exceeded" } },
  4: {
    name: "Parameter Problem",
    codes: {
      0: "Erroneous header field encountered",
      1: "Unrecognized Next Header type encountered",
      2: "Unrecognized IPv6 option encountered",
    },
  },
  128: { name: "Echo Request" },
  129: { name: "Echo Reply" },
  130: { name: "Multicast Listener Query" },
  131: { name: "Multicast Listener Report" },
  132: { name: "Multicast Listener Done" },
  133: { name: "Router Solicitation" },
  134: { name: "Router Advertisement" },
  135: { name: "Neighbor Solicitation" },
  136: { name: "Neighbor Advertisement" },
  137: { name: "Redirect Message" },
  143: { name: "Version 2 Multicast Listener Report" },
};

function icmpTypeOf(protocol: number, type: number): { name: string; codes?: Record<number, string> } | undefined {
  const registry = protocol === 58 ? ICMPV6_TYPES : protocol === 1 ? ICMP_TYPES : null;
  return registry && Object.hasOwn(registry, type) ? registry[type] : undefined;
}

/** The registry's name of an ICMP (protocol 1) or ICMPv6 (58) type: "Echo Request"; null when it names none. */
export function icmpTypeName(protocol: number, type: number): string | null {
  return icmpTypeOf(protocol, type)?.name ?? null;
}

/**
 * An ICMP or ICMPv6 type and code as people read them: "Echo Request", "Destination Unreachable /
 * Port Unreachable"; a code the registry does not name for its type follows as "code n" (code 0 of
 * a type without codes is left out); an unnamed type is "ICMP type n code m". Null for any other
 * protocol or when the type is not known.
 */
export function icmpLabel(protocol: number, type: number | null, code: number | null): string | null {
  if (type === null || (protocol !== 1 && protocol !== 58)) return null;
  const family = protocol === 58 ? "ICMPv6" : "ICMP";
  const known = icmpTypeOf(protocol, type);
  if (!known) return `${family} type ${type}${code ? ` code ${code}` : ""}`;
  if (code === null) return known.name;
  const codeName = known.codes?.[code];
  if (codeName) return `${known.name} / ${codeName}`;
  return code === 0 ? known.name : `${known.name} / code ${code}`;
}

/** IANA "IPFIX Information Element #89 forwardingStatus" reason codes, by the whole status byte. */
const FORWARDING_REASONS: Record<number, string> = {
  64: "unknown",
  65: "fragmented",
  66: "not fragmented",
  128: "reason unknown",
  129: "ACL deny",
  130: "ACL drop",
  131: "unroutable",
  132: "adjacency",
  133: "fragmentation needed and DF set",
  134: "bad header checksum",
  135: "bad total length",
  136: "bad header length",
  137: "bad TTL",
  138: "policer",
  139: "WRED",
  140: "RPF",
  141: "for us",
  142: "bad output interface",
  143: "hardware",
  192: "reason unknown",
  193: "punt adjacency",
  194: "incomplete adjacency",
  195: "for us",
};

/** Whether a forwarding status (IE 89 byte) says the router dropped the packets: status bits 10. */
export const isDroppedStatus = (status: number) => status >> 6 === 2;

/**
 * A forwarding status as people read it where flows are listed: "dropped by the router (ACL deny)",
 * "consumed by the router (for us)", "forwarded"; null when the exporter did not say (0). A reason
 * code the registry does not list reads "reason n".
 */
export function forwardingStatusLabel(status: number): string | null {
  if (!status) return null;
  const reason = FORWARDING_REASONS[status] ?? `reason ${status & 0x3f}`;
  switch (status >> 6) {
    case 1:
      return reason === "unknown" ? "forwarded" : `forwarded (${reason})`;
    case 2:
      return `dropped by the router (${reason})`;
    case 3:
      return `consumed by the router (${reason})`;
    default:
      return `status unknown (reason ${status & 0x3f})`;
  }
}
