/**
 * The filter inputs' calls from the browser, one instance per page: autocomplete through the
 * client cache (shell §4), filter names through the 10 ms metadata batcher (shell §4, §9) and the
 * site's minimum autocomplete lengths. Errors follow the API client's rules (retries of these
 * reads, toasts for 404 / 500 and for a lost connection, 400 handed back); a failed look-up never
 * breaks the form. The site settings are read in the background and fail quietly: the inputs work
 * without them (spec §7).
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
