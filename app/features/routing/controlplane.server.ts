/**
 * Control Plane (spec §2, §3): the routing history of every vantage point (rib_entries) in a time
 * range, selected by an AS path pattern or an IP address / prefix, in the spec's row fields; and
 * the first and last time with data.
 */
import { z } from "zod";
import type { Services } from "~/server/services.server";
import { LookingGlassInputError, ribQueryType } from "./lookingglass.server";
import { chQuery } from "~/server/clickhouse/query.server";
import {
  controlPlaneDbRow,
  controlPlaneSql,
  parseRibQuery,
  ribDatesSql,
  type ControlPlaneDbRow,
  type ControlPlaneTableQuery,
} from "./rib-sql";
import { parseRibViewChoice, ribViewsOf, unknownRibView, type RibView, type RibViewChoice } from "./rib-views";

/** Rows returned per request at most (newest first); the rows found beyond are counted. */
export const CONTROL_PLANE_RESULTS_LIMIT = 10_000;
/** Default and reset range of the screen (spec §9): 60 minutes. */
export const CONTROL_PLANE_DEFAULT_RANGE_SECONDS = 60 * 60;

/** One Control Plane row (spec §3). AS paths and communities are space-separated text. */
export type ControlPlaneRow = {
  /** Unix seconds. */
  timestamp: number;
  /** The router (vantage point) that holds the route. */
  IP: string;
  prefix: string;
  ASPathSeq: string;
  localPref: number;
  BGPNextHop: string;
  AFI: number;
  SAFI: number;
  ASConfedSeq: string;
  ASPathSet: string;
  Aggregator: string;
  Origin: string;
  Originator: string;
  communityIndex: string;
  /** Unix seconds when the route expires from management, null when it does not. */
  expireMgmt: number | null;
  /** Beyond the spec's fields: the vantage point key, whether the row is a withdrawal, and the table it is from. */
  vantagePoint: string;
  withdrawn: boolean;
  ribView: RibView;
};

export type ControlPlaneResult = {
  data: ControlPlaneRow[];
  /** Both set only when rows were cut: rows returned and rows found. */
  results_limit: number | null;
  results_maximum: number | null;
  queryTerm: string;
  /** The tables read: "default" (post-policy and Loc-RIB) or one of them. */
  ribView: RibViewChoice;
};

export type ControlPlaneDates = { minTimestamp: number | null; maxTimestamp: number | null };

function toRow(db: ControlPlaneDbRow): ControlPlaneRow {
  const expireAt = Number(db.expire_at);
  return {
    timestamp: Number(db.timestamp),
    IP: db.router_ip,
    prefix: db.prefix,
    ASPathSeq: db.as_path.join(" "),
    localPref: Number(db.local_pref),
    BGPNextHop: db.bgp_next_hop,
    AFI: Number(db.afi),
    SAFI: Number(db.safi),
    ASConfedSeq: db.as_confed_seq.join(" "),
    ASPathSet: db.as_path_set.join(" "),
    Aggregator: db.aggregator,
    Origin: db.origin,
    Originator: db.originator_id,
    communityIndex: [...db.communities, ...db.ext_communities].join(" "),
    expireMgmt: expireAt > 0 ? expireAt : null,
    vantagePoint: db.vantage_point,
    withdrawn: Number(db.is_withdrawn) === 1,
    ribView: db.rib_view,
  };
}

/**
 * Routing history rows of [startDate, endDate] (unix seconds, both included) of the tables
 * `ribView` names (absent: post-policy and Loc-RIB), newest first or as `table` sorts them, and
 * only those its filters keep.
 * Throws LookingGlassInputError for bad input (query type, term, RIB view, or a range that ends before it starts).
 */
export async function controlPlaneQuery(
  stores: Pick<Services, "ch">,
  options: {
    queryType: string;
    queryTerm: string;
    startDate: number;
    endDate: number;
    ribView?: string | null;
    limit?: number;
    table?: ControlPlaneTableQuery;
  },
): Promise<ControlPlaneResult> {
  const queryType = ribQueryType(options.queryType);
  const parsed = parseRibQuery(queryType, options.queryTerm);
  if (!parsed.ok) throw new LookingGlassInputError(parsed.error, "queryTerm");
  const ribView = parseRibViewChoice(options.ribView);
  if (ribView === null) throw new LookingGlassInputError(unknownRibView(String(options.ribView)), "ribView");
  if (options.endDate < options.startDate) throw new LookingGlassInputError("The end date is before the start date.", "endDate");
  const limit = options.limit ?? CONTROL_PLANE_RESULTS_LIMIT;
  const rows = await chQuery(stores.ch, {
    schema: controlPlaneDbRow,
    ...controlPlaneSql({
      match: parsed.match,
      start: options.startDate,
      end: options.endDate,
      limit,
      table: options.table,
      ribViews: ribViewsOf(ribView),
    }),
  });
  const found = rows.length ? Number(rows[0].total) : 0;
  const cut = found > rows.length;
  return {
    data: rows.map(toRow),
    results_limit: cut ? rows.length : null,
    results_maximum: cut ? found : null,
    queryTerm: parsed.term,
    ribView,
  };
}

const timestamp = z
  .union([z.number(), z.string()])
  .nullable()
  .transform((v) => (v === null ? null : Number(v)));
const RibDatesRow = z.object({ minTimestamp: timestamp, maxTimestamp: timestamp });

/** First and last timestamp of the routing history (nulls when there is none). */
export async function controlPlaneDates(stores: Pick<Services, "ch">): Promise<ControlPlaneDates> {
  const [row] = await chQuery(stores.ch, { ...ribDatesSql(), schema: RibDatesRow });
  return {
    minTimestamp: row?.minTimestamp ?? null,
    maxTimestamp: row?.maxTimestamp ?? null,
  };
}
