/**
 * A tag's values as people paste them, checked for the tag's kind. Pure and isomorphic (the Tag
 * list form and the service read the same rules).
 *
 * A pasted list is split at line breaks and commas; blanks are dropped and repeats kept once. Every
 * value must be one a flow filter of the kind accepts on its own (tag-filters.server.ts expands a
 * tag into exactly these values), so a tag never holds something it cannot filter by:
 * - AS numbers: the filter rule (shell §5: optional `AS`, any case, an integer of 1 to 10 digits,
 *   which may be negative for the special values), stored as the decimal number;
 * - IANA protocols: a number 0 to 255;
 * - interfaces and internal links: `router|interface`, both named;
 * - routers: a name without `|`;
 * - applications, infrastructures, VRF names: any text.
 * No value starts with `!` (negation belongs to the filter, not to the tag) or names another tag.
 *
 * Routers and interfaces must also exist in the network inventory (checkInventoryValues, with the
 * names the service reads): a tag of a router nobody has would filter by nothing. They are stored in
 * the inventory's spelling.
 *
 * Prefixes are not a kind of tag: the spec's filter kinds (shell §3) have none, so a set of prefixes
 * cannot be a tag.
 */
import { parseAsValue } from "~/features/filter/filters";
import { FILTER_KINDS, INTERFACE_SEPARATOR, type FilterKind } from "~/features/filter/dimensions";
import { invalidInput } from "~/lib/messages";
import { parseTagReference } from "~/features/filter/tag-reference";

/** The kinds a tag holds values of: the filter kinds (the schema's TAG_DIMENSION_KINDS repeat them). */
export const TAG_KINDS = FILTER_KINDS;
export type TagKind = FilterKind;

/** What people read for a kind (tabs, headings, messages). */
export const TAG_KIND_LABELS: Record<TagKind, string> = {
  AS_NUMBER: "AS numbers",
  ROUTER: "Routers",
  INTERFACE: "Interfaces",
  INTERNAL_LINK: "Internal links",
  APPLICATION: "Applications",
  INFRASTRUCTURE: "Infrastructures",
  IANA_PROTOCOL: "IANA protocols",
  VRF_NAME: "VRF names",
};

/** The name of one value of a kind, for invalidInput ('{value} is not a valid {name} input'). */
const VALUE_NAME: Record<TagKind, string> = {
  AS_NUMBER: "AS number",
  ROUTER: "router",
  INTERFACE: "interface (router|interface)",
  INTERNAL_LINK: "internal link (router|interface)",
  APPLICATION: "application",
  INFRASTRUCTURE: "infrastructure",
  IANA_PROTOCOL: "IANA protocol (0 to 255)",
  VRF_NAME: "VRF name",
};

/** How the values of a kind are written, shown under the values field. */
export const TAG_KIND_HINTS: Record<TagKind, string> = {
  AS_NUMBER: "One AS number per line or separated by commas, e.g. 3320 or AS3320.",
  ROUTER: "One router name per line or separated by commas, as in the network inventory.",
  INTERFACE: "One router|interface per line or separated by commas, as in the network inventory, e.g. fra1-r1|et-0/0/1.",
  INTERNAL_LINK: "One router|interface per line or separated by commas, e.g. fra1-r1|ae1.",
  APPLICATION: "One application name per line or separated by commas.",
  INFRASTRUCTURE: "One infrastructure name per line or separated by commas.",
  IANA_PROTOCOL: "One protocol number (0 to 255) per line or separated by commas, e.g. 6 for TCP.",
  VRF_NAME: "One VRF name per line or separated by commas.",
};

export const MAX_TAG_VALUES = 5000;
export const MAX_TAG_VALUE_LENGTH = 200;
/** Messages for at most this many bad values: a pasted file of garbage should not give a page of errors. */
const MAX_REPORTED = 10;

export function isTagKind(value: string): value is TagKind {
  return (TAG_KINDS as readonly string[]).includes(value);
}

/** One value of a kind, normalised; or the reason it is refused. */
export function normalizeTagValue(kind: TagKind, input: string): { value: string } | { error: string } {
  const text = input.trim();
  const refuse = () => ({ error: invalidInput(text, VALUE_NAME[kind]) });
  if (!text || text.length > MAX_TAG_VALUE_LENGTH) return refuse();
  if (text.startsWith("!") || parseTagReference(text)) return refuse();
  switch (kind) {
    case "AS_NUMBER": {
      const parsed = parseAsValue(text);
      return parsed && !parsed.isNegation ? { value: parsed.value } : refuse();
    }
    case "IANA_PROTOCOL":
      return /^\d{1,3}$/.test(text) && Number(text) <= 255 ? { value: String(Number(text)) } : refuse();
    case "INTERFACE":
    case "INTERNAL_LINK": {
      const parts = text.split(INTERFACE_SEPARATOR).map((p) => p.trim());
      return parts.length === 2 && parts[0] && parts[1] ? { value: parts.join(INTERFACE_SEPARATOR) } : refuse();
    }
    case "ROUTER":
      return text.includes(INTERFACE_SEPARATOR) ? refuse() : { value: text };
    default:
      return { value: text };
  }
}

/** A pasted list → the normalised values (first occurrence kept), or the messages of the bad ones. */
export function parseTagValues(kind: TagKind, pasted: string): { values: string[]; errors: string[] } {
  const values: string[] = [];
  const seen = new Set<string>();
  const errors: string[] = [];
  let bad = 0;
  for (const piece of pasted.split(/[\r\n,]+/)) {
    if (!piece.trim()) continue;
    const one = normalizeTagValue(kind, piece);
    if ("error" in one) {
      bad += 1;
      if (bad <= MAX_REPORTED) errors.push(one.error);
      continue;
    }
    if (seen.has(one.value)) continue;
    seen.add(one.value);
    values.push(one.value);
  }
  if (bad > MAX_REPORTED) errors.push(`… and ${bad - MAX_REPORTED} more values that are not valid.`);
  if (values.length > MAX_TAG_VALUES) errors.push(`A tag holds at most ${MAX_TAG_VALUES} values; this list has ${values.length}.`);
  return { values, errors };
}

/** The inventory's names as checkInventoryValues reads them: lower-case router → its name and its interfaces (lower-case → name). */
export type InventoryNames = ReadonlyMap<string, { name: string; interfaces: ReadonlyMap<string, string> }>;

/** The kinds whose values name things of the inventory. */
export const INVENTORY_TAG_KINDS: readonly TagKind[] = ["ROUTER", "INTERFACE"];

/**
 * Values of a ROUTER or INTERFACE tag (already normalised) against the inventory: each unknown router
 * or interface refused with its own message; known ones in the inventory's spelling. Other kinds pass.
 */
export function checkInventoryValues(
  kind: TagKind,
  values: readonly string[],
  names: InventoryNames,
): { values: string[]; errors: string[] } {
  if (!INVENTORY_TAG_KINDS.includes(kind)) return { values: [...values], errors: [] };
  const known: string[] = [];
  const seen = new Set<string>();
  const errors: string[] = [];
  let bad = 0;
  const refuse = (message: string) => {
    bad += 1;
    if (bad <= MAX_REPORTED) errors.push(message);
  };
  for (const value of values) {
    if (kind === "ROUTER") {
      const router = names.get(value.toLowerCase());
      if (!router) refuse(`${value} is not a router of the network inventory.`);
      else if (!seen.has(router.name)) {
        seen.add(router.name);
        known.push(router.name);
      }
      continue;
    }
    const [routerName, interfaceName] = value.split(INTERFACE_SEPARATOR);
    const router = names.get(routerName.toLowerCase());
    const iface = router?.interfaces.get(interfaceName.toLowerCase());
    if (!router) refuse(`${value}: ${routerName} is not a router of the network inventory.`);
    else if (!iface) refuse(`${value}: ${router.name} has no interface ${interfaceName} in the network inventory.`);
    else {
      const spelled = `${router.name}${INTERFACE_SEPARATOR}${iface}`;
      if (!seen.has(spelled)) {
        seen.add(spelled);
        known.push(spelled);
      }
    }
  }
  if (bad > MAX_REPORTED) errors.push(`… and ${bad - MAX_REPORTED} more values that are not in the network inventory.`);
  return { values: known, errors };
}
