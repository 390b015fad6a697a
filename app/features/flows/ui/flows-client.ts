/**
 * The options form's calls from the browser, one instance per page: autocomplete through the
 * client cache (shell §4), filter names through the 10 ms metadata batcher (shell §4, §9), the
 * site's minimum autocomplete lengths and the range of the available data. Errors follow the API
 * client's rules (retries of these reads, toasts for 404 / 500 and for a lost connection, 400
 * handed back); a failed look-up never breaks the form. The background reads (site settings, the
 * data's time range) fail quietly: the form works without them, like api/max_timestamp/ (spec §7).
 */
import { notifications } from "@mantine/notifications";
import { createApiClient } from "~/lib/api-client";
import {
  createAutocompleteCache,
  createMetadataBatcher,
  minLengthFor,
  type AutocompleteItem,
  type MetadataResult,
  type MinTermLengths,
} from "../autocomplete-cache";
import { getDimension, type DimensionId } from "../dimensions";
import { tableGranularity } from "../aggregation-window";

const api = createApiClient({
  notify: (n) => notifications.show({ color: n.kind === "danger" ? "red" : "yellow", title: n.title, message: n.message }),
});

/** An autocomplete result; tags and tag groups come after the plain values. */
export type ValueSuggestion = Omit<AutocompleteItem, "type"> & { type: string };

let minLengths: MinTermLengths | null = null;
let minLengthsLoading: Promise<void> | null = null;

/** Loads the site's minimum term lengths once (siteconfig/ is public and small). */
function loadMinLengths(): Promise<void> {
  minLengthsLoading ??= api
    .request<{ autocomplete_min_lengths?: MinTermLengths }>("siteconfig/", { requestId: null, ignoreNetworkErrors: true })
    .then((config) => {
      minLengths = config?.autocomplete_min_lengths ?? null;
    })
    .catch(() => {
      minLengthsLoading = null;
    });
  return minLengthsLoading;
}

/** The site's minimum term length of a dimension, as the server applies it (1 until siteconfig/ answered). */
function minLength(dimension: DimensionId): number {
  return minLengths ? minLengthFor(getDimension(dimension).filterKind, minLengths) : 1;
}

const cache = createAutocompleteCache({
  fetch: async (dimension, term) => {
    const answer = await api.request<{ results?: AutocompleteItem[] }>("api/autocomplete/", {
      method: "POST",
      body: { searchTerm: term, dimension },
      // One pending search per dimension: typing on aborts the previous term's call.
      requestId: `autocomplete ${dimension}`,
    });
    return Array.isArray(answer?.results) ? answer.results : [];
  },
  minLength,
});

/**
 * Suggestions for what the user typed in a dimension's filter input ([] for empty terms and terms
 * with * or _). A `#` suffix is carried over to plain values only: on a tag reference it would
 * name a different tag.
 */
export async function suggestValues(dimension: DimensionId, typed: string): Promise<ValueSuggestion[]> {
  await loadMinLengths();
  const items: ValueSuggestion[] = await cache.search(dimension, typed);
  return items.map((item) =>
    item.type !== "PRIMITIVE" && item.value.endsWith("#") && !item.id.endsWith("#") ? { ...item, value: item.value.slice(0, -1) } : item,
  );
}

const batcher = createMetadataBatcher({
  fetch: async (_group, body) => {
    const answer = await api.request<{ results?: MetadataResult[] }>("api/filter/metadata/", { method: "POST", body, requestId: null });
    return Array.isArray(answer?.results) ? answer.results : [];
  },
});

const names = new Map<string, Promise<string | null>>();

/** The display name of a filter value (null: none known), batched with the other chips of the page and kept for the page's life. */
export function filterValueName(dimension: DimensionId, value: string): Promise<string | null> {
  const key = `${dimension}\u0000${value}`;
  let name = names.get(key);
  if (!name) {
    name = batcher.request({ dimension, value }).catch(() => {
      names.delete(key);
      return null;
    });
    names.set(key, name);
  }
  return name;
}

export type DataBounds = { min: number; max: number };

const BOUNDS_MAX_AGE_MS = 60_000;
let bounds: { at: number; value: Promise<DataBounds | null> } | null = null;

/**
 * The range a date picker may choose from: the first 5-minute bucket with flows to the end of the
 * newest one (api/flows/timestamps/ gives the newest bucket's start; its data runs 5 minutes on). null when there are no flows or the call failed.
 */
export function dataBounds(): Promise<DataBounds | null> {
  if (!bounds || Date.now() - bounds.at > BOUNDS_MAX_AGE_MS) {
    const value = api
      .request<{ minTimestamp: number | null; maxTimestamp: number | null }>("api/flows/timestamps/", {
        requestId: null,
        ignoreNetworkErrors: true,
      })
      .then((r) =>
        r && typeof r.minTimestamp === "number" && typeof r.maxTimestamp === "number"
          ? { min: r.minTimestamp, max: r.maxTimestamp + tableGranularity("flows_5m") }
          : null,
      )
      .catch(() => {
        bounds = null;
        return null;
      });
    bounds = { at: Date.now(), value };
  }
  return bounds.value;
}

/**
 * The end of the newest 5-minute bucket with flows (api/max_timestamp/), for users with the
 * fetchMaxTimestamp feature flag; null when there are no flows or the call failed (shell §7: a
 * network error is ignored, so no toast either).
 */
export function newestDataEnd(): Promise<number | null> {
  return api
    .request<{ maxTimestamp: number | null }>("api/max_timestamp/", { requestId: null, throwErrors: true })
    .then((r) => (r && typeof r.maxTimestamp === "number" ? r.maxTimestamp + tableGranularity("flows_5m") : null))
    .catch(() => null);
}
