/**
 * Server side of api/autocomplete/ and api/filter/metadata/ (shell §4, §5; RNA API §7).
 *
 * Searches PostgreSQL (as_info, routers, interfaces, as_service_mappings), a fixed IANA protocol
 * table and, for VRF names, the distinct vrf_name of the hourly flows in ClickHouse. Every value
 * of the term is bound as a parameter (drizzle placeholders, ClickHouse query_params); LIKE
 * wildcards in the term are escaped, and terms with `*` or `_` are never searched at all.
 */
import { asc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import { asInfo, asServiceMappings, interfaces, routers, siteSettings, type AutocompleteMinLengths } from "~db/postgres/schema";
import { effectiveNames, type EffectiveNames } from "~/features/tags/effective-names.server";
import { loadTagObjects, searchTagObjects, type AnyTagObject } from "~/features/tags/tags.server";
import { formatTagReference, parseTagReference } from "~/features/filter/tag-reference";
import { SPECIAL_AS_VALUES } from "~/lib/special-as";
import type { UserContext } from "~/server/auth/user-context.server";
import { chQuery } from "~/server/clickhouse/query.server";
import type { Services } from "~/server/services.server";
import {
  AUTOCOMPLETE_LIMIT,
  asTermNumber,
  decorateItems,
  minLengthFor,
  parseSearchTerm,
  rankItems,
  type AutocompleteItem,
} from "~/features/filter/autocomplete-cache";
import { getDimension, INTERFACE_SEPARATOR, type DimensionId, type FilterKind } from "~/features/filter/dimensions";
import { parseAsValue } from "~/features/filter/filters";
import { interfaceDescriptions } from "./interface-names.server";
import { vrfNamesQuery } from "./lookup-sql";
import { IANA_PROTOCOLS, interfaceLabel, protocolLabel } from "~/features/filter/value-labels";

type Stores = Pick<Services, "pg" | "ch">;

const DEFAULT_MIN_LENGTHS: AutocompleteMinLengths = {
  primary_as: 1,
  secondary_as: 1,
  application: 2,
  infrastructure: 2,
};

export async function minLengths(stores: Stores): Promise<AutocompleteMinLengths> {
  const [row] = await stores.pg.db.select({ v: siteSettings.autocompleteMinLengths }).from(siteSettings).where(eq(siteSettings.id, 1));
  return { ...DEFAULT_MIN_LENGTHS, ...(row?.v ?? {}) };
}

/** `%term%` with LIKE's own wildcards and escape character escaped. */
const contains = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const startsWith = (term: string) => `${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const item = (value: string | number, name: string): AutocompleteItem => ({
  id: String(value),
  name,
  value: String(value),
  type: "PRIMITIVE",
});

/**
 * ASes by number or by name: the registry's names (as_info) and the names the viewer's mapping
 * layers give; every item is named as the viewer reads it (effective names).
 */
async function searchAs(stores: Stores, names: EffectiveNames, term: string, limit: number): Promise<AutocompleteItem[]> {
  const n = asTermNumber(term);
  const nameMatch = ilike(asInfo.name, contains(term));
  const where = n !== null ? or(nameMatch, sql`${asInfo.asn}::text LIKE ${startsWith(String(n))}`) : nameMatch;
  const lower = term.toLowerCase();
  const order =
    n !== null
      ? [sql`abs(${asInfo.asn} - ${n}::bigint)`, asc(asInfo.asn)]
      : [
          sql`CASE WHEN lower(${asInfo.name}) = ${lower} THEN 0 WHEN lower(${asInfo.name}) LIKE ${startsWith(lower)} THEN 1 WHEN lower(${
            asInfo.name
          }) LIKE ${contains(` ${lower}`)} THEN 2 ELSE 3 END`,
          sql`length(${asInfo.name})`,
          asc(asInfo.name),
        ];
  const rows = await stores.pg.db
    .select({ asn: asInfo.asn, name: asInfo.name })
    .from(asInfo)
    .where(where)
    .orderBy(...order)
    .limit(limit);
  const mappedMatches = names.asesNamedLike(term).filter((m) => !rows.some((r) => r.asn === m.asn));
  // The special AS values (Others, Untracked, Not routable) are filter values too.
  const special = SPECIAL_AS_VALUES.filter((s) => !rows.some((r) => r.asn === s.asn) && !mappedMatches.some((m) => m.asn === s.asn))
    .filter((s) => s.name.toLowerCase().includes(lower) || (n !== null && String(s.asn).startsWith(String(n))))
    .map((s) => ({ asn: s.asn, name: s.name }));
  const candidates = [...rows, ...mappedMatches, ...special];
  const labels = await names.ases(candidates.map((c) => c.asn));
  const found = candidates.map((c) => item(c.asn, labels.get(String(c.asn))?.name ?? c.name));
  return rankItems("AS_NUMBER", found, term).slice(0, limit);
}

async function searchRouters(stores: Stores, term: string, limit: number): Promise<AutocompleteItem[]> {
  const rows = await stores.pg.db
    .select({ name: routers.name, city: routers.city })
    .from(routers)
    .where(or(ilike(routers.name, contains(term)), ilike(routers.city, contains(term))))
    .orderBy(asc(routers.name))
    .limit(200);
  return rankItems(
    "ROUTER",
    rows.map((r) => item(r.name, `${r.name} (${r.city})`)),
    term,
  ).slice(0, limit);
}

async function searchInterfaces(stores: Stores, term: string, limit: number): Promise<AutocompleteItem[]> {
  const pattern = contains(term);
  const rows = await stores.pg.db
    .select({
      router: routers.name,
      name: interfaces.name,
      description: interfaces.description,
    })
    .from(interfaces)
    .innerJoin(routers, eq(interfaces.routerId, routers.id))
    .where(
      or(
        ilike(routers.name, pattern),
        ilike(interfaces.name, pattern),
        ilike(interfaces.description, pattern),
        sql`(${routers.name} || ${INTERFACE_SEPARATOR} || ${interfaces.name}) ILIKE ${pattern}`,
      ),
    )
    .orderBy(asc(routers.name), asc(interfaces.name))
    .limit(500);
  const items = rows.map((r) => {
    const value = `${r.router}${INTERFACE_SEPARATOR}${r.name}`;
    return item(value, r.description ? `${value} ${r.description}` : value);
  });
  return rankItems("INTERFACE", items, term).slice(0, limit);
}

/** Applications or infrastructures (the values the flows carry) by value or by the name the viewer's mappings give them. */
async function searchServices(
  stores: Stores,
  names: EffectiveNames,
  kind: "Application" | "Infrastructure",
  term: string,
  limit: number,
): Promise<AutocompleteItem[]> {
  const rows = await stores.pg.db
    .selectDistinct({ name: asServiceMappings.name })
    .from(asServiceMappings)
    .where(eq(asServiceMappings.kind, kind))
    .orderBy(asc(asServiceMappings.name));
  const lower = term.toLowerCase();
  const items = rows
    .map((r) => item(r.name, names.service(kind, r.name).name ?? r.name))
    .filter((i) => i.value.toLowerCase().includes(lower) || i.name.toLowerCase().includes(lower));
  return rankItems(kind === "Application" ? "APPLICATION" : "INFRASTRUCTURE", items, term).slice(0, limit);
}

function searchProtocols(term: string, limit: number): AutocompleteItem[] {
  const t = term.toLowerCase();
  const items = IANA_PROTOCOLS.filter((p) => String(p.number).startsWith(t) || p.name.toLowerCase().includes(t)).map((p) =>
    item(p.number, p.name),
  );
  const numeric = /^\d+$/.test(t);
  // A number term: by number; a name term: by name match quality.
  return (numeric ? items.sort((a, b) => Number(a.value) - Number(b.value)) : rankItems("IANA_PROTOCOL", items, term)).slice(0, limit);
}

const VrfRow = z.object({ v: z.string() });

async function searchVrfs(stores: Stores, term: string, limit: number): Promise<AutocompleteItem[]> {
  const rows = await chQuery(stores.ch, { ...vrfNamesQuery(term, 500), schema: VrfRow });
  return rankItems(
    "VRF_NAME",
    rows.map((r) => item(r.v, r.v)),
    term,
  ).slice(0, limit);
}

/** An autocomplete result naming a tag (`#12`) or tag group (`#g3`) instead of a plain value. */
export type TagAutocompleteItem = Omit<AutocompleteItem, "type"> & {
  type: "TAG" | "TAG_GROUP";
};

/**
 * Tags and tag groups of the dimension's kind visible to the user whose name contains the term,
 * after the plain results. Only `!` is carried over: a `#` suffix would break the reference.
 */
async function searchTags(
  stores: Stores,
  user: Pick<UserContext, "id">,
  kind: FilterKind,
  term: string,
  negated: boolean,
  limit: number,
): Promise<TagAutocompleteItem[]> {
  const found = await searchTagObjects(stores.pg.db, user, kind, term, limit);
  return found.slice(0, limit).map((o) => ({
    id: formatTagReference(o),
    name: o.name,
    value: formatTagReference({ ...o, isNegation: negated }),
    type: o.type,
  }));
}

/**
 * Autocomplete results for a dimension the caller may use: [] without querying for an empty term,
 * one with `*` or `_`, or one shorter than the site's minimum; `!` and a `#` suffix are carried
 * over to the values. With a user, their tags and tag groups whose name matches follow the plain
 * results (type TAG / TAG_GROUP, value `#<id>` / `#g<id>`).
 */
export async function autocomplete(
  stores: Stores,
  dimension: DimensionId,
  rawTerm: string,
  limit = AUTOCOMPLETE_LIMIT,
  user?: Pick<UserContext, "id">,
): Promise<(AutocompleteItem | TagAutocompleteItem)[]> {
  const parsed = parseSearchTerm(rawTerm);
  if (!parsed.search) return [];
  const kind = getDimension(dimension).filterKind;
  if (parsed.term.length < minLengthFor(kind, await minLengths(stores))) return [];
  const term = parsed.term;
  const names = () => effectiveNames(stores, user ?? null);
  let items: AutocompleteItem[];
  switch (kind) {
    case "AS_NUMBER":
      items = await searchAs(stores, await names(), term, limit);
      break;
    case "ROUTER":
      items = await searchRouters(stores, term, limit);
      break;
    case "INTERFACE":
    case "INTERNAL_LINK":
      items = await searchInterfaces(stores, term, limit);
      break;
    case "APPLICATION":
      items = await searchServices(stores, await names(), "Application", term, limit);
      break;
    case "INFRASTRUCTURE":
      items = await searchServices(stores, await names(), "Infrastructure", term, limit);
      break;
    case "IANA_PROTOCOL":
      items = searchProtocols(term, limit);
      break;
    case "VRF_NAME":
      items = await searchVrfs(stores, term, limit);
      break;
  }
  const tagItems = user ? await searchTags(stores, user, kind, term, parsed.negated, limit) : [];
  return [...decorateItems(items, parsed), ...tagItems];
}

// ---------------------------------------------------------------------------------------------------------------
// Metadata

export type MetadataInput = {
  kind: FilterKind | null;
  dimension: DimensionId | null;
  value: string;
};
export type MetadataOutput = {
  dimension: DimensionId | null;
  value: string;
  name: string | null;
  type: "PRIMITIVE" | "TAG" | "TAG_GROUP";
};

/**
 * Names for filter values (a negated value gets the name of its bare value): AS names (and the
 * special AS values), routers with their city, interface descriptions, protocol names;
 * application, infrastructure and VRF values are their own names; tag references (`#12`, `#g3`)
 * the tag's or group's name when the user may see it. Unknown values: name null.
 */
export async function filterMetadata(
  stores: Stores,
  inputs: readonly MetadataInput[],
  user?: Pick<UserContext, "id">,
): Promise<MetadataOutput[]> {
  const bare = (v: string) => v.trim().replace(/^!/, "").trim();
  const tagRefs = inputs.map((i) => parseTagReference(i.value.trim()));
  const tagObjects =
    user && tagRefs.some(Boolean)
      ? await loadTagObjects(
          stores.pg.db,
          user,
          tagRefs.filter((r) => r !== null),
        )
      : new Map<string, AnyTagObject>();
  const asns = new Set<number>();
  const routerNames = new Set<string>();
  const ifaceKeys = new Set<string>();
  for (const i of inputs) {
    if (i.kind === "AS_NUMBER") {
      const p = parseAsValue(i.value);
      if (p) asns.add(Number(p.value));
    } else if (i.kind === "ROUTER") routerNames.add(bare(i.value));
    else if (i.kind === "INTERFACE" || i.kind === "INTERNAL_LINK") ifaceKeys.add(bare(i.value));
  }
  const names = await effectiveNames(stores, user ?? null);
  const asNames = new Map<number, string>(SPECIAL_AS_VALUES.map((s) => [s.asn, s.name]));
  for (const [asn, label] of await names.ases(asns)) if (label.name) asNames.set(Number(asn), label.name);
  const routerDesc = new Map<string, string>();
  if (routerNames.size) {
    const rows = await stores.pg.db
      .select({ name: routers.name, city: routers.city })
      .from(routers)
      .where(inArray(routers.name, [...routerNames]));
    for (const r of rows) routerDesc.set(r.name, `${r.name} (${r.city})`);
  }
  const ifaceDesc = await interfaceDescriptions(stores, ifaceKeys);
  return inputs.map((i, index) => {
    const tagRef = tagRefs[index];
    if (tagRef) {
      const found = tagObjects.get(formatTagReference({ type: tagRef.type, id: tagRef.id }));
      return { dimension: i.dimension, value: i.value, name: found?.name ?? null, type: tagRef.type };
    }
    let name: string | null = null;
    const v = bare(i.value);
    switch (i.kind) {
      case "AS_NUMBER": {
        const p = parseAsValue(i.value);
        name = p ? (asNames.get(Number(p.value)) ?? null) : null;
        break;
      }
      case "ROUTER":
        name = routerDesc.get(v) ?? null;
        break;
      case "INTERFACE":
      case "INTERNAL_LINK":
        name = interfaceLabel(v, ifaceDesc.get(v));
        break;
      case "IANA_PROTOCOL":
        name = protocolLabel(v);
        break;
      case "APPLICATION":
        name = v ? (names.service("Application", v).name ?? v) : null;
        break;
      case "INFRASTRUCTURE":
        name = v ? (names.service("Infrastructure", v).name ?? v) : null;
        break;
      case "VRF_NAME":
        name = v || null;
        break;
      case null:
        name = null;
        break;
    }
    return {
      dimension: i.dimension,
      value: i.value,
      name,
      type: "PRIMITIVE" as const,
    };
  });
}
