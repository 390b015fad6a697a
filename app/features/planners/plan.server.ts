/**
 * The planners' service: figures per link, summary, timeseries, heatmap, detail and dates with
 * data, for the Border Planner (external links) and the Core Planner (internal links), always per
 * the viewer's settings (thresholds, build-out type, timezone) and visibility. Screens, the JSON
 * calls and the build-out notifier use it; docs/planners.md defines every figure.
 */
import { z } from "zod";
import { defaultWindow, isCompleteBucket } from "~/lib/aggregation-window";
import { FORECAST_HORIZON_DAYS, forecastBuildout } from "~/lib/forecast";
import { MESSAGES } from "~/lib/messages";
import { UTIL_SOURCES, type UtilSource } from "~/features/collector/snmp/util-source";
import { chQuery } from "~/server/clickhouse/query.server";
import { buildoutCrossing, type BuildoutLink } from "~/server/notifications/buildout-threshold.server";
import type { Services } from "~/server/services.server";
import { getUserSettings, type UserSettingsJson } from "~/server/settings/user-settings.server";
import {
  billedOf,
  dailyMaxOfDirections,
  dailyPeakHours,
  daysOfRange,
  heatmapAllowed,
  maxDailyOf,
  maxDailyUtilisation,
  linkStatus,
  rateOf,
  sampleUtilisation,
  SAMPLE_SECONDS,
  utilisationOf,
  type LocalDay,
  type Quarter,
} from "./figures";
import { linkTitle } from "./cells";
import { endsOf, linksVisibleTo } from "./links.server";
import { datesWithDataQuery, heatmapQuery, linkFiguresQuery, samplingConfidenceQuery, seriesQuery, timeseriesQuery } from "./sql";
import {
  LINK_STATUSES,
  PlannerError,
  type DatesWithData,
  type DetailSample,
  type LinkDetail,
  type LinkKind,
  type LinkPlan,
  type LinkStatus,
  type PlannerHeatmap,
  type PlannerLink,
  type PlannerSummary,
  type PlannerTimeseries,
  type PlanOptions,
  type PlanRange,
  type Viewer,
} from "./types";

const num = z.union([z.number(), z.string()]).transform(Number);
const FiguresRow = z.object({
  link: z.string(),
  quarters: z.array(num),
  quarter_in: z.array(num),
  quarter_out: z.array(num),
  quarter_samples: z.array(num),
  samples: num,
  interpolated: num,
  sources: z.array(z.string()),
  in_p95_bytes: num,
  out_p95_bytes: num,
});
const ConfidenceRow = z.object({ link: z.string(), ratio: num.nullable(), intervals: num });
const HeatmapRow = z.object({ link: z.string(), day: z.string(), max_bytes: num });
const TimeseriesRow = z.object({ bucket: num, in_bps: num, out_bps: num });
const SeriesRow = z.object({ link: z.string(), t: num, in_b: num, out_b: num, source: z.string(), interpolated: num });
const DatesRow = z.object({ first: num, last: num, rows: num });

/** The viewer of a user: settings with the spec's defaults, timezone from them. */
export async function viewerFor(services: Pick<Services, "pg">, user: { id: number; isDelegated: boolean }): Promise<Viewer> {
  const settings = await getUserSettings(services.pg.db, user.id);
  return { userId: user.id, isDelegated: user.isDelegated, settings, timezone: settings.timezone };
}

/** A range the planners accept: whole unix seconds, 5-minute aligned, start before end (400 naming the field otherwise). */
export function checkPlanRange(range: PlanRange): void {
  for (const field of ["start", "end"] as const) {
    const v = range[field];
    if (!Number.isSafeInteger(v) || v < 0) throw new PlannerError(400, `${field} must be a time in whole seconds`, field);
    if (v % SAMPLE_SECONDS !== 0) throw new PlannerError(400, `${field} must be a multiple of 5 minutes (300 seconds)`, field);
  }
  if (range.end <= range.start) throw new PlannerError(400, "end must be after start", "end");
}

export const thresholdsOf = (settings: UserSettingsJson, kind: LinkKind) =>
  kind === "external"
    ? { medium: settings.extlinks_util_threshold_medium, high: settings.extlinks_util_threshold_high }
    : { medium: settings.intlinks_util_threshold_medium, high: settings.intlinks_util_threshold_high };

/**
 * The user's timeseries thresholds (timeseries_util_threshold_*): levels of the planners' traffic
 * chart, as shares of the shown links' summed capacity. Apart from the planner's own thresholds on
 * purpose: a sum over many links reaches a share of the whole only after single links are busy, so
 * it wants lower levels.
 */
export const timeseriesThresholdsOf = (settings: UserSettingsJson) => ({
  medium: settings.timeseries_util_threshold_medium,
  high: settings.timeseries_util_threshold_high,
});

export const buildoutTypeOf = (settings: UserSettingsJson, kind: LinkKind) =>
  kind === "external" ? settings.extlinks_buildout_type : settings.intlinks_buildout_type;

/** The link as the build-out notifier names it. */
export function buildoutLinkOf(link: PlannerLink, forecast: { daysLeft: number | null; percentAtHorizon: number | null }): BuildoutLink {
  return link.kind === "external"
    ? { kind: "external", name: link.interface, router: link.router, daysLeft: forecast.daysLeft, percent: forecast.percentAtHorizon }
    : {
        kind: "internal",
        name: `${link.a.interface} → ${link.b.router} ${link.b.interface}`,
        router: link.a.router,
        daysLeft: forecast.daysLeft,
        percent: forecast.percentAtHorizon,
      };
}

/** The viewer's visible links of the kind, narrowed to `keys` when given. */
export async function visibleLinks(
  services: Pick<Services, "pg">,
  viewer: Pick<Viewer, "userId" | "isDelegated">,
  kind: LinkKind,
  keys?: readonly string[],
): Promise<PlannerLink[]> {
  const links = await linksVisibleTo(services, viewer, kind);
  if (!keys) return links;
  const wanted = new Set(keys);
  return links.filter((l) => wanted.has(l.key));
}

function orderedSources(seen: readonly string[]): UtilSource[] {
  return UTIL_SOURCES.filter((s) => seen.includes(s));
}

/** Figures of given links (visibility already applied). */
export async function planGivenLinks(
  services: Pick<Services, "ch">,
  settings: UserSettingsJson,
  kind: LinkKind,
  links: readonly PlannerLink[],
  range: PlanRange,
): Promise<LinkPlan[]> {
  checkPlanRange(range);
  if (!links.length) return [];
  const ends = endsOf(links);
  const [figureRows, confidenceRows] = await Promise.all([
    chQuery(services.ch, { ...linkFiguresQuery(ends, range), schema: FiguresRow }),
    chQuery(services.ch, { ...samplingConfidenceQuery(ends, range), schema: ConfidenceRow }),
  ]);
  const figures = new Map(figureRows.map((r) => [r.link, r]));
  const confidence = new Map(confidenceRows.map((r) => [r.link, r]));
  const days = daysOfRange(range, settings.timezone);
  const thresholds = thresholdsOf(settings, kind);
  const type = buildoutTypeOf(settings, kind);
  return links.map((link) => {
    const capacity = link.capacityBps;
    const p = figures.get(link.key);
    const q: Quarter[] = p
      ? p.quarters.map((start, i) => ({ start, inBytes: p.quarter_in[i], outBytes: p.quarter_out[i], samples: p.quarter_samples[i] }))
      : [];
    const inDaily = dailyPeakHours(q, days, capacity, "in");
    const outDaily = dailyPeakHours(q, days, capacity, "out");
    const inP95 = p && p.samples > 0 ? rateOf((p.in_p95_bytes * 8) / SAMPLE_SECONDS, capacity) : null;
    const outP95 = p && p.samples > 0 ? rateOf((p.out_p95_bytes * 8) / SAMPLE_SECONDS, capacity) : null;
    const maxDaily = maxDailyUtilisation(inDaily, outDaily);
    const forecast = forecastBuildout(dailyMaxOfDirections(inDaily, outDaily), {
      level: thresholds.high,
      type,
      horizonDays: FORECAST_HORIZON_DAYS,
    });
    const c = confidence.get(link.key);
    return {
      link,
      capacityBps: capacity,
      in: { daily: inDaily, maxDaily: maxDailyOf(inDaily, capacity), p95: inP95 },
      out: { daily: outDaily, maxDaily: maxDailyOf(outDaily, capacity), p95: outP95 },
      billedP95: billedOf(inP95, outP95),
      maxDailyUtilisation: maxDaily,
      status: linkStatus(maxDaily, thresholds),
      forecast,
      buildoutDue: buildoutCrossing(settings, buildoutLinkOf(link, forecast)).crossed,
      samplingConfidence: c && c.ratio !== null && c.intervals > 0 ? { ratio: c.ratio, intervals: c.intervals } : null,
      samples: p?.samples ?? 0,
      interpolated: p?.interpolated ?? 0,
      sources: orderedSources(p?.sources ?? []),
    };
  });
}

/** Figures of every link of the kind the viewer may see (or those of `keys`), in key order. */
export async function planLinks(services: Pick<Services, "pg" | "ch">, viewer: Viewer, options: PlanOptions): Promise<LinkPlan[]> {
  checkPlanRange(options.range);
  const links = await visibleLinks(services, viewer, options.kind, options.keys);
  return planGivenLinks(services, { ...viewer.settings, timezone: viewer.timezone }, options.kind, links, options.range);
}

/** The summary of planLinks' links. */
export function summarise(plans: readonly LinkPlan[]): PlannerSummary {
  const statusCounts = Object.fromEntries(LINK_STATUSES.map((s) => [s, 0])) as Record<LinkStatus, number>;
  let totalCapacityBps = 0;
  let billedP95SumBps = 0;
  let buildoutDue = 0;
  for (const p of plans) {
    statusCounts[p.status] += 1;
    totalCapacityBps += p.capacityBps ?? 0;
    billedP95SumBps += p.billedP95?.bps ?? 0;
    if (p.buildoutDue) buildoutDue += 1;
  }
  return { links: plans.length, totalCapacityBps, billedP95SumBps, statusCounts, buildoutDue };
}

export async function plannerSummary(services: Pick<Services, "pg" | "ch">, viewer: Viewer, options: PlanOptions): Promise<PlannerSummary> {
  return summarise(await planLinks(services, viewer, options));
}

/**
 * Sum of the links' rates per bucket of the range's aggregation window (shell §9), each bucket
 * flagged complete or not as of `now` (a day cut by the range's end is a mean over its morning only).
 */
export async function plannerTimeseries(
  services: Pick<Services, "pg" | "ch">,
  viewer: Viewer,
  options: PlanOptions,
  now = Math.floor(Date.now() / 1000),
): Promise<PlannerTimeseries> {
  checkPlanRange(options.range);
  const links = await visibleLinks(services, viewer, options.kind, options.keys);
  const bucketSeconds = defaultWindow(options.range);
  const capacityBps = links.reduce((sum, l) => sum + (l.capacityBps ?? 0), 0);
  if (!links.length) return { bucketSeconds, points: [], capacityBps };
  const rows = await chQuery(services.ch, { ...timeseriesQuery(endsOf(links), options.range, bucketSeconds), schema: TimeseriesRow });
  const bounds = { ...options.range, window: bucketSeconds, now };
  const points = rows.map((r) => ({ time: r.bucket, inBps: r.in_bps, outBps: r.out_bps, complete: isCompleteBucket(r.bucket, bounds) }));
  return { bucketSeconds, points, capacityBps };
}

/** Daily maximum 5-minute utilisation per link and day; refused beyond MAX_HEATMAP_DAYS days. */
export async function plannerHeatmap(services: Pick<Services, "pg" | "ch">, viewer: Viewer, options: PlanOptions): Promise<PlannerHeatmap> {
  checkPlanRange(options.range);
  const days: LocalDay[] = daysOfRange(options.range, viewer.timezone);
  if (!heatmapAllowed(days)) return { ok: false, message: MESSAGES.heatmapRangeTooLong };
  const links = await visibleLinks(services, viewer, options.kind, options.keys);
  const dayNames = days.map((d) => d.day);
  if (!links.length) return { ok: true, days: dayNames, rows: [] };
  const rows = await chQuery(services.ch, { ...heatmapQuery(endsOf(links), options.range, viewer.timezone), schema: HeatmapRow });
  const index = new Map(dayNames.map((d, i) => [d, i]));
  const byLink = new Map(links.map((link) => [link.key, { link, values: dayNames.map((): number | null => null) }]));
  for (const r of rows) {
    const entry = byLink.get(r.link);
    const i = index.get(r.day);
    if (entry && i !== undefined) entry.values[i] = sampleUtilisation(r.max_bytes, entry.link.capacityBps);
  }
  return {
    ok: true,
    days: dayNames,
    rows: links.map((l) => ({ key: l.key, label: linkTitle({ link: l }), values: byLink.get(l.key)!.values })),
  };
}

/** One link's figures with its 5-minute samples; 404 when the viewer may not see it or it does not exist. */
export async function linkDetail(
  services: Pick<Services, "pg" | "ch">,
  viewer: Viewer,
  kind: LinkKind,
  key: string,
  range: PlanRange,
  /** The link's plan over the same range when the caller has it already (the screen plans every link): not computed again. */
  planned?: LinkPlan,
): Promise<LinkDetail> {
  checkPlanRange(range);
  const links = await visibleLinks(services, viewer, kind, [key]);
  if (!links.length) throw new PlannerError(404, `No ${kind} link ${key}`, "key");
  const [[plan], rows] = await Promise.all([
    planned?.link.key === key ? [planned] : planGivenLinks(services, { ...viewer.settings, timezone: viewer.timezone }, kind, links, range),
    chQuery(services.ch, { ...seriesQuery(endsOf(links), range), schema: SeriesRow }),
  ]);
  const capacity = links[0].capacityBps;
  const samples: DetailSample[] = rows.map((r) => {
    const inBps = (r.in_b * 8) / SAMPLE_SECONDS;
    const outBps = (r.out_b * 8) / SAMPLE_SECONDS;
    return {
      time: r.t,
      inBps,
      outBps,
      inUtilisation: utilisationOf(inBps, capacity),
      outUtilisation: utilisationOf(outBps, capacity),
      source: (UTIL_SOURCES as readonly string[]).includes(r.source) ? (r.source as UtilSource) : "demo",
      interpolated: r.interpolated === 1,
    };
  });
  return { plan, samples };
}

/** First and last sample of the viewer's links of the kind. */
export async function datesWithData(services: Pick<Services, "pg" | "ch">, viewer: Viewer, kind: LinkKind): Promise<DatesWithData> {
  const links = await visibleLinks(services, viewer, kind);
  const ends = endsOf(links);
  if (!ends.length) return { first: null, last: null };
  const [row] = await chQuery(services.ch, { ...datesWithDataQuery(ends), schema: DatesRow });
  return row && row.rows > 0 ? { first: row.first, last: row.last } : { first: null, last: null };
}
