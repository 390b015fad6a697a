/**
 * How the values of flow dimensions read for people: the screens, the exports and the `name` field
 * of the JSON answers. The machine form (`key`: an AS number, "lon-er1|xe-0/0/6", "6", "") stays in
 * the JSON API and in URLs. Pure and isomorphic.
 *
 * - AS numbers: the effective name (mapping layers, else as_info; looked up on the server); special values by their names.
 * - Applications and infrastructures: the empty value is traffic no mapping names: "Not mapped".
 * - IANA protocols: the protocol's name ("TCP"), the number where the name is not known.
 * - Interfaces and internal links: router and interface separated by a space, the interface's
 *   description (from the inventory, server side) in brackets where known.
 */
import { SPECIAL_AS_VALUES } from "~/lib/special-as";
import { getDimension, INTERFACE_SEPARATOR, othersValue, OTHERS_LABEL, type DimensionId } from "./dimensions";

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

/** "lon-er1 xe-0/0/6", with the description in brackets when there is one. */
export function interfaceLabel(key: string, description?: string | null): string {
  const text = key.split(INTERFACE_SEPARATOR).join(" ");
  return description ? `${text} (${description})` : text;
}

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
  if (kind === "IANA_PROTOCOL") return protocolLabel(key);
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
