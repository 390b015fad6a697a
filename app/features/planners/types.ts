/**
 * The planners' kernel as the screens (/border-planner, /core-planner), the JSON calls
 * (api/linkutil/...) and the build-out notifier see it. Pure types, isomorphic: screens may import
 * them. docs/planners.md defines every figure; the service is plan.server.ts.
 *
 * Conventions: times are unix seconds; a range is half-open [start, end) and 5-minute aligned;
 * utilisation is a fraction of capacity (0.95 = 95 %), bps are bits per second; days are calendar
 * days in the viewer's timezone, written YYYY-MM-DD.
 */
import type { UtilSource } from "~/features/collector/snmp/util-source";
import type { BuildoutType, UserSettingsJson } from "~/server/settings/user-settings.server";
import type { ForecastResult } from "~/lib/forecast";

export type { ForecastResult };

/** Border Planner: "external" (extlinks_* settings); Core Planner: "internal" (intlinks_* settings). */
export type LinkKind = "external" | "internal";
/** in = into the interface (external) / from b to a (internal); out = out of it / from a to b. */
export type Direction = "in" | "out";
export const DIRECTIONS: readonly Direction[] = ["in", "out"];

/** Unix seconds, half-open [start, end), both multiples of 300. */
export type PlanRange = { start: number; end: number };

/** "high" ≥ the high threshold, "medium" ≥ the medium one, else "normal"; "no data" without any daily value. */
export type LinkStatus = "high" | "medium" | "normal" | "no data";
export const LINK_STATUSES: readonly LinkStatus[] = ["high", "medium", "normal", "no data"];
/** What people read for a status. */
export const LINK_STATUS_LABELS: Record<LinkStatus, string> = {
  high: "High",
  medium: "Medium",
  normal: "Normal",
  "no data": "No data",
};

export type InterfaceRef = { router: string; interface: string };

/**
 * An external link: one interface of kind external in the inventory. key = "router|interface"
 * (the spelling of external_links_views_restrictions.interfaceList).
 */
export type ExternalLink = {
  kind: "external";
  key: string;
  router: string;
  interface: string;
  description: string;
  /** null for a port at an Internet exchange (many neighbours). */
  neighbourAs: number | null;
  /** The neighbour AS's name as the viewer reads it (its effective mapping, else as_info); null when unknown. */
  asName: string | null;
  /** "Transit" | "Peering" | "Customer" (inventory PEERING_TYPES), null when not set. */
  peering: string | null;
  /** PNI or the exchange's name; free text. */
  connection: string | null;
  capacityBps: number | null;
};

/**
 * An internal link: two core interfaces paired by `remote` (one link per pair, whichever end
 * declares it). key = "a.router|a.interface>b.router|b.interface" with a the end that sorts first.
 * out = a → b, in = b → a.
 */
export type InternalLink = {
  kind: "internal";
  key: string;
  a: InterfaceRef & { description: string; capacityBps: number | null };
  b: InterfaceRef & { description: string; capacityBps: number | null };
  /** min of both ends' capacity when both are known, else the known one, else null. */
  capacityBps: number | null;
};

export type PlannerLink = ExternalLink | InternalLink;

/** A rate with its share of the link's capacity (utilisation null when the capacity is unknown or 0). */
export type Rate = { bps: number; utilisation: number | null };

/** One calendar day's peak hour in one direction; value null when the day has no complete window. */
export type DailyPeak = {
  day: string;
  /** Start (unix s) of the peak hour's first quarter; null without a value. */
  windowStart: number | null;
  /** Mean bps of the 4 quarters of the peak hour. */
  bps: number | null;
  utilisation: number | null;
};

export type DirectionFigures = {
  /** Every day of the range in the viewer's timezone, in order (days without a value included). */
  daily: DailyPeak[];
  /** The day with the highest peak-hour value (the earliest on a tie); null without any. */
  maxDaily: (Rate & { day: string }) | null;
  /** Billing 95th percentile of the 5-minute samples present; null without samples. */
  p95: Rate | null;
};

/** Flow bytes × sampling against SNMP bytes over the intervals both measured. */
export type SamplingConfidence = { ratio: number; intervals: number };

export type LinkPlan = {
  link: PlannerLink;
  capacityBps: number | null;
  in: DirectionFigures;
  out: DirectionFigures;
  /** max(in 95th, out 95th); null when neither has samples. */
  billedP95: Rate | null;
  /** Highest peak-hour daily utilisation of either direction over the period. */
  maxDailyUtilisation: number | null;
  status: LinkStatus;
  /** Over the per-day maximum of the in and out peak-hour utilisation. */
  forecast: ForecastResult;
  /** Whether the viewer's build-out threshold (user_settings *_buildout_*) is crossed; null: no figure. */
  buildoutDue: boolean | null;
  samplingConfidence: SamplingConfidence | null;
  /** 5-minute samples present (after picking one source per interval). */
  samples: number;
  interpolated: number;
  /** Sources of the chosen samples, in UTIL_SOURCES order. */
  sources: UtilSource[];
};

export type PlannerSummary = {
  links: number;
  /** Sum of known capacities. */
  totalCapacityBps: number;
  /** Sum of the links' billed 95th (links without samples count 0). */
  billedP95SumBps: number;
  statusCounts: Record<LinkStatus, number>;
  /** Links whose forecast crosses the viewer's build-out threshold. */
  buildoutDue: number;
};

/** One bucket; `complete`: the bucket lies wholly in the range and has ended (isCompleteBucket of app/lib/aggregation-window.ts). */
export type TimeseriesPoint = { time: number; inBps: number; outBps: number; complete: boolean };
export type PlannerTimeseries = {
  /** Bucket length in seconds (shell §9 aggregation windows). */
  bucketSeconds: number;
  /** Per bucket, the sum over the links of each link's mean bps over its samples in the bucket. */
  points: TimeseriesPoint[];
  /** Sum of the links' known capacities. */
  capacityBps: number;
};

export type HeatmapRow = { key: string; label: string; values: (number | null)[] };
/** Daily maximum 5-minute utilisation (either direction) per link and day, or the spec's refusal. */
export type PlannerHeatmap = { ok: true; days: string[]; rows: HeatmapRow[] } | { ok: false; message: string };

export type DetailSample = {
  time: number;
  inBps: number;
  outBps: number;
  inUtilisation: number | null;
  outUtilisation: number | null;
  source: UtilSource;
  interpolated: boolean;
};
export type LinkDetail = { plan: LinkPlan; samples: DetailSample[] };

/** First and last 5-minute sample (unix s) of the kind's links; null when none. */
export type DatesWithData = { first: number | null; last: number | null };

/** Who plans: thresholds, build-out settings and timezone come from `settings`. */
export type Viewer = {
  userId: number;
  isDelegated: boolean;
  settings: UserSettingsJson;
  /** IANA name (= settings.timezone). */
  timezone: string;
};

export type PlanOptions = {
  kind: LinkKind;
  range: PlanRange;
  /** Only these link keys (ExternalLink.key / InternalLink.key); all visible links when absent. */
  keys?: readonly string[];
};

/** A refused request: status 400 names the field, 404 an unknown link. */
export class PlannerError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export type { BuildoutType };

/*
 * Signatures of the service (plan.server.ts):
 *
 *   viewerFor(services, user: { id, isDelegated }): Promise<Viewer>
 *   visibleLinks(services, viewer, kind): Promise<PlannerLink[]>
 *   planLinks(services, viewer, options: PlanOptions): Promise<LinkPlan[]>
 *   plannerSummary(services, viewer, options: PlanOptions): Promise<PlannerSummary>
 *   plannerTimeseries(services, viewer, options: PlanOptions): Promise<PlannerTimeseries>
 *   plannerHeatmap(services, viewer, options: PlanOptions): Promise<PlannerHeatmap>
 *   linkDetail(services, viewer, kind, key, range, planned?): Promise<LinkDetail>   (PlannerError 404 for an unknown or hidden link)
 *   datesWithData(services, viewer, kind): Promise<DatesWithData>
 *
 * Ranges are checked (PlannerError 400 naming "start"/"end"): whole seconds, 5-minute aligned, start < end.
 */
