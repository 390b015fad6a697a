import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createAutocompleteCache,
  decorateItems,
  minLengthFor,
  createMetadataBatcher,
  metadataGroup,
  parseSearchTerm,
  rankItems,
  type AutocompleteItem,
  type MetadataFetch,
} from "~/features/filter/autocomplete-cache";
import { METADATA_BATCH_DELAY_MS } from "~/lib/constants";

const it_ = (value: string | number, name: string): AutocompleteItem => ({
  id: String(value),
  name,
  value: String(value),
  type: "PRIMITIVE",
});
const AS = [
  it_(2906, "Netflix"),
  it_(40027, "Netflix Streaming Services"),
  it_(3320, "Deutsche Telekom"),
  it_(15169, "Google"),
  it_(29065, "Example 29065"),
];

/** A fake server: AS search by number prefix or name, sorted like the real one. */
function fakeFetch() {
  return vi.fn(async (_dimension: string, term: string) =>
    rankItems(
      "AS_NUMBER",
      AS.filter((a) => a.value.startsWith(term) || a.name.toLowerCase().includes(term.toLowerCase())),
      term,
    ),
  );
}

describe("parseSearchTerm", () => {
  it("skips empty terms and terms with * or _", () => {
    for (const t of ["", "   ", "!", "#", "29*", "net_flix", "!_"]) expect(parseSearchTerm(t)).toEqual({ search: false });
  });
  it("reads negation and the tag suffix", () => {
    expect(parseSearchTerm("!3320")).toEqual({
      search: true,
      term: "3320",
      negated: true,
      tagSuffix: false,
    });
    expect(parseSearchTerm("netflix#")).toEqual({
      search: true,
      term: "netflix",
      negated: false,
      tagSuffix: true,
    });
  });
});

describe("autocomplete cache", () => {
  it("does not fetch for empty, * or _ terms", async () => {
    const fetch = fakeFetch();
    const cache = createAutocompleteCache({ fetch });
    expect(await cache.search("AS_SRC_INGRESS", "")).toEqual([]);
    expect(await cache.search("AS_SRC_INGRESS", "29*")).toEqual([]);
    expect(await cache.search("AS_SRC_INGRESS", "net_")).toEqual([]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("caches by dimension plus term", async () => {
    const fetch = fakeFetch();
    const cache = createAutocompleteCache({ fetch });
    await cache.search("AS_SRC_INGRESS", "net");
    await cache.search("AS_SRC_INGRESS", "NET");
    expect(fetch).toHaveBeenCalledTimes(1);
    await cache.search("AS_DST_INGRESS", "net");
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(fetch).toHaveBeenLastCalledWith("AS_DST_INGRESS", "net");
  });

  it("reuses and filters the cached result of the longest cached prefix", async () => {
    const fetch = fakeFetch();
    const cache = createAutocompleteCache({ fetch });
    await cache.search("AS_SRC_INGRESS", "2");
    await cache.search("AS_SRC_INGRESS", "29");
    expect(fetch).toHaveBeenCalledTimes(1);
    const r = await cache.search("AS_SRC_INGRESS", "2906");
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(r.map((x) => x.value)).toEqual(["2906", "29065"]);
    const names = await cache.search("AS_SRC_INGRESS", "netflix s");
    expect(fetch).toHaveBeenCalledTimes(2); // no cached prefix of "netflix s" in this dimension
    expect(names.map((x) => x.value)).toEqual(["40027"]);
    expect(await cache.search("AS_SRC_INGRESS", "netflix str")).toEqual([AS[1]]);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("refetches when the cached prefix result was cut at the limit", async () => {
    const fetch = fakeFetch();
    const cache = createAutocompleteCache({ fetch, limit: 2 });
    await cache.search("AS_SRC_INGRESS", "2");
    await cache.search("AS_SRC_INGRESS", "29");
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("carries negation and the # suffix, sharing the cache with the bare term", async () => {
    const fetch = fakeFetch();
    const cache = createAutocompleteCache({ fetch });
    const neg = await cache.search("AS_SRC_INGRESS", "!3320");
    expect(neg).toEqual([
      {
        id: "3320",
        name: "Deutsche Telekom",
        value: "!3320",
        type: "PRIMITIVE",
      },
    ]);
    const tag = await cache.search("AS_SRC_INGRESS", "3320#");
    expect(tag[0].value).toBe("3320#");
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledWith("AS_SRC_INGRESS", "3320");
  });

  it("neither fetches nor caches terms below the minimum length", async () => {
    const fetch = fakeFetch();
    const cache = createAutocompleteCache({ fetch, minLength: () => 3 });
    expect(await cache.search("AS_SRC_INGRESS", "29")).toEqual([]);
    expect(fetch).not.toHaveBeenCalled();
    await cache.search("AS_SRC_INGRESS", "290");
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("a failed fetch is not cached", async () => {
    let fail = true;
    const fetch = vi.fn(async () => {
      if (fail) throw new Error("down");
      return [AS[0]];
    });
    const cache = createAutocompleteCache({ fetch });
    await expect(cache.search("AS_SRC_INGRESS", "29")).rejects.toThrow("down");
    fail = false;
    expect(await cache.search("AS_SRC_INGRESS", "29")).toEqual([AS[0]]);
  });
});

describe("metadata batcher", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const serverNames: Record<string, string> = {
    "2906": "Netflix",
    "3320": "Deutsche Telekom",
    "fra-er1": "fra-er1 (Frankfurt)",
    "fra-er1|et-0/0/1": "PNI: Netflix",
  };
  function fakeMetadata() {
    return vi.fn<MetadataFetch>(async (_group, body) =>
      body.filters.map((f) => ({
        dimension: f.dimension ?? null,
        value: f.value,
        name: serverNames[f.value] ?? null,
      })),
    );
  }

  it("collects requests for 10 ms and makes one call per group (AS, router, other)", async () => {
    expect(METADATA_BATCH_DELAY_MS).toBe(10);
    const fetch = fakeMetadata();
    const batcher = createMetadataBatcher({ fetch });
    const a = batcher.request({ dimension: "AS_SRC_INGRESS", value: "2906" });
    vi.advanceTimersByTime(5);
    const b = batcher.request({ dimension: "AS_DST_INGRESS", value: "!3320" });
    const c = batcher.request({ dimension: "ROUTER_IN", value: "fra-er1" });
    const d = batcher.request({
      dimension: "INTERFACE_IN",
      value: "fra-er1|et-0/0/1",
    });
    const e = batcher.request({ value: "3320" });
    vi.advanceTimersByTime(4);
    expect(fetch).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fetch).toHaveBeenCalledTimes(3);
    const calls = Object.fromEntries(fetch.mock.calls.map(([group, body]) => [group, body]));
    expect(calls.AS).toEqual({
      filters: [{ dimension: "AS_SRC_INGRESS", value: "2906" }, { dimension: "AS_DST_INGRESS", value: "!3320" }, { value: "3320" }],
      fallbackDimensionType: "AS_NUMBER",
    });
    expect(calls.ROUTER).toEqual({
      filters: [{ dimension: "ROUTER_IN", value: "fra-er1" }],
      fallbackDimensionType: "ROUTER",
    });
    expect(calls.OTHER).toEqual({
      filters: [{ dimension: "INTERFACE_IN", value: "fra-er1|et-0/0/1" }],
    });
    expect(await Promise.all([a, c, d, e])).toEqual(["Netflix", "fra-er1 (Frankfurt)", "PNI: Netflix", "Deutsche Telekom"]);
    expect(await b).toBeNull(); // the fake server knows no "!3320"
  });

  it("deduplicates within a batch and starts a new batch afterwards", async () => {
    const fetch = fakeMetadata();
    const batcher = createMetadataBatcher({ fetch });
    const p = [
      batcher.request({ dimension: "AS_SRC_INGRESS", value: "2906" }),
      batcher.request({ dimension: "AS_SRC_INGRESS", value: "2906" }),
    ];
    vi.advanceTimersByTime(10);
    expect(await Promise.all(p)).toEqual(["Netflix", "Netflix"]);
    expect(fetch.mock.calls[0][1].filters).toHaveLength(1);
    const q = batcher.request({ dimension: "AS_SRC_INGRESS", value: "3320" });
    vi.advanceTimersByTime(10);
    expect(await q).toBe("Deutsche Telekom");
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("uses an injected timer and rejects a failed group's requests only", async () => {
    vi.useRealTimers();
    const timers: (() => void)[] = [];
    const fetch = vi.fn<MetadataFetch>(async (group, body) => {
      if (group === "ROUTER") throw new Error("boom");
      return body.filters.map((f) => ({
        dimension: f.dimension ?? null,
        value: f.value,
        name: `n-${f.value}`,
      }));
    });
    const batcher = createMetadataBatcher({
      fetch,
      timer: {
        set: (fn, ms) => (expect(ms).toBe(10), timers.push(fn)),
        clear: () => {},
      },
    });
    const as = batcher.request({ dimension: "AS_SRC_INGRESS", value: "1" });
    const router = batcher.request({ dimension: "ROUTER_OUT", value: "x" });
    expect(timers).toHaveLength(1);
    timers[0]();
    expect(await as).toBe("n-1");
    await expect(router).rejects.toThrow("boom");
  });

  it("groups by the dimension's filter kind", () => {
    expect(metadataGroup({ dimension: "AS_NEIGHBOR_EGRESS", value: "1" })).toBe("AS");
    expect(metadataGroup({ dimension: "ROUTER_LINK_END", value: "r" })).toBe("ROUTER");
    expect(metadataGroup({ dimension: "AS_APPLICATION", value: "Netflix" })).toBe("OTHER");
    expect(metadataGroup({ value: "AS15169" })).toBe("AS");
    expect(metadataGroup({ value: "fra-er1" })).toBe("OTHER");
  });
});

describe("decorating cached results", () => {
  it("carries `!` to every result and the `#` suffix to plain values only (a tag is already a reference)", () => {
    const items = [
      { id: "2906", name: "Netflix", value: "2906", type: "PRIMITIVE" },
      { id: "#12", name: "Video streaming", value: "#12", type: "TAG" },
      { id: "#g3", name: "Content", value: "#g3", type: "TAG_GROUP" },
    ];
    expect(decorateItems(items, { negated: true, tagSuffix: true }).map((i) => i.value)).toEqual(["!2906#", "!#12", "!#g3"]);
    expect(decorateItems(items, { negated: false, tagSuffix: true }).map((i) => i.value)).toEqual(["2906#", "#12", "#g3"]);
    expect(decorateItems(items, { negated: false, tagSuffix: false }).map((i) => i.value)).toEqual(["2906", "#12", "#g3"]);
  });

  it("minimum term lengths per filter kind", () => {
    const lengths = { primary_as: 2, secondary_as: 3, application: 4, infrastructure: 5 };
    expect([
      minLengthFor("AS_NUMBER", lengths),
      minLengthFor("APPLICATION", lengths),
      minLengthFor("INFRASTRUCTURE", lengths),
      minLengthFor("ROUTER", lengths),
    ]).toEqual([2, 4, 5, 1]);
  });
});
