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
import { inTurn } from "~/server/clickhouse/limits.server";
import { chQuery, type CheckedRead } from "~/server/clickhouse/query.server";
import { cachedQuery, canonicalJson, restrictionScope } from "~/server/result-cache.server";
import { buildoutCrossing, type BuildoutLink } from "~/server/notifications/buildout-threshold.server";
import type { Services } from "~/server/services.server";
import { getUserSettings, type UserSettingsJson } from "~/server/settings/user-settings.server";
import {
  billedOf,
  dailyMaxOfDirections,
  dailyPeakHours,
  dayIndex,
  daysOfRange,
  heatmapAllowed,
  maxDailyOf,
  maxDailyUtilisation,
  linkStatus,
  rateOf,
  QUARTER_SECONDS,
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
  quarter_max: z.array(num),
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

/**
 * A read of the planners: through the result cache when the viewer is known (`scope`, their
 * restriction scope: the screens and the JSON calls), straight to ClickHouse otherwise (background
 * work such as the build-out notifier, which must see the newest samples).
 */
function read<S extends z.ZodType>(
  services: Pick<Services, "ch">,
  query: CheckedRead<S>,
  scope: string | undefined,
): Promise<z.output<S>[]> {
  return scope === undefined ? chQuery(services.ch, query) : cachedQuery(services.ch, query, scope);
}

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

/**
 * One link's quarter hours from the figures' scan (parallel arrays, start ascending): the bytes in
 * and out, the samples, and the largest 5-minute byte count of either direction. The screens derive
 * the timeseries and the heatmap from them instead of scanning the samples again. Shared between
 * requests (see planWithQuarters): read-only.
 */
export type LinkQuarters = { starts: number[]; inBytes: number[]; outBytes: number[]; samples: number[]; maxBytes: number[] };

/** Figures of given links (visibility already applied). */
export async function planGivenLinks(
  services: Pick<Services, "ch">,
  settings: UserSettingsJson,
  kind: LinkKind,
  links: readonly PlannerLink[],
  range: PlanRange,
  /** The viewer's restriction scope (restrictionScope): the reads go through the result cache. */
  scope?: string,
): Promise<LinkPlan[]> {
  return (await planWithQuarters(services, settings, kind, links, range, scope)).plans;
}

/** planGivenLinks with the quarter hours of each link it read (by link key). */
export async function planWithQuarters(
  services: Pick<Services, "ch">,
  settings: UserSettingsJson,
  kind: LinkKind,
  links: readonly PlannerLink[],
  range: PlanRange,
  scope?: string,
): Promise<{ plans: LinkPlan[]; quarters: Map<string, LinkQuarters> }> {
  checkPlanRange(range);
  if (!links.length) return { plans: [], quarters: new Map() };
  const ends = endsOf(links);
  // In turn, not at once: on the embedded engine the second would only queue behind the first (inTurn).
  const [figureRows, confidenceRows] = await inTurn(
    services.ch.limiter.settings.perUser,
    () => read(services, { ...linkFiguresQuery(ends, range), schema: FiguresRow }, scope),
    () => read(services, { ...samplingConfidenceQuery(ends, range), schema: ConfidenceRow }, scope),
  );
  // The rows of a cached read are the same objects on every hit: what was computed from them for
  // the same settings, links and range is kept beside them (and goes when the cache lets them go).
  const key = canonicalJson({ settings, kind, links, range });
  let computed = planMemo.get(figureRows)?.get(confidenceRows)?.get(key);
  if (!computed) {
    computed = plansOfRows(settings, kind, links, range, figureRows, confidenceRows);
    let byConfidence = planMemo.get(figureRows);
    if (!byConfidence) planMemo.set(figureRows, (byConfidence = new WeakMap()));
    let byKey = byConfidence.get(confidenceRows);
    if (!byKey) byConfidence.set(confidenceRows, (byKey = new Map()));
    // Bounded: many filter combinations within one 5-minute bucket keep only the latest few.
    if (byKey.size >= PLAN_MEMO_PER_READ) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, computed);
  }
  return computed;
}

type FiguresRows = z.output<typeof FiguresRow>[];
type ConfidenceRows = z.output<typeof ConfidenceRow>[];
type Planned = { plans: LinkPlan[]; quarters: Map<string, LinkQuarters> };
const PLAN_MEMO_PER_READ = 16;
/** planWithQuarters' results by the read rows they came from (identity) and their inputs (canonical JSON). */
const planMemo = new WeakMap<FiguresRows, WeakMap<ConfidenceRows, Map<string, Planned>>>();

/** The figures of the links from the rows of the figures' scan and of the sampling confidence. */
function plansOfRows(
  settings: UserSettingsJson,
  kind: LinkKind,
  links: readonly PlannerLink[],
  range: PlanRange,
  figureRows: FiguresRows,
  confidenceRows: ConfidenceRows,
): Planned {
  const figures = new Map(figureRows.map((r) => [r.link, r]));
  const confidence = new Map(confidenceRows.map((r) => [r.link, r]));
  const quarters = new Map(
    figureRows.map((r): [string, LinkQuarters] => [
      r.link,
      { starts: r.quarters, inBytes: r.quarter_in, outBytes: r.quarter_out, samples: r.quarter_samples, maxBytes: r.quarter_max },
    ]),
  );
  const days = daysOfRange(range, settings.timezone);
  const thresholds = thresholdsOf(settings, kind);
  const type = buildoutTypeOf(settings, kind);
  const plans = links.map((link): LinkPlan => {
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
  return { plans, quarters };
}

/** Figures of every link of the kind the viewer may see (or those of `keys`), in key order. */
export async function planLinks(services: Pick<Services, "pg" | "ch">, viewer: Viewer, options: PlanOptions): Promise<LinkPlan[]> {
  checkPlanRange(options.range);
  const links = await visibleLinks(services, viewer, options.kind, options.keys);
  return planGivenLinks(
    services,
    { ...viewer.settings, timezone: viewer.timezone },
    options.kind,
    links,
    options.range,
    restrictionScope(viewer),
  );
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
  const rows = await read(
    services,
    { ...timeseriesQuery(endsOf(links), options.range, bucketSeconds), schema: TimeseriesRow },
    restrictionScope(viewer),
  );
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
  const rows = await read(
    services,
    { ...heatmapQuery(endsOf(links), options.range, viewer.timezone), schema: HeatmapRow },
    restrictionScope(viewer),
  );
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

/**
 * plannerTimeseries from the quarter hours of the figures' scan (planWithQuarters), no query: per
 * bucket the sum over the links of each link's mean rate over its samples there. Null when the
 * range's window is shorter than a quarter hour (5-minute buckets: ranges of a day or less), which
 * the quarter sums cannot split; the caller asks plannerTimeseries then.
 */
export function timeseriesOfQuarters(
  links: readonly PlannerLink[],
  quarters: ReadonlyMap<string, LinkQuarters>,
  range: PlanRange,
  now: number,
): PlannerTimeseries | null {
  const bucketSeconds = defaultWindow(range);
  if (bucketSeconds % QUARTER_SECONDS !== 0) return null;
  const capacityBps = links.reduce((sum, l) => sum + (l.capacityBps ?? 0), 0);
  // The sums depend on the links and the window only, so they are kept beside the (shared) quarters
  // like the plans; whether a bucket is complete depends on now and is said per request.
  const key = `${bucketSeconds}|${links.map((l) => l.key).join(",")}`;
  let byKey = timeseriesMemo.get(quarters);
  if (!byKey) timeseriesMemo.set(quarters, (byKey = new Map()));
  let sums = byKey.get(key);
  if (!sums) {
    sums = bucketSums(links, quarters, bucketSeconds);
    if (byKey.size >= PLAN_MEMO_PER_READ) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, sums);
  }
  const bounds = { ...range, window: bucketSeconds, now };
  const points = sums.map(([time, inBps, outBps]) => ({ time, inBps, outBps, complete: isCompleteBucket(time, bounds) }));
  return { bucketSeconds, points, capacityBps };
}

/** timeseriesOfQuarters' bucket sums by the quarters they came from (identity) and the links and window. */
const timeseriesMemo = new WeakMap<ReadonlyMap<string, LinkQuarters>, Map<string, [number, number, number][]>>();

/** Per bucket (time order) the sum over the links of each link's mean rate in and out over its samples there. */
function bucketSums(
  links: readonly PlannerLink[],
  quarters: ReadonlyMap<string, LinkQuarters>,
  bucketSeconds: number,
): [number, number, number][] {
  // Per link and bucket its bytes and samples (a quarter lies inside one bucket: both are aligned
  // in UTC; the scan's quarters come in no particular order), then the links' mean rates summed.
  const buckets = new Map<number, { inBps: number; outBps: number }>();
  for (const link of links) {
    const q = quarters.get(link.key);
    if (!q) continue;
    const own = new Map<number, { inBytes: number; outBytes: number; n: number }>();
    for (let i = 0; i < q.starts.length; i++) {
      const bucket = Math.floor(q.starts[i] / bucketSeconds) * bucketSeconds;
      const b = own.get(bucket) ?? { inBytes: 0, outBytes: 0, n: 0 };
      b.inBytes += q.inBytes[i];
      b.outBytes += q.outBytes[i];
      b.n += q.samples[i];
      own.set(bucket, b);
    }
    for (const [bucket, b] of own) {
      if (!b.n) continue;
      const sum = buckets.get(bucket) ?? { inBps: 0, outBps: 0 };
      sum.inBps += (b.inBytes * 8) / (b.n * SAMPLE_SECONDS);
      sum.outBps += (b.outBytes * 8) / (b.n * SAMPLE_SECONDS);
      buckets.set(bucket, sum);
    }
  }
  return [...buckets].sort(([a], [b]) => a - b).map(([time, v]) => [time, v.inBps, v.outBps]);
}

/**
 * plannerHeatmap from the quarter hours of the figures' scan, no query: per link and local day the
 * largest 5-minute utilisation. A quarter hour lies inside one local day (days change on quarter
 * hours in every timezone, as daysOfRange assumes); the range's first quarter may begin before the
 * range, its samples do not.
 */
export function heatmapOfQuarters(
  links: readonly PlannerLink[],
  quarters: ReadonlyMap<string, LinkQuarters>,
  range: PlanRange,
  timezone: string,
): PlannerHeatmap {
  const days: LocalDay[] = daysOfRange(range, timezone);
  if (!heatmapAllowed(days)) return { ok: false, message: MESSAGES.heatmapRangeTooLong };
  return {
    ok: true,
    days: days.map((d) => d.day),
    rows: links.map((link) => {
      const most = days.map((): number | null => null);
      const q = quarters.get(link.key);
      if (q)
        for (let i = 0; i < q.starts.length; i++) {
          if (!q.samples[i]) continue;
          const d = dayIndex(days, Math.max(q.starts[i], range.start));
          if (d >= 0 && (most[d] === null || q.maxBytes[i] > most[d]!)) most[d] = q.maxBytes[i];
        }
      return {
        key: link.key,
        label: linkTitle({ link }),
        values: most.map((bytes) => (bytes === null ? null : sampleUtilisation(bytes, link.capacityBps))),
      };
    }),
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
  /** The viewer's visible links of the kind when the caller has read them already. */
  visible?: readonly PlannerLink[],
): Promise<LinkDetail> {
  checkPlanRange(range);
  const links = visible ? visible.filter((l) => l.key === key) : await visibleLinks(services, viewer, kind, [key]);
  if (!links.length) throw new PlannerError(404, `No ${kind} link ${key}`, "key");
  const [[plan], rows] = await inTurn(
    services.ch.limiter.settings.perUser,
    async () =>
      planned?.link.key === key
        ? [planned]
        : planGivenLinks(services, { ...viewer.settings, timezone: viewer.timezone }, kind, links, range, restrictionScope(viewer)),
    () => read(services, { ...seriesQuery(endsOf(links), range), schema: SeriesRow }, restrictionScope(viewer)),
  );
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
export async function datesWithData(
  services: Pick<Services, "pg" | "ch">,
  viewer: Viewer,
  kind: LinkKind,
  /** The viewer's visible links of the kind when the caller has read them already. */
  visible?: readonly PlannerLink[],
): Promise<DatesWithData> {
  const links = visible ?? (await visibleLinks(services, viewer, kind));
  const ends = endsOf(links);
  if (!ends.length) return { first: null, last: null };
  const [row] = await read(services, { ...datesWithDataQuery(ends), schema: DatesRow }, restrictionScope(viewer));
  return row && row.rows > 0 ? { first: row.first, last: row.last } : { first: null, last: null };
}
