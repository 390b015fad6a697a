/**
 * The options form's reads of the available data from the browser, one instance per page: the
 * range of the flows (api/flows/timestamps/) and the newest bucket (api/max_timestamp/). They fail
 * quietly: the form works without them, like api/max_timestamp/ (spec §7). The filter inputs'
 * calls are app/features/filter/ui/filter-client.ts.
 */
import { notifications } from "@mantine/notifications";
import { createApiClient } from "~/lib/api-client";
import { tableGranularity } from "../aggregation-window";

const api = createApiClient({
  notify: (n) => notifications.show({ color: n.kind === "danger" ? "red" : "yellow", title: n.title, message: n.message }),
});

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
