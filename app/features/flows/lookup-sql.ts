/**
 * Pure SQL builders of the small flows reads around the views: the data's range and the VRF
 * names the filter autocompletion offers. No I/O.
 */
import type { BuiltQuery } from "./sql";

/** First and last 5-minute bucket of flows_5m (unix seconds); NULLs when there is no data. */
export function dataRangeQuery(): BuiltQuery {
  return {
    name: "flows.dataRange",
    sql: "SELECT if(count() = 0, NULL, toUInt32(min(time))) AS minTimestamp, if(count() = 0, NULL, toUInt32(max(time))) AS maxTimestamp FROM flows_5m",
    params: {},
  };
}

/** The newest 5-minute bucket of flows_5m (unix seconds); NULL when there is no data. */
export function latestBucketQuery(): BuiltQuery {
  return { name: "flows.latestBucket", sql: "SELECT if(count() = 0, NULL, toUInt32(max(time))) AS maxTimestamp FROM flows_5m", params: {} };
}

/** VRF names containing the term (any case), in order, at most `limit`. */
export function vrfNamesQuery(term: string, limit: number): BuiltQuery {
  return {
    name: "flows.vrfNames",
    sql: "SELECT DISTINCT vrf_name AS v FROM flows_1h WHERE vrf_name != '' AND positionCaseInsensitiveUTF8(vrf_name, {term:String}) > 0 ORDER BY v LIMIT {limit:UInt32}",
    params: { term, limit },
  };
}
