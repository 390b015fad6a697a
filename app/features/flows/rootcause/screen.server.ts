/**
 * The Flow Explorer's root-cause analysis sub-view (/flow-explorer/rootcause): its URL state
 * (dimension, value, start in ISO form, duration such as 10h20m) → the analysis of
 * analysis.server.ts with every figure formatted for the page, or the spec's invalid-input texts.
 */
import { listedForText } from "./prefixes";
import { formatUnix, safeTimezone, DATE_FORMATS } from "~/lib/date-format";
import { formatBitsPerSecond, formatPercent } from "~/lib/units";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { getUserSettings } from "~/server/settings/user-settings.server";
import { getDimension } from "~/features/filter/dimensions";
import { presetRange } from "~/lib/time-range";
import { rootCauseBodySchema, runRootCause, type RootCauseResult } from "./analysis.server";
import { ANOMALY_DEFAULT_RANGE, requestAnomalies } from "./anomalies.server";
import { OBJECT_DIMENSIONS, type RootCauseParams } from "./link";

const fmtBps = (v: number | null) => (v === null ? "–" : formatBitsPerSecond(v));
const signed = (v: number | null, f: (x: number) => string) => (v === null ? "–" : `${v > 0 ? "+" : v < 0 ? "−" : ""}${f(Math.abs(v))}`);

/** The form's list of the week's anomalies (GET api/rootcause/anomalies/ of the last 7 days), formatted. */
export type AnomalySection =
  | { state: "computing"; reloadHref: string }
  | { state: "unavailable"; message: string }
  | {
      state: "ready";
      range: string;
      notes: string[];
      rows: {
        key: string;
        object: string;
        start: string;
        duration: string;
        deviation: string;
        classification: string;
        href: string;
      }[];
    };

export type RootCauseScreen = {
  params: RootCauseParams;
  /** Only on the form (no value chosen yet). */
  anomalies: AnomalySection | null;
  dimensions: { id: string; label: string }[];
  timezone: string;
  errors: string[];
  result: RootCauseResult | null;
  view: {
    objectLabel: string;
    period: string;
    totals: { baseline: string; anomaly: string; change: string; changeShare: string };
    chart: {
      points: { time: string; actual: number | null; baseline: number | null; low: number | null; high: number | null }[];
      max: number;
    } | null;
    levels: {
      id: string;
      title: string;
      moved: string;
      rows: {
        name: string;
        baseline: string;
        anomaly: string;
        change: string;
        baselineShare: string;
        anomalyShare: string;
        explains: string;
        conclusion: string;
      }[];
    }[];
    path: {
      direct: { baseline: string; anomaly: string; change: string };
      indirect: { baseline: string; anomaly: string; change: string };
      utilisation: string;
    } | null;
    routing: {
      window: string;
      origins: string;
      topAddresses: string;
      vantagePoints: string;
      conclusion: string;
      changes: {
        time: string;
        vantagePoint: string;
        peer: string;
        prefix: string;
        kind: string;
        asPath: string;
        previous: string;
        listedFor: string;
        href: string;
      }[];
    };
  } | null;
};

export async function loadRootCauseScreen(services: Services, user: UserContext, url: URL): Promise<RootCauseScreen> {
  const q = url.searchParams;
  const params: RootCauseParams = {
    dimension: q.get("dimension") ?? "AS_SRC_INGRESS",
    value: q.get("value") ?? "",
    start: q.get("start") ?? "",
    duration: q.get("duration") ?? "",
  };
  const settings = await getUserSettings(services.pg.db, user.id);
  const timezone = safeTimezone(settings.timezone);
  const base = {
    params,
    timezone,
    dimensions: OBJECT_DIMENSIONS.map((id) => ({ id, label: getDimension(id).label })),
    anomalies: null,
  };
  // A form not yet filled in (or prefilled with a period by the Flow Explorer's link, the value still to choose):
  // nothing to analyse, no error either. A submitted form always sends a value, empty or not.
  if (!q.has("value"))
    return { ...base, anomalies: await anomalySection(services, user, url, timezone), errors: [], result: null, view: null };
  const parsed = rootCauseBodySchema.safeParse(params);
  if (!parsed.success) return { ...base, errors: parsed.error.issues.map((i) => i.message), result: null, view: null };
  let result: RootCauseResult;
  try {
    result = await runRootCause(services, user, parsed.data, { timezone });
  } catch (error) {
    if (error instanceof ApiProblem && error.status < 500) {
      return { ...base, errors: error.body.errors?.map((e) => e.message) ?? [error.body.detail], result: null, view: null };
    }
    throw error;
  }
  const at = (t: number) => formatUnix(t, timezone, DATE_FORMATS.long);
  const rowsOf = (level: keyof RootCauseResult["levels"]) =>
    result.levels[level].rows.map((r) => ({
      name: r.name === r.key ? r.key : `${r.name} (${r.key})`,
      baseline: fmtBps(r.baselineBps),
      anomaly: fmtBps(r.anomalyBps),
      change: signed(r.changeBps, formatBitsPerSecond),
      baselineShare: formatPercent(r.baselineShare),
      anomalyShare: formatPercent(r.anomalyShare),
      explains: formatPercent(r.explains),
      conclusion: r.conclusion,
    }));
  const points = result.baseline?.points ?? [];
  const max = Math.max(1, ...points.flatMap((p) => [p.actualBps ?? 0, p.highBps ?? 0]));
  const split = (b: number, a: number) => ({ baseline: fmtBps(b), anomaly: fmtBps(a), change: signed(a - b, formatBitsPerSecond) });
  return {
    ...base,
    errors: [],
    result,
    view: {
      objectLabel: `${getDimension(result.object.dimension).label}: ${result.object.name}`,
      period: `${at(result.period.start)} – ${at(result.period.end)} ${timezone} (${result.period.duration})`,
      totals: {
        baseline: fmtBps(result.totals.baselineBps),
        anomaly: fmtBps(result.totals.anomalyBps),
        change: signed(result.totals.changeBps, formatBitsPerSecond),
        changeShare: result.totals.change === null ? "–" : signed(result.totals.change, formatPercent),
      },
      chart: result.baseline
        ? {
            max,
            points: points.map((p) => ({ time: at(p.time), actual: p.actualBps, baseline: p.baselineBps, low: p.lowBps, high: p.highBps })),
          }
        : null,
      levels: [
        { id: "handoverAs", title: "By handover AS", moved: formatPercent(result.levels.handoverAs.moved), rows: rowsOf("handoverAs") },
        { id: "router", title: "By ingress router", moved: formatPercent(result.levels.router.moved), rows: rowsOf("router") },
        { id: "interface", title: "By ingress interface", moved: formatPercent(result.levels.interface.moved), rows: rowsOf("interface") },
      ],
      path: result.path
        ? {
            direct: split(result.path.directBaselineBps, result.path.directAnomalyBps),
            indirect: split(result.path.indirectBaselineBps, result.path.indirectAnomalyBps),
            utilisation: formatPercent(result.directUtilisation),
          }
        : null,
      routing: {
        window: `${at(result.routing.window.start)} – ${at(result.routing.window.end)} ${timezone}`,
        origins: result.routing.originAsns.map((a) => `AS${a}`).join(", ") || "–",
        topAddresses: result.routing.topAddresses.join(", ") || "–",
        vantagePoints: result.routing.vantagePoints.join(", ") || "–",
        conclusion: result.routing.conclusion,
        changes: result.routing.changes.map((c) => ({
          time: at(c.time),
          vantagePoint: c.vantagePoint,
          peer: `${c.peerIp} (AS${c.peerAsn})`,
          prefix: c.prefix,
          kind: c.kind,
          asPath: c.asPath.join(" ") || "–",
          previous: c.previousAsPath ? c.previousAsPath.join(" ") : "–",
          listedFor: listedForText(c.listedFor, result.object.dimension === "AS_SRC_INGRESS" ? result.routing.originAsns : null),
          href: c.controlPlaneUrl,
        })),
      },
    },
  };
}

async function anomalySection(services: Services, user: UserContext, url: URL, timezone: string): Promise<AnomalySection> {
  let answer;
  try {
    answer = await requestAnomalies(services, user, presetRange(ANOMALY_DEFAULT_RANGE, Math.floor(Date.now() / 1000), timezone));
  } catch (error) {
    if (error instanceof ApiProblem && error.status === 403) return { state: "unavailable", message: error.body.detail };
    throw error;
  }
  if (answer.state === "computing") return { state: "computing", reloadHref: `${url.pathname}${url.search}` };
  return {
    state: "ready",
    notes: answer.notes,
    range: `${formatUnix(answer.range.start, timezone, DATE_FORMATS.long)} – ${formatUnix(answer.range.end, timezone, DATE_FORMATS.long)} ${timezone}`,
    rows: answer.anomalies.map((a) => ({
      key: `${a.dimension} ${a.value} ${a.start}`,
      // An AS by its name and number, a router and an interface by their names.
      object: `${getDimension(a.dimension).label}: ${a.name}${getDimension(a.dimension).filterKind === "AS_NUMBER" && !a.name.includes(`AS${a.value}`) ? ` (AS${a.value})` : ""}`,
      start: `${formatUnix(a.start, timezone, DATE_FORMATS.long)}${a.fromRangeStart ? " or earlier" : ""}`,
      duration: a.duration,
      deviation: `${signed(a.peakDeviationBps, formatBitsPerSecond)}${a.peakShare === null ? " (new)" : ` (${signed(a.peakShare, formatPercent)})`}`,
      classification: a.classification,
      href: a.href,
    })),
  };
}
