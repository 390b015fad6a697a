/**
 * The link-utilisation calls (RNA API §7, api/linkutil/*) over the planners' service: the request as
 * the routes validated it (api-schema.ts) → the viewer, the range and the links asked for → the
 * service's figures as the documented JSON (docs/api.md, "Link utilisation").
 *
 * Access (docs/api.md, "Link utilisation"): the external calls need API_LINK_UTIL_EXTERNAL, the
 * internal ones API_LINK_UTIL_INTERNAL (the routes' access rules). 95th-percentile figures are
 * answered only to holders of LINK_UTILIZATION_95TH; for anybody else those fields are left out
 * (the rest of the answer is the same), rather than refusing the whole call. A delegated account
 * sees only the links the kernel's catalogue lets it see (links.server.ts).
 */
import { z } from "zod";
import { MESSAGES } from "~/lib/messages";
import type { Permission } from "~/lib/permissions";
import { ApiProblem } from "~/server/api/contract.server";
import { readDelegation } from "~/server/auth/delegation.server";
import type { UserContext } from "~/server/auth/user-context.server";
import { chQuery } from "~/server/clickhouse/query.server";
import type { Services } from "~/server/services.server";
import {
  groupingOf,
  matchesLinkFilters,
  normalizeLinkFilters,
  resolveRange,
  type DateInput,
  type externalBodySchema,
  type Grouping,
  type interfacesQuerySchema,
  type interfaceStatisticsQuerySchema,
  type internalQuerySchema,
  type LinkFilter,
  type RangeFields,
  type ResolvedRange,
  type summaryBodySchema,
} from "./api-schema";
import { asColumn, DIMENSION_LABELS, FIVE_MINUTE_DAYS } from "./interface-statistics";
import { flowIntervalsQuery, flowP95Query, SAMPLE_SECONDS_OF, type FlowP95Input } from "./interface-statistics-p95";
import { interfaceStatistics } from "./interface-statistics.server";
import { datesWithData, planLinks, plannerSummary, plannerTimeseries, thresholdsOf, viewerFor, visibleLinks } from "./plan.server";
import {
  LINK_STATUS_LABELS,
  PlannerError,
  type DirectionFigures,
  type ExternalLink,
  type InternalLink,
  type LinkKind,
  type LinkPlan,
  type LinkStatus,
  type PlanRange,
  type Viewer,
} from "./types";

export const P95_PERMISSION: Permission = "LINK_UTILIZATION_95TH";
export const FLOW_P95_PERMISSION: Permission = "NETFLOW95TH";

/** Whether the caller may see the billing 95th percentile of links. */
export const sees95th = (user: UserContext) => user.permissions.includes(P95_PERMISSION);
/** Whether the caller may see the 95th percentile of flow traffic (interfacestatistics). */
export const seesFlow95th = (user: UserContext) => user.permissions.includes(FLOW_P95_PERMISSION);

/** A 400 naming the field, in the contract's shape. */
export function badInput(where: "query" | "body", field: string, message: string): ApiProblem {
  return new ApiProblem(400, {
    detail: where === "query" ? "Invalid query parameters." : "Invalid request body.",
    errors: [{ field, message }],
  });
}

/** The service's refusals as the contract's answers; the service names its range fields start/end, the call its own. */
async function service<T>(run: () => Promise<T>, where: "query" | "body", fields: RangeFields): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof PlannerError)) throw error;
    if (error.status === 404) throw new ApiProblem(404, { detail: error.message });
    const field = error.field === "start" ? fields.start : error.field === "end" ? fields.end : (error.field ?? "(body)");
    throw badInput(where, field, error.message);
  }
}

/** The caller as the planners see them (thresholds, build-out settings, timezone) and the call's range. */
async function viewerAndRange(
  services: Services,
  user: UserContext,
  dates: { start: DateInput; end: DateInput },
  where: "query" | "body",
  fields: RangeFields,
): Promise<{ viewer: Viewer; range: PlanRange }> {
  const viewer = await viewerFor(services, { id: user.id, isDelegated: user.isDelegated });
  const resolved = resolveRange(dates, viewer.timezone, fields);
  if ("problem" in resolved) throw badInput(where, resolved.problem.field, resolved.problem.message);
  return { viewer, range: resolved.range };
}

// ---------------------------------------------------------------------------------------------------------------
// JSON of the figures

const rangeJson = (range: ResolvedRange) => ({ start: range.start, end: range.end });

function directionJson(d: DirectionFigures, show95: boolean) {
  const latest = [...d.daily].reverse().find((x) => x.bps !== null) ?? null;
  return {
    maxDailyBps: d.maxDaily?.bps ?? null,
    maxDailyUtilisation: d.maxDaily?.utilisation ?? null,
    maxDailyDay: d.maxDaily?.day ?? null,
    latestDailyBps: latest?.bps ?? null,
    latestDailyUtilisation: latest?.utilisation ?? null,
    latestDailyDay: latest?.day ?? null,
    ...(show95 ? { p95Bps: d.p95?.bps ?? null, p95Utilisation: d.p95?.utilisation ?? null } : {}),
    daily: d.daily.map((x) => ({ day: x.day, bps: x.bps, utilisation: x.utilisation, peakHourStart: x.windowStart })),
  };
}

/** The figures every link has, whatever its kind; `forward`/`reverse` name the directions of the answer. */
function figuresJson(plan: LinkPlan, show95: boolean) {
  return {
    capacityBps: plan.capacityBps,
    ...(show95 ? { billedP95Bps: plan.billedP95?.bps ?? null, billedP95Utilisation: plan.billedP95?.utilisation ?? null } : {}),
    maxDailyUtilisation: plan.maxDailyUtilisation,
    status: plan.status,
    statusLabel: LINK_STATUS_LABELS[plan.status],
    forecast: plan.forecast,
    buildoutDue: plan.buildoutDue,
    samplingConfidence: plan.samplingConfidence,
    samples: plan.samples,
    interpolatedSamples: plan.interpolated,
    sources: plan.sources,
  };
}

function externalLinkJson(plan: LinkPlan & { link: ExternalLink }, show95: boolean) {
  const l = plan.link;
  return {
    key: l.key,
    router: l.router,
    interface: l.interface,
    description: l.description,
    neighbourAs: l.neighbourAs,
    asName: l.asName,
    peering: l.peering,
    connection: l.connection,
    in: directionJson(plan.in, show95),
    out: directionJson(plan.out, show95),
    ...figuresJson(plan, show95),
  };
}

const isExternal = (plan: LinkPlan): plan is LinkPlan & { link: ExternalLink } => plan.link.kind === "external";
const isInternal = (plan: LinkPlan): plan is LinkPlan & { link: InternalLink } => plan.link.kind === "internal";

// ---------------------------------------------------------------------------------------------------------------
// External links

/** The visible external links that pass the filters (all of them without filters). */
async function externalLinks(services: Services, viewer: Viewer, filters: readonly LinkFilter[]): Promise<ExternalLink[]> {
  const links = (await visibleLinks(services, viewer, "external")).filter((l): l is ExternalLink => l.kind === "external");
  return links.filter((l) => matchesLinkFilters(l, filters));
}

/** The value and label of a link's group. */
function groupOf(link: ExternalLink, grouping: Grouping): { value: string; label: string } {
  if (grouping === "ROUTER") return { value: link.router, label: link.router };
  if (grouping === "INTERFACE") return { value: link.key, label: `${link.router} ${link.interface}` };
  if (link.neighbourAs === null) return { value: "", label: "Internet exchange (several neighbours)" };
  const as = `AS${link.neighbourAs}`;
  return { value: String(link.neighbourAs), label: link.asName ? `${as} ${link.asName}` : as };
}

/** A displayed value in the grouping's spelling: AS numbers without "AS". */
function displayedValue(value: string, grouping: Grouping): string {
  return grouping === "AS_NUMBER" && /^AS\d+$/i.test(value) ? value.slice(2) : value;
}

const STATUS_ORDER: LinkStatus[] = ["high", "medium", "normal", "no data"];
const worst = (statuses: LinkStatus[]): LinkStatus => STATUS_ORDER.find((s) => statuses.includes(s)) ?? "no data";

/** POST api/linkutil/external/: the external links grouped by neighbour AS, router or interface, with every figure per link. */
export async function externalLinksCall(services: Services, user: UserContext, body: z.infer<typeof externalBodySchema>) {
  const fields = { start: "startTime", end: "endTime" };
  const { viewer, range } = await viewerAndRange(
    services,
    user,
    { start: { unix: body.startTime }, end: { unix: body.endTime } },
    "body",
    fields,
  );
  const grouping = groupingOf(body);
  const displayed = body.currentlyDisplayedValues ? new Set(body.currentlyDisplayedValues.map((v) => displayedValue(v, grouping))) : null;
  const links = (await externalLinks(services, viewer, normalizeLinkFilters(body.filters))).filter(
    (l) => !displayed || displayed.has(groupOf(l, grouping).value),
  );
  const plans = links.length
    ? (await service(() => planLinks(services, viewer, { kind: "external", range, keys: links.map((l) => l.key) }), "body", fields)).filter(
        isExternal,
      )
    : [];
  const show95 = sees95th(user);
  const groups = new Map<string, { value: string; label: string; plans: (LinkPlan & { link: ExternalLink })[] }>();
  for (const plan of plans) {
    const g = groupOf(plan.link, grouping);
    const group = groups.get(g.value) ?? { ...g, plans: [] };
    group.plans.push(plan);
    groups.set(g.value, group);
  }
  return {
    range: rangeJson(range),
    grouping,
    thresholds: thresholdsOf(viewer.settings, "external"),
    links: plans.length,
    groups: [...groups.values()]
      .sort((a, b) => a.label.localeCompare(b.label, "en"))
      .map((g) => {
        const capacities = g.plans.map((p) => p.capacityBps).filter((c): c is number => c !== null);
        const dailies = g.plans.map((p) => p.maxDailyUtilisation).filter((u): u is number => u !== null);
        return {
          value: g.value,
          label: g.label,
          linkCount: g.plans.length,
          capacityBps: capacities.reduce((a, c) => a + c, 0),
          ...(show95 ? { billedP95SumBps: g.plans.reduce((a, p) => a + (p.billedP95?.bps ?? 0), 0) } : {}),
          maxDailyUtilisation: dailies.length ? Math.max(...dailies) : null,
          status: worst(g.plans.map((p) => p.status)),
          links: g.plans.map((p) => externalLinkJson(p, show95)),
        };
      }),
  };
}

type SummaryBody = z.infer<typeof summaryBodySchema>;

/** The keys of the visible external links that pass a summary/timeseries body's filters. */
async function summaryScope(services: Services, user: UserContext, body: SummaryBody) {
  const fields = { start: "startDate", end: "endDate" };
  const { viewer, range } = await viewerAndRange(services, user, { start: body.startDate, end: body.endDate }, "body", fields);
  const links = await externalLinks(services, viewer, normalizeLinkFilters(body.filters));
  return { viewer, range, keys: links.map((l) => l.key), fields };
}

/** POST api/linkutil/external/summary/ */
export async function externalSummaryCall(services: Services, user: UserContext, body: SummaryBody) {
  const { viewer, range, keys, fields } = await summaryScope(services, user, body);
  const s = await service(() => plannerSummary(services, viewer, { kind: "external", range, keys }), "body", fields);
  return {
    range: rangeJson(range),
    links: s.links,
    totalCapacityBps: s.totalCapacityBps,
    ...(sees95th(user) ? { billedP95SumBps: s.billedP95SumBps } : {}),
    statusCounts: {
      high: s.statusCounts.high,
      medium: s.statusCounts.medium,
      normal: s.statusCounts.normal,
      noData: s.statusCounts["no data"],
    },
    buildoutDue: s.buildoutDue,
  };
}

/** POST api/linkutil/external/timeseries/ */
export async function externalTimeseriesCall(services: Services, user: UserContext, body: SummaryBody) {
  const { viewer, range, keys, fields } = await summaryScope(services, user, body);
  const t = await service(() => plannerTimeseries(services, viewer, { kind: "external", range, keys }), "body", fields);
  return { range: rangeJson(range), bucketSeconds: t.bucketSeconds, capacityBps: t.capacityBps, points: t.points };
}

// ---------------------------------------------------------------------------------------------------------------
// Internal links

type End = { router: string; interface: string };
const sameEnd = (a: End, b: End) => a.router === b.router && a.interface === b.interface;

async function internalLinks(services: Services, viewer: Viewer): Promise<InternalLink[]> {
  return (await visibleLinks(services, viewer, "internal")).filter((l): l is InternalLink => l.kind === "internal");
}

/** An internal link seen from `from`: forward = from → to. The kernel's out is a → b, in is b → a. */
function internalLinkJson(plan: LinkPlan & { link: InternalLink }, from: End, show95: boolean) {
  const l = plan.link;
  const aFirst = sameEnd(l.a, from);
  const [start, end] = aFirst ? [l.a, l.b] : [l.b, l.a];
  const endJson = (e: InternalLink["a"]) => ({
    router: e.router,
    interface: e.interface,
    description: e.description,
    capacityBps: e.capacityBps,
  });
  return {
    key: l.key,
    from: endJson(start),
    to: endJson(end),
    forward: directionJson(aFirst ? plan.out : plan.in, show95),
    reverse: directionJson(aFirst ? plan.in : plan.out, show95),
    ...figuresJson(plan, show95),
  };
}

/** GET api/linkutil/internal/: all internal links, or the one joining two interfaces (seen from inRouter/startInterface). */
export async function internalLinksCall(services: Services, user: UserContext, query: z.infer<typeof internalQuerySchema>) {
  const fields = { start: "startDate", end: "endDate" };
  const { viewer, range } = await viewerAndRange(services, user, { start: query.startDate, end: query.endDate }, "query", fields);
  let links = await internalLinks(services, viewer);
  let from: End | null = null;
  if (query.dataType === "single_interface_pair") {
    const start = { router: query.inRouter!, interface: query.startInterface! };
    const end = { router: query.outRouter!, interface: query.endInterface! };
    links = links.filter((l) => (sameEnd(l.a, start) && sameEnd(l.b, end)) || (sameEnd(l.a, end) && sameEnd(l.b, start)));
    if (!links.length) {
      throw new ApiProblem(404, {
        detail: `No internal link joins ${start.router} ${start.interface} and ${end.router} ${end.interface}.`,
      });
    }
    from = start;
  }
  const plans = links.length
    ? (
        await service(() => planLinks(services, viewer, { kind: "internal", range, keys: links.map((l) => l.key) }), "query", fields)
      ).filter(isInternal)
    : [];
  const show95 = sees95th(user);
  return {
    range: rangeJson(range),
    dataType: query.dataType,
    thresholds: thresholdsOf(viewer.settings, "internal"),
    links: plans.map((p) => internalLinkJson(p, from ?? p.link.a, show95)),
  };
}

/** GET api/linkutil/interfaces/: the interface pairs of the internal links between inRouter and outRouter (or any router). */
export async function interfacesCall(services: Services, user: UserContext, query: z.infer<typeof interfacesQuerySchema>) {
  const fields = { start: "startDate", end: "endDate" };
  const { viewer, range } = await viewerAndRange(services, user, { start: query.startDate, end: query.endDate }, "query", fields);
  const pairs = (await internalLinks(services, viewer)).flatMap((l) => {
    const [near, far] = l.a.router === query.inRouter ? [l.a, l.b] : l.b.router === query.inRouter ? [l.b, l.a] : [null, null];
    if (!near || !far || (query.outRouter !== undefined && far.router !== query.outRouter)) return [];
    return [{ link: l, near, far }];
  });
  const plans = pairs.length
    ? await service(() => planLinks(services, viewer, { kind: "internal", range, keys: pairs.map((p) => p.link.key) }), "query", fields)
    : [];
  const samples = new Map(plans.map((p) => [p.link.key, p.samples]));
  return {
    range: rangeJson(range),
    interfaces: pairs
      .map(({ link, near, far }) => ({
        key: link.key,
        inRouter: near.router,
        startInterface: near.interface,
        outRouter: far.router,
        endInterface: far.interface,
        capacityBps: link.capacityBps,
        samples: samples.get(link.key) ?? 0,
      }))
      .sort((a, b) => a.outRouter.localeCompare(b.outRouter, "en") || a.startInterface.localeCompare(b.startInterface, "en")),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Dates with data

const DATES_PERMISSION: Record<LinkKind, Permission> = { external: "API_LINK_UTIL_EXTERNAL", internal: "API_LINK_UTIL_INTERNAL" };

/** The permission api/linkutil/{x}/dateswithdata/ needs for x. */
export const datesPermission = (kind: LinkKind): Permission => DATES_PERMISSION[kind];

/** GET api/linkutil/{x}/dateswithdata/: [{minTimestamp, maxTimestamp}] of the caller's links of that kind, nulls without data. */
export async function datesWithDataCall(services: Services, user: UserContext, kind: LinkKind) {
  const viewer = await viewerFor(services, { id: user.id, isDelegated: user.isDelegated });
  const dates = await datesWithData(services, viewer, kind);
  return [{ minTimestamp: dates.first, maxTimestamp: dates.last }];
}

// ---------------------------------------------------------------------------------------------------------------
// Traffic by AS on external links, from the flows

/** Most ASes read per interface (the aggregates keep the top 200 tracked ASes plus a few special values). */
const STATISTICS_LIMIT = 1000;

const refused = (detail: string) => new ApiProblem(403, { detail, exception_code: "permission_denied" });

/**
 * A delegated account may ask only about its router, AS numbers and interfaces (its
 * external_links_views_restrictions): 403 naming the first one outside them.
 */
async function checkDelegatedScope(services: Services, user: UserContext, q: z.infer<typeof interfaceStatisticsQuerySchema>) {
  if (!user.isDelegated) return;
  const lists = (await readDelegation(services.pg.db, user.id))?.external;
  if (!lists) throw refused(MESSAGES.permissionDenied);
  if (lists.routerList.length && !lists.routerList.includes(q.router))
    throw refused(`The router ${q.router} is outside your account's routers.`);
  const allowed = new Set(lists.ASNumberList.map(Number));
  const outside = (q.ASNumberList ?? []).find((asn) => !allowed.has(asn));
  if (outside !== undefined) throw refused(`AS${outside} is outside your account's AS numbers.`);
  if (q.interface && lists.interfaceList.length && !lists.interfaceList.includes(`${q.router}|${q.interface}`))
    throw refused(`The interface ${q.router} ${q.interface} is outside your account's interfaces.`);
}

/**
 * GET api/linkutil/interfacestatistics/: the traffic of the external links of `router` to the
 * neighbours of ASNumberList (or on `interface`) by AS — mean bit/s, bytes and share over the range,
 * and with NETFLOW95TH each AS's 95th percentile (interface-statistics-p95.ts).
 */
export async function interfaceStatisticsCall(services: Services, user: UserContext, q: z.infer<typeof interfaceStatisticsQuerySchema>) {
  const fields = { start: "startDate", end: "endDate" };
  await checkDelegatedScope(services, user, q);
  const { viewer, range } = await viewerAndRange(services, user, { start: q.startDate, end: q.endDate }, "query", fields);
  const asns = q.ASNumberList ? new Set(q.ASNumberList) : null;
  const links = (await externalLinks(services, viewer, [])).filter(
    (l) =>
      l.router === q.router &&
      (!q.interface || l.interface === q.interface) &&
      (!asns || (l.neighbourAs !== null && asns.has(l.neighbourAs))),
  );
  if (!links.length) {
    const to = q.ASNumberList ? ` to ${q.ASNumberList.map((a) => `AS${a}`).join(", ")}` : "";
    throw new ApiProblem(404, { detail: `No external link of ${q.router}${q.interface ? ` on ${q.interface}` : ""}${to}.` });
  }
  const direction = q.isDirectedIn ? "in" : "out";
  // One clock for both queries, so they read the same table.
  const now = Math.floor(Date.now() / 1000);
  const perLink = await Promise.all(
    links.map((l) =>
      interfaceStatistics(services, user, {
        router: l.router,
        interface: l.interface,
        direction,
        dimension: q.dimension,
        range,
        limit: STATISTICS_LIMIT,
        now,
      }),
    ),
  );
  // The links' rates add up: each is bytes × 8 over the same seconds.
  const byAs = new Map<number, { asn: number; name: string | null; bps: number; bytes: bigint }>();
  for (const row of perLink.flat()) {
    const known = byAs.get(row.asn) ?? { asn: row.asn, name: row.name, bps: 0, bytes: 0n };
    known.bps += row.bps;
    known.bytes += BigInt(row.bytes);
    byAs.set(row.asn, known);
  }
  const totalBps = [...byAs.values()].reduce((a, r) => a + r.bps, 0);
  let p95: { intervals: number; sampleSeconds: number; byAs: Map<number, number> } | null = null;
  if (seesFlow95th(user)) {
    const table = range.start >= now - FIVE_MINUTE_DAYS * 86_400 ? "flows_5m" : "flows_1h";
    const input: FlowP95Input = {
      table,
      router: q.router,
      interfaces: links.map((l) => l.interface),
      direction,
      column: asColumn(q.dimension, direction),
      range,
    };
    const [{ n }] = await chQuery(services.ch, { ...flowIntervalsQuery(input), schema: z.object({ n: z.number() }) });
    const intervals = Number(n);
    const rows = intervals
      ? await chQuery(services.ch, {
          ...flowP95Query(input, intervals),
          schema: z.object({ asn: z.number(), present: z.number(), p95_bytes: z.number() }),
        })
      : [];
    const sampleSeconds = SAMPLE_SECONDS_OF[table];
    p95 = { intervals, sampleSeconds, byAs: new Map(rows.map((r) => [Number(r.asn), (Number(r.p95_bytes) * 8) / sampleSeconds])) };
  }
  return {
    range: rangeJson(range),
    router: q.router,
    interfaces: links.map((l) => l.interface),
    isDirectedIn: q.isDirectedIn,
    dimension: q.dimension,
    dimensionLabel: DIMENSION_LABELS[q.dimension][direction],
    totalBps,
    ...(p95 ? { p95Intervals: p95.intervals, p95IntervalSeconds: p95.sampleSeconds } : {}),
    rows: [...byAs.values()]
      .sort((a, b) => b.bps - a.bps || a.asn - b.asn)
      .map((r) => ({
        asn: r.asn,
        name: r.name,
        bps: r.bps,
        bytes: r.bytes.toString(),
        share: totalBps > 0 ? r.bps / totalBps : null,
        ...(p95 ? { p95Bps: p95.byAs.get(r.asn) ?? 0 } : {}),
      })),
  };
}
