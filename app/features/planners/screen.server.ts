/**
 * The data of the planner screens (/border-planner, /core-planner), computed on the server from the
 * URL so the screens work without JavaScript: the range and controls (params.ts), the links the
 * viewer may see (the kernel's links.server.ts decides; nothing else is read), their figures, the
 * summary, the timeseries, the link table (filtered, sorted, grouped, one page), the heatmap of the
 * page's links and, when a link is chosen, its detail with the traffic by AS from the flows.
 * Every figure comes from the kernel's plan.server.ts; this module only selects, orders and formats.
 *
 * ClickHouse is read as little as the figures allow: the figures' one scan (with the sampling
 * confidence beside it) also gives the timeseries and the heatmap, the dates with data and a
 * detail's samples are one query each, and all of it goes through the result cache
 * (result-cache.server.ts) under the viewer's restriction scope, so the same range opened again
 * within its 5-minute bucket (a detail, another page, a sort) reads nothing again.
 */
import { formatDateShort, formatUnixRange } from "~/lib/date-format";
import { matchesNumericFilter } from "~/lib/numeric-filter";
import { PRESET_LABELS, DATE_RANGE_PRESETS } from "~/lib/time-range";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { columnsOf, findColumn, isNumericColumn, takesNumericFilter, type ScreenKind } from "./columns";
import { groupOf, linkTitle, plannerRow, type PlannerRow } from "./cells";
import { thinToPixelColumns } from "~/lib/series-thinning";
import { inTurn } from "~/server/clickhouse/limits.server";
import { plotColumns, UTILISATION_CHART_MARGIN } from "./chart-geometry";
import { restrictionScope } from "~/server/result-cache.server";
import { interfaceStatistics, type InterfaceStatisticsRow } from "./interface-statistics.server";
import { PAGE_SIZE, parsePlannerParams, plannerSearch, resolvePlannerRange, type PlannerParams } from "./params";
import {
  datesWithData,
  heatmapOfQuarters,
  linkDetail,
  plannerTimeseries,
  planWithQuarters,
  summarise,
  thresholdsOf,
  timeseriesOfQuarters,
  timeseriesThresholdsOf,
  viewerFor,
  visibleLinks,
} from "./plan.server";
import {
  PlannerError,
  type DatesWithData,
  type LinkKind,
  type LinkPlan,
  type PlannerHeatmap,
  type PlannerLink,
  type PlannerSummary,
  type PlannerTimeseries,
} from "./types";

/** Rows of the traffic-by-AS tables of a link's detail. */
export const DETAIL_AS_ROWS = 10;

export type PlannerGroup = { key: string; label: string; rows: PlannerRow[] };

export type PlannerDetail = {
  key: string;
  title: string;
  plan: LinkPlan;
  /**
   * The 5-minute samples the chart draws, as [time, in utilisation, out utilisation] (null: capacity
   * unknown): all of them up to two per pixel column of its plot, beyond that each column's lowest
   * and highest of either direction (thinToPixelColumns), so a spike of one sample still shows. The
   * figures and the daily table come from every sample (plan).
   */
  samples: [number, number | null, number | null][];
  interpolated: number;
  /** External links: the traffic by source AS coming in, by destination AS going out. */
  trafficIn: InterfaceStatisticsRow[] | null;
  trafficOut: InterfaceStatisticsRow[] | null;
};

export type PlannerScreenData = {
  screen: ScreenKind;
  params: PlannerParams;
  /** The canonical search string of the state ("" or "?…"). */
  search: string;
  timezone: string;
  range: { start: number; end: number };
  rangeLabel: string;
  /** The form's date fields: ISO days of the range's first and last day. */
  rangeDays: { start: string; end: string };
  presets: { value: string; label: string }[];
  /**
   * The user's thresholds of the planner (extlinks_/intlinks_util_threshold_*): the one source of the
   * links' status, the Status filter, the detail chart's lines and the forecast's level.
   */
  thresholds: { medium: number; high: number };
  /** The user's timeseries thresholds (timeseries_util_threshold_*): the traffic chart's levels. */
  timeseriesThresholds: { medium: number; high: number };
  notices: string[];
  isStaff: boolean;
  /** The viewer may create alert rules: an external link's detail offers one on its traffic (Alerts, an extension). */
  showAlertOnView: boolean;
  /** No link at all the viewer may see (the empty state). */
  noLinks: boolean;
  dates: DatesWithData;
  /** The links of the table after the filters, before paging. */
  summary: PlannerSummary;
  /** No 5-minute sample for any shown link in the range (the no-data state). */
  noData: boolean;
  timeseries: PlannerTimeseries | null;
  heatmap: PlannerHeatmap | null;
  groups: PlannerGroup[];
  totalRows: number;
  page: number;
  pages: number;
  /** Choices of the filter form. */
  options: { routers: string[]; interfaces: string[]; asns: { asn: number; label: string }[]; pairs: PairOption[] };
  detail: PlannerDetail | null;
};

export type PairOption = { key: string; label: string; inRouter: string; startInterface: string; outRouter: string; endInterface: string };

const KIND: Record<ScreenKind, LinkKind> = { border: "external", core: "internal" };

/** The links the filters of the address keep (AS, router, interface; the Core Planner's pair). */
function filterLinks(links: readonly PlannerLink[], p: PlannerParams, notices: string[]): PlannerLink[] {
  let out = [...links];
  if (p.screen === "core" && p.pair) {
    const { inRouter, startInterface, outRouter, endInterface } = p.pair;
    const matches = (l: PlannerLink) =>
      l.kind === "internal" &&
      ((l.a.router === inRouter && l.a.interface === startInterface && l.b.router === outRouter && l.b.interface === endInterface) ||
        (l.b.router === inRouter && l.b.interface === startInterface && l.a.router === outRouter && l.a.interface === endInterface));
    const found = out.filter(matches);
    if (found.length) out = found;
    else
      notices.push(
        `${inRouter} ${startInterface} → ${outRouter} ${endInterface} is not an internal link of the inventory; all links are shown.`,
      );
  }
  const has = (list: readonly string[], v: string) => !list.length || list.includes(v);
  return out.filter((l) => {
    if (l.kind === "external")
      return (
        (!p.asns.length || (l.neighbourAs !== null && p.asns.includes(l.neighbourAs))) &&
        has(p.routers, l.router) &&
        has(p.interfaces, l.interface)
      );
    return (
      (!p.routers.length || p.routers.includes(l.a.router) || p.routers.includes(l.b.router)) &&
      (!p.interfaces.length || p.interfaces.includes(l.a.interface) || p.interfaces.includes(l.b.interface))
    );
  });
}

/** Sorts by the chosen column; missing values last in either order; ties by link key (stable pages). */
export function sortPlans(screen: ScreenKind, plans: readonly LinkPlan[], column: string, order: "asc" | "desc"): LinkPlan[] {
  const def = findColumn(screen, column) ?? findColumn(screen, "status")!;
  const sign = order === "asc" ? 1 : -1;
  return [...plans].sort((x, y) => {
    const a = def.value(x);
    const b = def.value(y);
    if (a === null && b !== null) return 1;
    if (b === null && a !== null) return -1;
    if (a !== null && b !== null && a !== b) {
      const c = typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b), "en", { numeric: true });
      if (c !== 0) return sign * c;
    }
    return x.link.key.localeCompare(y.link.key);
  });
}

/** Keeps the plans whose columns pass the '>' / '<' filters and the Status filter of the address. */
export function applyColumnFilters(screen: ScreenKind, plans: readonly LinkPlan[], p: PlannerParams): LinkPlan[] {
  return plans.filter(
    (plan) =>
      (!p.statuses.length || p.statuses.includes(plan.status)) &&
      p.filters.every((f) => {
        const def = findColumn(screen, f.column);
        return def && takesNumericFilter(def) ? matchesNumericFilter(def.value(plan), p.typedFilters[f.column]) : true;
      }),
  );
}

/**
 * The Border Planner's order: the links of a group together, the groups in the order of their first
 * link, the links of a group in the chosen order. Applied before paging (a group is not scattered
 * over pages) and by the export (the file reads like the table).
 */
export function groupedOrder(plans: readonly LinkPlan[], grouping: PlannerParams["group"]): LinkPlan[] {
  const groups = new Map<string, LinkPlan[]>();
  for (const plan of plans) {
    const key = groupOf(plan, grouping).key;
    groups.set(key, [...(groups.get(key) ?? []), plan]);
  }
  return [...groups.values()].flat();
}

/** Filters, figures, column filters and order of the screen's links (the table and the exports share it). */
export async function plannedRows(
  services: Pick<Services, "pg" | "ch">,
  user: Pick<UserContext, "id" | "isDelegated">,
  screen: ScreenKind,
  url: URL,
  now = Math.floor(Date.now() / 1000),
) {
  const viewer = await viewerFor(services, user);
  const params = parsePlannerParams(screen, url.searchParams, viewer.timezone);
  const notices = [...params.notices];
  const range = resolvePlannerRange(params, now, viewer.timezone);
  const kind = KIND[screen];
  const all = await visibleLinks(services, viewer, kind);
  const links = filterLinks(all, params, notices);
  const { plans, quarters } = await planWithQuarters(services, viewer.settings, kind, links, range, restrictionScope(viewer));
  const sorted = sortPlans(screen, applyColumnFilters(screen, plans, params), params.sort, params.order);
  const shown = screen === "border" ? groupedOrder(sorted, params.group) : sorted;
  return { viewer, params, notices, range, kind, all, links, plans, quarters, shown };
}

export async function loadPlannerScreen(
  services: Services,
  user: UserContext,
  screen: ScreenKind,
  url: URL,
  now = Math.floor(Date.now() / 1000),
): Promise<PlannerScreenData> {
  const { viewer, params, notices, range, kind, all, plans, quarters, shown } = await plannedRows(services, user, screen, url, now);
  const tz = viewer.timezone;
  const summary = summarise(shown);
  const noData = shown.every((p) => p.samples === 0);

  // One page of the (grouped) order; a group split by a page break shows its header on both pages.
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  let page = params.page;
  if (page > pages) {
    notices.push(`page=${page} is past the last page (${pages}); the last page is shown.`);
    page = pages;
  }
  const slice = shown.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const groups: PlannerGroup[] = [];
  for (const plan of slice) {
    const g = screen === "border" ? groupOf(plan, params.group) : { key: "", label: "" };
    let group = groups.find((x) => x.key === g.key);
    if (!group) groups.push((group = { ...g, rows: [] }));
    group.rows.push(plannerRow(screen, plan, params.columns));
  }

  const shownLinks = shown.map((p) => p.link);
  // The heatmap's rows in the catalogue's order, as plannerHeatmap gives them.
  const pageKeys = new Set(slice.map((p) => p.link.key));
  const pageLinks = all.filter((l) => pageKeys.has(l.key));
  const heatmap = pageLinks.length ? heatmapOfQuarters(pageLinks, quarters, range, tz) : null;
  // In turn, not all at once: on the embedded engine they would only queue behind each other (inTurn).
  const [dates, timeseries, detail] = await inTurn(
    services.ch.limiter.settings.perUser,
    () => datesWithData(services, viewer, kind, all),
    async () =>
      shownLinks.length
        ? (timeseriesOfQuarters(shownLinks, quarters, range, now) ??
          plannerTimeseries(services, viewer, { kind, range, keys: shownLinks.map((l) => l.key) }, now))
        : null,
    async () =>
      params.link
        ? loadDetail(
            services,
            viewer,
            kind,
            params.link,
            range,
            now,
            notices,
            plans.find((p) => p.link.key === params.link),
            all,
          )
        : null,
  );

  const lastDay = formatDateShort((range.end - 1) * 1000, tz);
  const external = all.filter((l) => l.kind === "external");
  const asns = [...new Map(external.filter((l) => l.neighbourAs !== null).map((l) => [l.neighbourAs!, l])).values()]
    .map((l) => ({ asn: l.neighbourAs!, label: l.asName ? `AS${l.neighbourAs} ${l.asName}` : `AS${l.neighbourAs}` }))
    .sort((a, b) => a.asn - b.asn);
  const routers = [...new Set(all.flatMap((l) => (l.kind === "external" ? [l.router] : [l.a.router, l.b.router])))].sort();
  const interfaces = [...new Set(all.flatMap((l) => (l.kind === "external" ? [l.interface] : [l.a.interface, l.b.interface])))].sort();
  const pairs = all.flatMap((l): PairOption[] =>
    l.kind === "internal"
      ? [
          {
            key: l.key,
            label: `${l.a.router} ${l.a.interface} → ${l.b.router} ${l.b.interface}`,
            inRouter: l.a.router,
            startInterface: l.a.interface,
            outRouter: l.b.router,
            endInterface: l.b.interface,
          },
        ]
      : [],
  );

  return {
    screen,
    params: { ...params, page },
    search: plannerSearch({ ...params, page }),
    timezone: tz,
    range,
    rangeLabel: formatUnixRange(range.start, range.end, tz),
    rangeDays: { start: formatDateShort(range.start * 1000, tz), end: lastDay },
    presets: DATE_RANGE_PRESETS.map((p) => ({ value: p, label: PRESET_LABELS[p] })),
    thresholds: thresholdsOf(viewer.settings, kind),
    timeseriesThresholds: timeseriesThresholdsOf(viewer.settings),
    notices,
    isStaff: user.isStaff || user.isSuperuser,
    showAlertOnView: user.permissions.includes("MANAGE_ALERTS") && user.permissions.includes("VIEW_ALERTS"),
    noLinks: all.length === 0,
    dates,
    summary,
    noData,
    timeseries,
    heatmap,
    groups,
    totalRows: shown.length,
    page,
    pages,
    options: { routers, interfaces, asns, pairs },
    detail,
  };
}

/** A utilisation as the chart draws it: to a millionth (0.0001 %), far below a pixel, in a few digits of the page. */
const drawnShare = (u: number | null) => (u === null ? null : Math.round(u * 1e6) / 1e6);

async function loadDetail(
  services: Services,
  viewer: Awaited<ReturnType<typeof viewerFor>>,
  kind: LinkKind,
  key: string,
  range: { start: number; end: number },
  now: number,
  notices: string[],
  planned: LinkPlan | undefined,
  visible: readonly PlannerLink[],
): Promise<PlannerDetail | null> {
  try {
    const { plan, samples } = await linkDetail(services, viewer, kind, key, range, planned, visible);
    const scope = restrictionScope(viewer);
    const link = plan.link;
    const [trafficIn, trafficOut] =
      link.kind === "external"
        ? await inTurn(
            services.ch.limiter.settings.perUser,
            () =>
              interfaceStatistics(
                services,
                { id: viewer.userId },
                {
                  router: link.router,
                  interface: link.interface,
                  direction: "in",
                  scope,
                  dimension: "source",
                  range,
                  limit: DETAIL_AS_ROWS,
                  now,
                },
              ),
            () =>
              interfaceStatistics(
                services,
                { id: viewer.userId },
                {
                  router: link.router,
                  interface: link.interface,
                  direction: "out",
                  scope,
                  dimension: "destination",
                  range,
                  limit: DETAIL_AS_ROWS,
                  now,
                },
              ),
          )
        : [null, null];
    return {
      key,
      title: linkTitle(plan),
      plan,
      samples: thinToPixelColumns(
        samples.map((s): [number, number | null, number | null] => [s.time, drawnShare(s.inUtilisation), drawnShare(s.outUtilisation)]),
        { x: ([t]) => t, y: [([, i]) => i, ([, , o]) => o], columns: plotColumns(UTILISATION_CHART_MARGIN) },
      ),
      interpolated: samples.filter((s) => s.interpolated).length,
      trafficIn,
      trafficOut,
    };
  } catch (e) {
    // A link that does not exist or is not the viewer's reads the same: no detail, a notice.
    if (e instanceof PlannerError && e.status === 404) {
      notices.push(`link=${key.length > 60 ? `${key.slice(0, 60)}…` : key} is not a link you can see; no detail is shown.`);
      return null;
    }
    throw e;
  }
}

export const columnsFor = (screen: ScreenKind) =>
  columnsOf(screen).map((c) => ({ id: c.id, label: c.label[screen], numeric: isNumericColumn(c) }));
