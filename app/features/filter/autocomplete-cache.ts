/**
 * Autocomplete and filter-metadata helpers shared by client and server (shell §4, §5).
 * Pure and isomorphic: no server imports; fetch functions and timers are injected.
 *
 * Term rules (§5), `parseSearchTerm`:
 * - an empty term, or one containing `*` or `_`, is not searched;
 * - a leading `!` marks negation: the results carry it (value prefixed with `!`);
 * - a trailing `#` (tag input) is carried over to the results (value suffixed with `#`);
 * - what remains (trimmed) is the term that is searched.
 *
 * Client cache (§4), `createAutocompleteCache`: results are cached by dimension plus (lower-case)
 * term, always as the plain results of the bare term; negation and `#` are applied on the way
 * out. A longer term reuses and filters the cached result of its longest cached prefix (same
 * dimension) instead of fetching. Not in the spec, but needed for correct results: a cached
 * result that was cut at the server's limit is incomplete, so it is only reused when it holds
 * fewer than `limit` items; and terms below the site's minimum length are neither fetched nor
 * cached (the server's empty answer for them says nothing about longer terms).
 *
 * Metadata batcher (§4), `createMetadataBatcher`: name requests are collected for
 * METADATA_BATCH_DELAY_MS (10 ms, from the first request of a batch), then split into AS, router
 * and other groups, with one call per non-empty group.
 */
import { METADATA_BATCH_DELAY_MS } from "~/lib/constants";
import { getDimension, isDimensionId, type DimensionId, type FilterKind } from "./dimensions";
import { parseAsValue } from "./filters";

export type AutocompleteItem = {
  id: string;
  name: string;
  value: string;
  type: "PRIMITIVE";
};

export const AUTOCOMPLETE_LIMIT = 20;

/** The site's minimum autocomplete term lengths (site setting autocomplete_min_lengths). */
export type MinTermLengths = { primary_as: number; secondary_as: number; application: number; infrastructure: number };

/**
 * The minimum term length of a filter kind: primary_as for AS dimensions, application,
 * infrastructure; 1 otherwise. The server refuses shorter terms; the browser cache must know it
 * too, or the empty answer to a too-short term would be reused for the longer terms after it.
 */
export function minLengthFor(kind: FilterKind, lengths: MinTermLengths): number {
  if (kind === "AS_NUMBER") return lengths.primary_as;
  if (kind === "APPLICATION") return lengths.application;
  if (kind === "INFRASTRUCTURE") return lengths.infrastructure;
  return 1;
}

export type ParsedTerm = { search: false } | { search: true; term: string; negated: boolean; tagSuffix: boolean };

export function parseSearchTerm(raw: string): ParsedTerm {
  let text = raw.trim();
  if (!text || text.includes("*") || text.includes("_")) return { search: false };
  const negated = text.startsWith("!");
  if (negated) text = text.slice(1).trim();
  const tagSuffix = text.endsWith("#");
  if (tagSuffix) text = text.slice(0, -1).trim();
  if (!text) return { search: false };
  return { search: true, term: text, negated, tagSuffix };
}

/**
 * Applies the term's negation to the results and its `#` suffix to the plain ones (a tag's value
 * is already a reference, `#12`: a suffix would break it).
 */
export function decorateItems<T extends { value: string; type: string }>(
  items: readonly T[],
  parsed: { negated: boolean; tagSuffix: boolean },
): T[] {
  return items.map((item) => {
    const isTag = item.type === "TAG" || item.type === "TAG_GROUP";
    const value =
      isTag && parsed.negated
        ? `!${item.value.replace(/^!/, "")}`
        : `${parsed.negated ? "!" : ""}${item.value}${parsed.tagSuffix && !isTag ? "#" : ""}`;
    return { ...item, value };
  });
}

/** The number an AS term stands for ("2906", "AS2906"), or null for a name term. */
export function asTermNumber(term: string): number | null {
  const parsed = parseAsValue(term);
  return parsed && !parsed.isNegation ? Number(parsed.value) : null;
}

/** Name match quality: 0 exact, 1 prefix, 2 word start, 3 contains, 4 no match. */
export function nameQuality(name: string, term: string): number {
  const n = name.toLowerCase();
  const t = term.toLowerCase();
  if (n === t) return 0;
  if (n.startsWith(t)) return 1;
  if (n.includes(` ${t}`)) return 2;
  return n.includes(t) ? 3 : 4;
}

/**
 * Whether a plain result matches a term, as the server's search does: AS by number prefix or
 * name; protocols by number prefix or name; the rest by name or value containing the term.
 */
export function itemMatches(kind: FilterKind, item: AutocompleteItem, term: string): boolean {
  const t = term.toLowerCase();
  const nameHit = item.name.toLowerCase().includes(t);
  if (kind === "AS_NUMBER") {
    const n = asTermNumber(term);
    return nameHit || (n !== null && item.value.startsWith(String(n)));
  }
  if (kind === "IANA_PROTOCOL") return nameHit || item.value.startsWith(t);
  return nameHit || item.value.toLowerCase().includes(t);
}

/** The server's order: AS by numeric distance to a numeric term, everything else by name match quality. */
export function rankItems(kind: FilterKind, items: readonly AutocompleteItem[], term: string): AutocompleteItem[] {
  const n = kind === "AS_NUMBER" ? asTermNumber(term) : null;
  const keyed = items.map((item, i) => ({
    item,
    i,
    q: nameQuality(item.name, term),
    v: Number(item.value),
  }));
  keyed.sort((a, b) => {
    if (n !== null) return Math.abs(a.v - n) - Math.abs(b.v - n) || a.v - b.v || a.i - b.i;
    return a.q - b.q || a.item.name.length - b.item.name.length || a.item.name.localeCompare(b.item.name) || a.i - b.i;
  });
  return keyed.map((k) => k.item);
}

// ---------------------------------------------------------------------------------------------------------------
// Client cache

export type AutocompleteFetch = (dimension: DimensionId, term: string) => Promise<AutocompleteItem[]>;

export type AutocompleteCacheOptions = {
  /** Fetches the plain results of a bare term (no `!`, no `#`). */
  fetch: AutocompleteFetch;
  /** The site's minimum term length for the dimension (site settings autocomplete_min_lengths). */
  minLength?: (dimension: DimensionId) => number;
  limit?: number;
};

export function createAutocompleteCache(options: AutocompleteCacheOptions) {
  const limit = options.limit ?? AUTOCOMPLETE_LIMIT;
  const entries = new Map<string, Promise<AutocompleteItem[]>>();
  const settled = new Map<string, AutocompleteItem[]>();
  const key = (dimension: string, term: string) => `${dimension}\u0000${term}`;

  function longestReusablePrefix(dimension: DimensionId, term: string): AutocompleteItem[] | null {
    for (let len = term.length - 1; len >= 1; len--) {
      const cached = settled.get(key(dimension, term.slice(0, len)));
      if (cached && cached.length < limit) return cached;
    }
    return null;
  }

  async function plain(dimension: DimensionId, term: string): Promise<AutocompleteItem[]> {
    const k = key(dimension, term);
    const hit = entries.get(k);
    if (hit) return hit;
    const kind = getDimension(dimension).filterKind;
    const prefix = longestReusablePrefix(dimension, term);
    const promise = prefix
      ? Promise.resolve(
          rankItems(
            kind,
            prefix.filter((item) => itemMatches(kind, item, term)),
            term,
          ),
        )
      : options.fetch(dimension, term);
    entries.set(k, promise);
    try {
      const items = await promise;
      settled.set(k, items);
      return items;
    } catch (error) {
      entries.delete(k);
      throw error;
    }
  }

  return {
    /** Results for what the user typed (with `!` / `#` carried over); [] without fetching for unsearchable terms. */
    async search(dimension: DimensionId, raw: string): Promise<AutocompleteItem[]> {
      const parsed = parseSearchTerm(raw);
      if (!parsed.search) return [];
      if (parsed.term.length < (options.minLength?.(dimension) ?? 1)) return [];
      const items = await plain(dimension, parsed.term.toLowerCase());
      return decorateItems(items, parsed);
    },
    clear() {
      entries.clear();
      settled.clear();
    },
    get size() {
      return entries.size;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Metadata batcher

export type MetadataGroup = "AS" | "ROUTER" | "OTHER";
export type MetadataRequest = { dimension?: DimensionId; value: string };
export type MetadataResult = {
  dimension: string | null;
  value: string;
  name: string | null;
};
/** One call of api/filter/metadata/ for a group; fallbackDimensionType is AS_NUMBER / ROUTER for those groups. */
export type MetadataFetch = (
  group: MetadataGroup,
  body: { filters: MetadataRequest[]; fallbackDimensionType?: FilterKind },
) => Promise<MetadataResult[]>;

export type Timer = {
  set: (fn: () => void, ms: number) => unknown;
  clear: (handle: unknown) => void;
};
const realTimer: Timer = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** The group of a request: by the dimension's filter kind; without a dimension, an AS-looking value counts as AS. */
export function metadataGroup(request: MetadataRequest): MetadataGroup {
  if (request.dimension && isDimensionId(request.dimension)) {
    const kind = getDimension(request.dimension).filterKind;
    return kind === "AS_NUMBER" ? "AS" : kind === "ROUTER" ? "ROUTER" : "OTHER";
  }
  return parseAsValue(request.value) ? "AS" : "OTHER";
}

const FALLBACK: Record<MetadataGroup, FilterKind | undefined> = {
  AS: "AS_NUMBER",
  ROUTER: "ROUTER",
  OTHER: undefined,
};

export function createMetadataBatcher(options: { fetch: MetadataFetch; delayMs?: number; timer?: Timer }) {
  const delay = options.delayMs ?? METADATA_BATCH_DELAY_MS;
  const timer = options.timer ?? realTimer;
  type Waiter = {
    request: MetadataRequest;
    resolve: (name: string | null) => void;
    reject: (e: unknown) => void;
  };
  let pending: Waiter[] = [];
  let handle: unknown = null;

  const reqKey = (r: MetadataRequest) => `${r.dimension ?? ""}\u0000${r.value}`;

  function flush() {
    handle = null;
    const batch = pending;
    pending = [];
    const groups = new Map<MetadataGroup, Waiter[]>();
    for (const w of batch) {
      const g = metadataGroup(w.request);
      groups.set(g, [...(groups.get(g) ?? []), w]);
    }
    for (const [group, waiters] of groups) {
      const unique = new Map<string, MetadataRequest>();
      for (const w of waiters) unique.set(reqKey(w.request), w.request);
      const fallback = FALLBACK[group];
      const body = {
        filters: [...unique.values()],
        ...(fallback ? { fallbackDimensionType: fallback } : {}),
      };
      options.fetch(group, body).then(
        (results) => {
          const names = new Map<string, string | null>();
          for (const r of results) {
            names.set(`${r.dimension ?? ""}\u0000${r.value}`, r.name);
            if (!names.has(`\u0000${r.value}`)) names.set(`\u0000${r.value}`, r.name);
          }
          for (const w of waiters) w.resolve(names.get(reqKey(w.request)) ?? names.get(`\u0000${w.request.value}`) ?? null);
        },
        (error: unknown) => waiters.forEach((w) => w.reject(error)),
      );
    }
  }

  return {
    /** The name for a filter value, from the next batch. */
    request(request: MetadataRequest): Promise<string | null> {
      return new Promise((resolve, reject) => {
        pending.push({ request, resolve, reject });
        if (handle === null) handle = timer.set(flush, delay);
      });
    },
    /** Drops the pending batch without calling (e.g. on unmount); its promises never settle. */
    cancel() {
      if (handle !== null) timer.clear(handle);
      handle = null;
      pending = [];
    },
  };
}
