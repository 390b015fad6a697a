/**
 * BGP communities as people read them: standard (RFC 1997, "64496:100"), large (RFC 8092,
 * "64496:1:2") and extended (RFC 4360, "RT:64497:42", "SoO:64497:12", or "0x…" for types without a
 * name), the names of the well-known ones, and the operator's labels: a pattern (a community, or
 * one with `*` for its last part: "64496:*", "64496:1:*", "RT:64497:*") → a label.
 *
 * One reading serves the label editor (which stores the canonical text of a pattern), the Looking
 * Glass filter (whose SQL compares the canonical text with the stored values) and the screens that
 * name each community of a route. Pure and isomorphic.
 */

export type CommunityKind = "standard" | "large" | "extended";

/**
 * The IANA registry "BGP Well-known Communities" (65535:x). Names as the RFCs spell them:
 * RFC 1997 (NO_EXPORT, NO_ADVERTISE, NO_EXPORT_SUBCONFED), RFC 3765 (NOPEER), RFC 7611
 * (ACCEPT_OWN), RFC 7999 (BLACKHOLE), RFC 8326 (GRACEFUL_SHUTDOWN), RFC 9494 (LLGR_STALE,
 * NO_LLGR), RFC 9026 (STANDBY_PE), and the route-target filter values of draft-ietf-l3vpn-legacy-rtc.
 */
export const WELL_KNOWN_COMMUNITIES: Readonly<Record<string, string>> = {
  "65535:0": "GRACEFUL_SHUTDOWN",
  "65535:1": "ACCEPT_OWN",
  "65535:2": "ROUTE_FILTER_TRANSLATED_v4",
  "65535:3": "ROUTE_FILTER_v4",
  "65535:4": "ROUTE_FILTER_TRANSLATED_v6",
  "65535:5": "ROUTE_FILTER_v6",
  "65535:6": "LLGR_STALE",
  "65535:7": "NO_LLGR",
  "65535:8": "ACCEPT_OWN_NEXTHOP",
  "65535:9": "STANDBY_PE",
  "65535:666": "BLACKHOLE",
  "65535:65281": "NO_EXPORT",
  "65535:65282": "NO_ADVERTISE",
  "65535:65283": "NO_EXPORT_SUBCONFED",
  "65535:65284": "NOPEER",
};

/** Longest community or pattern text accepted (an extended one with an IPv4 administrator is 26 characters). */
export const COMMUNITY_MAX_LENGTH = 64;

const MAX_U16 = 65_535;
const MAX_U32 = 4_294_967_295;

/** Extended community type names in the spelling the routing tables store (any case; Junos' target/origin too). */
const EXTENDED_TYPE_NAMES: Readonly<Record<string, string>> = { rt: "RT", target: "RT", soo: "SoO", origin: "SoO" };

export const COMMUNITY_EXAMPLES = "64496:100, 64496:1:2 or RT:64497:42";

export const COMMUNITY_MESSAGES = {
  empty: `Enter a community, for example ${COMMUNITY_EXAMPLES}.`,
  tooLong: `A community has at most ${COMMUNITY_MAX_LENGTH} characters.`,
  notACommunity: (text: string) =>
    `"${text}" is not a community: write a standard community (64496:100), a large one (64496:1:2) or an extended one (RT:64497:42).`,
  notAPattern: (text: string) =>
    `"${text}" is not a community pattern: write a standard community (64496:100), a large one (64496:1:2) or an extended one (RT:64497:42); * may stand for the last part (64496:*, 64496:1:*, RT:64497:*).`,
  standardRange: "Both numbers of a standard community are at most 65535.",
  largeRange: "Every number of a large community is at most 4294967295.",
  extendedRange: "The numbers of an extended community are at most 4294967295.",
  opaqueWildcard: "A hexadecimal extended community (0x…) has no parts: it cannot end in *.",
} as const;

/** A community or a pattern in its canonical text, with what kind it is and whether its last part is `*`. */
export type CommunityPattern = {
  kind: CommunityKind;
  /** The canonical text: numbers without leading zeros, known extended types spelled as stored ("RT"). */
  text: string;
  wildcard: boolean;
  /** For a wildcard: the text before the `*` ("64496:"), which every community it matches starts with. */
  prefix: string;
};

export type ParsedPattern = { ok: true; pattern: CommunityPattern } | { ok: false; error: string };

const NUMBER = /^\d{1,10}$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

const num = (part: string) => String(Number(part));
const fail = (error: string): ParsedPattern => ({ ok: false, error });

function parse(raw: string, allowWildcard: boolean): ParsedPattern {
  const text = raw.trim();
  const problem = (allowWildcard ? COMMUNITY_MESSAGES.notAPattern : COMMUNITY_MESSAGES.notACommunity)(text);
  if (text === "") return { ok: false, error: COMMUNITY_MESSAGES.empty };
  if (text.length > COMMUNITY_MAX_LENGTH) return { ok: false, error: COMMUNITY_MESSAGES.tooLong };
  if (/^0x[0-9a-f]+$/i.test(text)) {
    return text.length <= 18
      ? { ok: true, pattern: { kind: "extended", text: text.toLowerCase(), wildcard: false, prefix: "" } }
      : fail(problem);
  }
  if (/^0x[0-9a-f]*\*$/i.test(text)) return fail(COMMUNITY_MESSAGES.opaqueWildcard);
  const parts = text.split(":");
  const last = parts[parts.length - 1];
  const wildcard = last === "*";
  if (wildcard && !allowWildcard) return fail(problem);
  if (!wildcard && !NUMBER.test(last)) return fail(problem);
  const lastText = wildcard ? "*" : num(last);
  const build = (kind: CommunityKind, head: string[]): ParsedPattern => {
    const prefix = `${head.join(":")}:`;
    return { ok: true, pattern: { kind, text: `${prefix}${lastText}`, wildcard, prefix: wildcard ? prefix : "" } };
  };

  if (/^[A-Za-z][A-Za-z0-9-]*$/.test(parts[0])) {
    // Extended: TYPE:ADMINISTRATOR:NUMBER, the administrator an AS number or an IPv4 address.
    if (parts.length !== 3) return fail(problem);
    const [type, admin] = parts;
    if (!NUMBER.test(admin) && !IPV4.test(admin)) return fail(problem);
    if ((NUMBER.test(admin) && Number(admin) > MAX_U32) || (!wildcard && Number(last) > MAX_U32)) {
      return fail(COMMUNITY_MESSAGES.extendedRange);
    }
    const typeName = EXTENDED_TYPE_NAMES[type.toLowerCase()] ?? type;
    return build("extended", [typeName, NUMBER.test(admin) ? num(admin) : admin]);
  }
  if (!parts.slice(0, -1).every((p) => NUMBER.test(p))) return fail(problem);
  const numbers = parts.slice(0, -1).map(Number);
  if (!wildcard) numbers.push(Number(last));
  if (parts.length === 2) {
    if (numbers.some((n) => n > MAX_U16)) return fail(COMMUNITY_MESSAGES.standardRange);
    return build("standard", [num(parts[0])]);
  }
  if (parts.length === 3) {
    if (numbers.some((n) => n > MAX_U32)) return fail(COMMUNITY_MESSAGES.largeRange);
    return build("large", [num(parts[0]), num(parts[1])]);
  }
  return fail(problem);
}

/** One community as typed or stored → its canonical text and kind; no `*`. */
export function parseCommunity(text: string): ParsedPattern {
  return parse(text, false);
}

/** A label's pattern or the Looking Glass filter: a community, or one whose last part is `*`. */
export function parseCommunityPattern(text: string): ParsedPattern {
  return parse(text, true);
}

/** Whether a community (as stored) is matched by a pattern (parsed). */
export function patternMatches(pattern: CommunityPattern, community: string): boolean {
  if (!pattern.wildcard) return community === pattern.text;
  // The wildcard stands for the last part only: the rest holds no further ':' ("64496:*" is not "64496:1:2").
  return (
    community.startsWith(pattern.prefix) && community.length > pattern.prefix.length && !community.includes(":", pattern.prefix.length)
  );
}

export type CommunityLabel = { pattern: string; label: string };

/**
 * The name of each community: an operator's label for exactly that community first, then the
 * well-known name, then an operator's label whose pattern ends in `*` (a community has at most one
 * such pattern: the text before its last part). Null when none applies.
 */
export function communityNamer(labels: readonly CommunityLabel[]): (community: string) => string | null {
  const exact = new Map<string, string>();
  const byPrefix = new Map<string, string>();
  for (const { pattern, label } of labels) {
    const parsed = parseCommunityPattern(pattern);
    if (!parsed.ok) continue;
    if (parsed.pattern.wildcard) byPrefix.set(parsed.pattern.prefix, label);
    else exact.set(parsed.pattern.text, label);
  }
  return (community) => {
    const label = exact.get(community);
    if (label !== undefined) return label;
    const wellKnown = WELL_KNOWN_COMMUNITIES[community];
    if (wellKnown !== undefined) return wellKnown;
    const cut = community.lastIndexOf(":");
    if (cut < 0 || cut === community.length - 1) return null;
    return byPrefix.get(community.slice(0, cut + 1)) ?? null;
  };
}

/** "65535:65281 NO_EXPORT", or the community alone when it has no name. */
export function communityWithName(community: string, name: string | null | undefined): string {
  return name ? `${community} ${name}` : community;
}

/** What kind a pattern is, as people read it. */
export const COMMUNITY_KIND_LABELS: Record<CommunityKind, string> = {
  standard: "Standard",
  large: "Large",
  extended: "Extended",
};
