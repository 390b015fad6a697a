/**
 * Root-cause analysis of one object's traffic in a period (POST api/rootcause/ and the Flow
 * Explorer's analysis sub-view): reads flows_5m through the Flow Explorer's builders and the query
 * door (so the analytics query limiter applies), builds the seasonal baseline with its band
 * (app/lib/forecast-seasonal.ts, the prediction's model), decomposes and classifies the change
 * (classify.ts), and lists the routing evidence from rib_entries.
 *
 * Not for delegated users (403): the analysis compares the object with the whole network's routing.
 */
import { z } from "zod";
import { getDimension, type DimensionId } from "~/features/filter/dimensions";
import { parseAsValue } from "~/features/filter/filters";
import { toLocalInput } from "~/lib/date-format";
import { formatIpAddress } from "~/lib/ip";
import { seasonalBand, WEEK_SECONDS, SEASONAL_WEEKS, type BandPoint } from "~/lib/forecast-seasonal";
import { invalidInput } from "~/lib/messages";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import { chQuery } from "~/server/clickhouse/query.server";
import type { Services } from "~/server/services.server";
import { interfaceLoadQuery, interfaceLoadRow } from "../analysis-sql";
import { dataRange } from "../data-range.server";
import { nameAll, operatorAsn } from "../service.server";
import {
  classify,
  pollGapShare,
  POLL_GAP_SHARE,
  routingConclusion,
  type Classification,
  type Conclusion,
  type Level,
  type Part,
} from "./classify";
import { formatDuration, parseDuration, parseStart } from "./duration";
import { isObjectDimension, OBJECT_DIMENSIONS, type ObjectDimension } from "./link";
import { candidateNetworks, fromIpv6Column, longestMatches, type CandidateRoute } from "./prefixes";
import {
  coveringRoutesQuery,
  LEVEL_DIMENSIONS,
  objectLevelsQuery,
  objectSourceAsQuery,
  pollQualityQuery,
  routingBeforeQuery,
  routingChangesQuery,
  topSourceAddressesQuery,
  vantagePointsQuery,
} from "./sql";

type Stores = Pick<Services, "pg" | "ch">;

/** Routing evidence: rib_entries rows from this long before the period's start … */
export const ROUTING_BEFORE_SECONDS = 30 * 60;
/** … to this long after it. */
export const ROUTING_AFTER_SECONDS = 30 * 60;
/** For a router, an interface or a handover AS: the prefixes of its top source ASes in the period. */
export const ROUTING_TOP_SOURCE_ASES = 3;
/** The object's busiest source addresses in the period (flows_raw, by bytes) whose longest-match prefixes are affected too. */
export const ROUTING_TOP_ADDRESSES = 20;
/** Periods up to a day are analysed in 5-minute buckets, longer ones in hours (both read from flows_5m). */
const FIVE_MINUTES = 300;
const HOUR = 3600;

const LEVEL_OF: Record<(typeof LEVEL_DIMENSIONS)[number], Level> = {
  AS_HND_INGRESS: "handoverAs",
  ROUTER_IN: "router",
  INTERFACE_IN: "interface",
};

// ---------------------------------------------------------------------------------------------------------------
// Input

const text = (max: number) =>
  z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .pipe(z.string().max(max));

/** The body of POST api/rootcause/: {dimension, value, start, duration}, each bad value in the spec's invalid-input text. */
export const rootCauseBodySchema = z
  .object({
    dimension: z.string().max(100),
    value: text(300),
    start: z.string().max(100),
    duration: z.string().max(100),
  })
  .transform((b, ctx) => {
    if (!isObjectDimension(b.dimension)) {
      ctx.addIssue({ code: "custom", path: ["dimension"], message: invalidInput(b.dimension, "dimension") });
      return z.NEVER;
    }
    const dimension = b.dimension;
    const start = parseStart(b.start);
    const duration = parseDuration(b.duration);
    let value = b.value;
    if (getDimension(dimension).filterKind === "AS_NUMBER") {
      const as = parseAsValue(b.value);
      if (!as || as.isNegation) ctx.addIssue({ code: "custom", path: ["value"], message: invalidInput(b.value, "value") });
      else value = String(as.value);
    } else if (!value) ctx.addIssue({ code: "custom", path: ["value"], message: invalidInput(b.value, "value") });
    if (!start.ok) ctx.addIssue({ code: "custom", path: ["start"], message: start.message });
    if (!duration.ok) ctx.addIssue({ code: "custom", path: ["duration"], message: duration.message });
    if (!start.ok || !duration.ok) return z.NEVER;
    return { dimension, value, start: start.value, duration: duration.value, startText: b.start, durationText: b.duration };
  });
export type RootCauseRequest = z.output<typeof rootCauseBodySchema>;

const badRequest = (field: string, message: string) => new ApiProblem(400, { detail: "Invalid request.", errors: [{ field, message }] });

// ---------------------------------------------------------------------------------------------------------------
// Result

export type LevelRow = {
  key: string;
  name: string;
  baselineBps: number | null;
  anomalyBps: number | null;
  changeBps: number | null;
  baselineShare: number;
  anomalyShare: number;
  shareChange: number;
  explains: number | null;
  conclusion: Conclusion;
};

export type RoutingChange = {
  time: number;
  vantagePoint: string;
  peerIp: string;
  peerAsn: number;
  prefix: string;
  kind: "Announcement" | "Withdrawal" | "Path change";
  asPath: number[];
  previousAsPath: number[] | null;
  /**
   * Why the prefix is listed: `originated` — an origin AS of the evidence announces it; `topAddresses` —
   * the top source addresses it is the longest match of (at some vantage point's table), empty if none.
   */
  listedFor: { originated: boolean; topAddresses: string[] };
  /** The Control Plane's history of the prefix over the evidence window. */
  controlPlaneUrl: string;
};

export type RootCauseResult = {
  object: { dimension: ObjectDimension; value: string; name: string };
  period: { start: number; end: number; duration: string; step: number; requestedEnd: number };
  baseline: {
    model: "seasonal";
    weeks: number;
    slopePerWeekBps: number;
    points: { time: number; actualBps: number | null; baselineBps: number | null; lowBps: number | null; highBps: number | null }[];
  } | null;
  totals: { baselineBps: number; anomalyBps: number; changeBps: number; change: number | null };
  levels: Record<Level, { moved: number; rows: LevelRow[] }>;
  path: { directBaselineBps: number; directAnomalyBps: number; indirectBaselineBps: number; indirectAnomalyBps: number } | null;
  directUtilisation: number | null;
  classification: Classification;
  reason: string;
  routing: {
    window: { start: number; end: number };
    originAsns: number[];
    /** The object's top source addresses in the period (flows_raw), busiest first; empty when the raw records do not reach back. */
    topAddresses: string[];
    vantagePoints: string[];
    conclusion: Conclusion;
    changes: RoutingChange[];
  };
  notes: string[];
};

// ---------------------------------------------------------------------------------------------------------------
// Run

const levelRowSchema = z.object({
  bucket: z.number(),
  AS_HND_INGRESS: z.number(),
  ROUTER_IN: z.string(),
  INTERFACE_IN: z.string(),
  bps: z.number(),
});
const ribRowSchema = z.object({
  timestamp: z.number(),
  vantage_point: z.string(),
  peer_ip: z.string(),
  peer_asn: z.number(),
  prefix: z.string(),
  is_withdrawn: z.number(),
  as_path: z.array(z.number()),
  originated: z.number(),
});
const ribBeforeSchema = z.object({
  vantage_point: z.string(),
  peer_ip: z.string(),
  prefix: z.string(),
  is_withdrawn: z.number(),
  as_path: z.array(z.number()),
});

const pollRowSchema = z.object({
  key: z.string(),
  first: z.coerce.number(),
  samples: z.coerce.number(),
  interpolated: z.coerce.number(),
});
/** The object's interfaces whose polls are read (the busiest objects carry traffic on a few dozen). */
const MAX_POLLED_INTERFACES = 500;

const mean = (values: readonly number[]): number => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
const samePath = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Access beyond API_FLOWS_4D: never a delegated user; the permissions of the dimensions read. */
export function checkRootCauseAccess(user: UserContext, dimension: DimensionId): void {
  if (user.isDelegated) {
    throw new ApiProblem(403, { detail: "Root-cause analysis is not available to delegated users.", exception_code: "permission_denied" });
  }
  for (const d of new Set<DimensionId>([dimension, ...LEVEL_DIMENSIONS])) {
    const permission = getDimension(d).permission;
    if (permission === null) continue;
    if (!user.permissions.includes(permission)) {
      throw new ApiProblem(403, {
        detail: `${getDimension(d).label} needs the permission ${permission}.`,
        exception_code: "permission_denied",
      });
    }
  }
}

export async function runRootCause(
  stores: Stores,
  user: UserContext,
  input: RootCauseRequest,
  options: {
    timezone?: string;
    priority?: "lowest";
    /** false: the raw records' top addresses are not read (the anomaly list keeps only the classification). */
    topAddresses?: boolean;
  } = {},
): Promise<RootCauseResult> {
  checkRootCauseAccess(user, input.dimension);
  const tz = options.timezone ?? "UTC";
  // The anomaly list classifies in the background: its reads wait for the limiter's lowest priority.
  const priority = options.priority;
  const step = input.duration <= 86_400 ? FIVE_MINUTES : HOUR;
  const start = Math.floor(input.start / step) * step;
  const requestedEnd = Math.ceil((input.start + input.duration) / step) * step;
  const data = await dataRange(stores);
  if (data.minTimestamp === null || data.maxTimestamp === null) throw badRequest("start", invalidInput(input.startText, "start"));
  const dataEnd = data.maxTimestamp + FIVE_MINUTES;
  // The period must start inside the data; its end is cut at the newest data.
  if (start < Math.floor(data.minTimestamp / step) * step || start >= dataEnd)
    throw badRequest("start", invalidInput(input.startText, "start"));
  const end = Math.min(requestedEnd, Math.ceil(dataEnd / step) * step);
  const notes: string[] = [];
  if (end < requestedEnd) notes.push("The period is cut at the newest flow data.");

  const historyStart = start - SEASONAL_WEEKS * WEEK_SECONDS;
  const scope = { dimension: input.dimension, value: input.value, operatorAsn: await operatorAsn(stores) };
  const rows = await chQuery(stores.ch, {
    priority,
    ...objectLevelsQuery(scope, { start: historyStart, end }, step as 300 | 3600),
    schema: levelRowSchema,
  });

  // Series on the grid [historyStart, end): null outside the data (unknown), 0 where the data holds no row.
  const n = (end - historyStart) / step;
  const targetsFrom = (start - historyStart) / step;
  const firstKnown = Math.floor(data.minTimestamp / step) * step;
  const known = (i: number) => {
    const t = historyStart + i * step;
    return t >= firstKnown && t < dataEnd;
  };
  const emptySeries = () => Array.from({ length: n }, (_, i) => (known(i) ? 0 : null)) as (number | null)[];
  const total = emptySeries();
  const series: Record<Level, Map<string, (number | null)[]>> = { handoverAs: new Map(), router: new Map(), interface: new Map() };
  const directInterfaces = new Set<string>();
  for (const r of rows) {
    const i = (r.bucket - historyStart) / step;
    if (!Number.isInteger(i) || i < 0 || i >= n || !known(i)) continue;
    total[i] = (total[i] ?? 0) + r.bps;
    const keys: Record<Level, string> = { handoverAs: String(r.AS_HND_INGRESS), router: r.ROUTER_IN, interface: r.INTERFACE_IN };
    for (const level of ["handoverAs", "router", "interface"] as const) {
      let s = series[level].get(keys[level]);
      if (!s) series[level].set(keys[level], (s = emptySeries()));
      s[i] = (s[i] ?? 0) + r.bps;
    }
    if (input.dimension === "AS_SRC_INGRESS" && String(r.AS_HND_INGRESS) === input.value && i >= targetsFrom)
      directInterfaces.add(r.INTERFACE_IN);
  }
  const targets = Array.from({ length: n - targetsFrom }, (_, k) => start + k * step);
  const history = (values: (number | null)[]) => ({ start: historyStart, step, values: values.slice(0, targetsFrom) });
  const anomalyOf = (values: (number | null)[]) => mean(values.slice(targetsFrom).map((v) => v ?? 0));
  const baselineOf = (points: BandPoint[] | null) =>
    points && points.some((p) => p.samples > 0) ? mean(points.map((p) => p.value)) : null;

  const totalBand = seasonalBand(history(total), targets);
  const noBaseline = !totalBand || totalBand.points.every((p) => p.samples === 0);
  const parts: Record<Level, Part[]> = { handoverAs: [], router: [], interface: [] };
  for (const level of ["handoverAs", "router", "interface"] as const) {
    for (const [key, values] of series[level]) {
      const band = seasonalBand(history(values), targets);
      // A part with no traffic in the baseline weeks has a baseline of 0 (it is new), once the total has one.
      parts[level].push({
        key,
        label: key,
        baseline: noBaseline ? null : (baselineOf(band?.points ?? null) ?? 0),
        anomaly: anomalyOf(values),
      });
    }
  }

  let path: RootCauseResult["path"] = null;
  let directUtilisation: number | null = null;
  let missingUtilisation = false;
  if (input.dimension === "AS_SRC_INGRESS" && !noBaseline) {
    const direct = parts.handoverAs.find((p) => p.key === input.value);
    const sum = (sel: (p: Part) => number | null) => parts.handoverAs.reduce((a, p) => a + (sel(p) ?? 0), 0);
    path = {
      directBaselineBps: direct?.baseline ?? 0,
      directAnomalyBps: direct?.anomaly ?? 0,
      indirectBaselineBps: sum((p) => p.baseline) - (direct?.baseline ?? 0),
      indirectAnomalyBps: sum((p) => p.anomaly) - (direct?.anomaly ?? 0),
    };
    if (directInterfaces.size) {
      const load = await chQuery(stores.ch, {
        priority,
        ...interfaceLoadQuery([...directInterfaces], { start, end }),
        schema: interfaceLoadRow,
      });
      const utilisations = load.filter((l) => l.capacity_bps > 0).map((l) => l.in_bps / l.capacity_bps);
      directUtilisation = utilisations.length ? Math.max(...utilisations) : null;
      missingUtilisation = load.length < directInterfaces.size;
    }
  }

  // Poll gaps of the object's interfaces (those carrying its traffic) over the baseline weeks and the period,
  // and interpolated utilisation of the direct interfaces in the period (what the capacity rule reads).
  const pollRange = { start: Math.max(historyStart, firstKnown), end: Math.min(end, Math.ceil(dataEnd / FIVE_MINUTES) * FIVE_MINUTES) };
  const objectInterfaces = [...series.interface.keys()].filter((k) => k.includes("|")).slice(0, MAX_POLLED_INTERFACES);
  const polls =
    objectInterfaces.length && pollRange.end > pollRange.start
      ? await chQuery(stores.ch, { priority, ...pollQualityQuery(objectInterfaces, pollRange), schema: pollRowSchema })
      : [];
  const gapShare = pollGapShare(polls, pollRange);
  const pollGaps = gapShare >= POLL_GAP_SHARE;
  const directPolls = directInterfaces.size
    ? await chQuery(stores.ch, { priority, ...pollQualityQuery([...directInterfaces], { start, end }), schema: pollRowSchema })
    : [];
  const interpolatedUtilisation = directPolls.some((p) => p.interpolated > 0);
  if (pollGaps)
    notes.push(
      `${Math.round(gapShare * 1000) / 10} % of the SNMP polls of the object's interfaces were missed or interpolated in the period or the baseline weeks.`,
    );

  const foldedIntoOthers = getDimension(input.dimension).filterKind === "AS_NUMBER" && total.every((v) => !v);
  const result = classify({
    levels: parts,
    path: path && {
      direct: { baseline: path.directBaselineBps, anomaly: path.directAnomalyBps },
      indirect: { baseline: path.indirectBaselineBps, anomaly: path.indirectAnomalyBps },
    },
    directUtilisation,
    completeness: { noBaseline, foldedIntoOthers, pollGaps, interpolatedUtilisation },
  });
  if (foldedIntoOthers)
    notes.push(
      `AS${input.value} has no traffic of its own in the period or the baseline weeks (ASes outside the tracked top 200 are counted as Others).`,
    );
  if (missingUtilisation)
    notes.push("Some interfaces of the direct traffic have no utilisation in the period: the capacity rule reads the others.");

  // Routing evidence: the prefixes of the AS, or of the object's top source ASes.
  const window = { start: start - ROUTING_BEFORE_SECONDS, end: start + ROUTING_AFTER_SECONDS };
  let originAsns: number[];
  if (input.dimension === "AS_SRC_INGRESS") originAsns = [Number(input.value)];
  else {
    const top = await chQuery(stores.ch, {
      priority,
      ...objectSourceAsQuery(scope, { start, end }, ROUTING_TOP_SOURCE_ASES + 3),
      schema: z.object({ AS_SRC_INGRESS: z.number(), bps: z.number() }),
    });
    originAsns = top
      .map((t) => t.AS_SRC_INGRESS)
      .filter((a) => a > 0)
      .slice(0, ROUTING_TOP_SOURCE_ASES);
  }
  // … and the longest matches of the object's top source addresses (the remote hosts whose routes the traffic follows).
  const readTop = options.topAddresses !== false;
  const topRows = readTop
    ? await chQuery(stores.ch, {
        priority,
        ...topSourceAddressesQuery(scope, { start, end }, ROUTING_TOP_ADDRESSES),
        schema: z.object({ address: z.string(), total_bytes: z.string() }),
      })
    : [];
  const topAddresses = topRows.map((r) => fromIpv6Column(r.address)).filter((a) => a !== null);
  if (readTop && !topAddresses.length && result.levels.handoverAs.anomalyTotal > 0)
    notes.push(
      "No raw flow records of the object in the period (they are kept for less time than the aggregates): the prefixes covering its top source addresses are not listed.",
    );
  const candidates = [...new Set(topAddresses.flatMap(candidateNetworks))];
  const candidateRoutes = candidates.length
    ? await chQuery(stores.ch, {
        priority,
        ...coveringRoutesQuery(candidates, window),
        schema: z.object({
          vantage_point: z.string(),
          route_distinguisher: z.string(),
          prefix: z.string(),
          prefix_addr: z.string(),
          prefix_len: z.number(),
          afi: z.number(),
        }) satisfies z.ZodType<CandidateRoute>,
      })
    : [];
  const covering = longestMatches(topAddresses, candidateRoutes);
  const coveringPrefixes = [...covering.keys()];
  const anyAffected = originAsns.length > 0 || coveringPrefixes.length > 0;
  const [vantage, changes, before] = await Promise.all([
    chQuery(stores.ch, { priority, ...vantagePointsQuery(window.end), schema: z.object({ vantage_point: z.string() }) }),
    anyAffected
      ? chQuery(stores.ch, { priority, ...routingChangesQuery(originAsns, coveringPrefixes, window), schema: ribRowSchema })
      : Promise.resolve([]),
    anyAffected
      ? chQuery(stores.ch, { priority, ...routingBeforeQuery(originAsns, coveringPrefixes, window), schema: ribBeforeSchema })
      : Promise.resolve([]),
  ]);
  const state = new Map(before.map((b) => [`${b.vantage_point}\u0000${b.peer_ip}\u0000${b.prefix}`, b]));
  const cpLink = (prefix: string) =>
    `/controlplane?${new URLSearchParams({ queryType: "IpPrefixQuery", queryTerm: prefix, start: toLocalInput(window.start, tz), end: toLocalInput(window.end, tz, "up") })}`;
  const routingChanges = changes.map((c): RoutingChange => {
    const key = `${c.vantage_point}\u0000${c.peer_ip}\u0000${c.prefix}`;
    const previous = state.get(key);
    const wasUp = previous !== undefined && previous.is_withdrawn === 0;
    const kind = c.is_withdrawn ? "Withdrawal" : wasUp && !samePath(previous.as_path, c.as_path) ? "Path change" : "Announcement";
    state.set(key, {
      vantage_point: c.vantage_point,
      peer_ip: c.peer_ip,
      prefix: c.prefix,
      is_withdrawn: c.is_withdrawn,
      as_path: c.as_path,
    });
    return {
      time: c.timestamp,
      vantagePoint: c.vantage_point,
      peerIp: c.peer_ip,
      peerAsn: c.peer_asn,
      prefix: c.prefix,
      kind,
      asPath: c.as_path,
      previousAsPath: wasUp ? previous.as_path : null,
      listedFor: { originated: c.originated === 1, topAddresses: covering.get(c.prefix) ?? [] },
      controlPlaneUrl: cpLink(c.prefix),
    };
  });

  // Names of the object and the parts.
  const label = await nameAll(stores, user, [
    { dimension: input.dimension, key: input.value },
    ...LEVEL_DIMENSIONS.flatMap((d) => parts[LEVEL_OF[d]].map((p) => ({ dimension: d as DimensionId, key: p.key }))),
  ]);
  const levelOut = (level: Level, dimension: DimensionId) => ({
    moved: result.levels[level].moved,
    rows: result.levels[level].rows.map((r): LevelRow => ({
      key: r.key,
      name: label(dimension, r.key).name,
      baselineBps: r.baseline,
      anomalyBps: r.anomaly,
      changeBps: r.change,
      baselineShare: r.baselineShare,
      anomalyShare: r.anomalyShare,
      shareChange: r.shareChange,
      explains: r.explains,
      conclusion: r.conclusion,
    })),
  });
  const t = result.levels.handoverAs;
  return {
    object: { dimension: input.dimension, value: input.value, name: label(input.dimension, input.value).name },
    period: { start, end, duration: formatDuration(end - start), step, requestedEnd },
    baseline:
      totalBand && !noBaseline
        ? {
            model: "seasonal",
            weeks: totalBand.weeks,
            slopePerWeekBps: totalBand.slopePerWeek,
            points: targets.map((time, k) => {
              const p = totalBand.points[k];
              const has = p.samples > 0;
              return {
                time,
                actualBps: total[targetsFrom + k],
                baselineBps: has ? p.value : null,
                lowBps: has ? p.low : null,
                highBps: has ? p.high : null,
              };
            }),
          }
        : null,
    totals: {
      baselineBps: t.baselineTotal,
      anomalyBps: t.anomalyTotal,
      changeBps: t.anomalyTotal - t.baselineTotal,
      change: t.baselineTotal > 0 ? (t.anomalyTotal - t.baselineTotal) / t.baselineTotal : null,
    },
    levels: {
      handoverAs: levelOut("handoverAs", "AS_HND_INGRESS"),
      router: levelOut("router", "ROUTER_IN"),
      interface: levelOut("interface", "INTERFACE_IN"),
    },
    path,
    directUtilisation,
    classification: result.classification,
    reason: result.reason,
    routing: {
      window,
      originAsns,
      topAddresses: topAddresses.map(formatIpAddress),
      vantagePoints: vantage.map((v) => v.vantage_point),
      conclusion: routingConclusion(routingChanges.length, vantage.length),
      changes: routingChanges,
    },
    notes,
  };
}

export { OBJECT_DIMENSIONS };
