/**
 * Root-cause analysis of a traffic anomaly, pure (the rules and thresholds are in docs/root-cause.md):
 * the change between the baseline and the anomaly of one object (an AS, a router, an interface)
 * decomposed by handover AS, ingress router, ingress interface and direct against indirect; the
 * classification (spec §3: Handover AS Shift, Indirect Overflow, Interface Shift, Organic, Router
 * Shift, Unknown) and each candidate cause's conclusion (No, Unknown, Yes, Yes (Gain), Yes (Loss),
 * Yes (Probably gain), Yes (Probably loss)).
 *
 * Figures are mean bit/s over the analysed period: the anomaly's from its flows, the baseline's
 * from the seasonal model of the previous weeks (app/lib/forecast-seasonal.ts).
 */

export const CLASSIFICATIONS = ["Handover AS Shift", "Indirect Overflow", "Interface Shift", "Organic", "Router Shift", "Unknown"] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

export const CONCLUSIONS = ["No", "Unknown", "Yes", "Yes (Gain)", "Yes (Loss)", "Yes (Probably gain)", "Yes (Probably loss)"] as const;
export type Conclusion = (typeof CONCLUSIONS)[number];

/** A level moved ("shifted") when at least this share of the traffic changed hands at it (10 points). */
export const SHIFT_MIN_MOVED = 0.1;
/** Organic: the shares at every level stayed within this tolerance (under 5 points moved). */
export const ORGANIC_TOLERANCE = 0.05;
/** Indirect Overflow: the busiest direct link's mean utilisation over the period is at least this (90 %). */
export const NEAR_CAPACITY = 0.9;
/** Indirect Overflow: direct traffic rose by at most this fraction of its baseline (capped) or fell. */
export const DIRECT_CAPPED_MAX_RISE = 0.05;
/** Indirect Overflow: indirect traffic rose by at least this fraction of the baseline total (10 %). */
export const INDIRECT_MIN_RISE = 0.1;
/** A candidate explaining at least this fraction of its level's change: Yes (Gain) / Yes (Loss). */
export const EXPLAINS_YES = 0.8;
/** … at least this (and under EXPLAINS_YES): Yes (Probably gain) / Yes (Probably loss); under it: No. */
export const EXPLAINS_PROBABLY = 0.5;

export type Level = "handoverAs" | "router" | "interface";
/** Poll gaps: at least this share of the polled interfaces' 5-minute intervals missed or interpolated makes the data incomplete. */
export const POLL_GAP_SHARE = 0.02;

/** One interface's SNMP polls in a range: its first polled interval (unix seconds), the intervals polled, those interpolated. */
export type PollQuality = { first: number; samples: number; interpolated: number };

/**
 * The share of the 5-minute intervals, from each interface's first poll to `end`, that were not polled or were
 * interpolated, over the interfaces that are polled at all (flow-only interfaces have no polls to miss).
 */
export function pollGapShare(polls: readonly PollQuality[], range: { start: number; end: number }): number {
  let expected = 0;
  let gaps = 0;
  for (const p of polls) {
    const intervals = Math.max(0, Math.round((range.end - Math.max(range.start, p.first)) / 300));
    if (!intervals) continue;
    expected += intervals;
    gaps += Math.max(0, intervals - p.samples) + p.interpolated;
  }
  return expected ? Math.min(1, gaps / expected) : 0;
}

export const LEVELS: readonly Level[] = ["handoverAs", "router", "interface"];

/** One value of a level (a handover AS, a router, "router interface"): mean bit/s, null when unknown. */
export type Part = { key: string; label: string; baseline: number | null; anomaly: number | null };

export type DecomposedRow = Part & {
  /** anomaly − baseline (bit/s); null when either is unknown. */
  change: number | null;
  baselineShare: number;
  anomalyShare: number;
  /** anomalyShare − baselineShare. */
  shareChange: number;
  /** |change| / the level's reference change (the larger of its gains and its losses); null when unknown. */
  explains: number | null;
  conclusion: Conclusion;
};

export type Decomposition = {
  rows: DecomposedRow[];
  baselineTotal: number;
  anomalyTotal: number;
  /** Half the sum of the absolute share changes: the share of the traffic that changed hands (0–1). */
  moved: number;
  /** Sum of the rows' rises and of their falls (bit/s, both ≥ 0). */
  gains: number;
  losses: number;
};

export type DirectSplit = { direct: { baseline: number; anomaly: number }; indirect: { baseline: number; anomaly: number } };

export type Completeness = {
  /** The object's routers had poll gaps in the period or the baseline weeks. */
  pollGaps?: boolean;
  /** The utilisation the capacity rule needs is interpolated. */
  interpolatedUtilisation?: boolean;
  /** The object is folded into Others (an AS outside the tracked ones). */
  foldedIntoOthers?: boolean;
  /** No seasonal baseline (less than a week of history before the period). */
  noBaseline?: boolean;
};

export type RootCauseInput = {
  levels: Record<Level, Part[]>;
  /** Direct against indirect, when the object is a source AS; null otherwise. */
  path: DirectSplit | null;
  /** Utilisation (0–1) of the busiest interface carrying the direct traffic, its mean over the period; null unknown. */
  directUtilisation: number | null;
  completeness: Completeness;
};

export type RootCauseResult = {
  classification: Classification;
  /** Why, in one sentence naming the rule and its figures. */
  reason: string;
  levels: Record<Level, Decomposition>;
  path: (DirectSplit & { directChange: number; indirectChange: number }) | null;
};

/** The conclusion of one candidate from the fraction of its level's change it explains and its sign. */
export function conclusionFor(explains: number | null, change: number | null): Conclusion {
  if (explains === null || change === null || !Number.isFinite(explains)) return "Unknown";
  if (change === 0 || explains < EXPLAINS_PROBABLY) return "No";
  if (explains >= EXPLAINS_YES) return change > 0 ? "Yes (Gain)" : "Yes (Loss)";
  return change > 0 ? "Yes (Probably gain)" : "Yes (Probably loss)";
}

/** The decomposition of one level: each part's change, shares and conclusion, and the share moved. */
export function decompose(parts: readonly Part[]): Decomposition {
  const known = (v: number | null): number => (v !== null && Number.isFinite(v) ? v : 0);
  const baselineTotal = parts.reduce((s, p) => s + known(p.baseline), 0);
  const anomalyTotal = parts.reduce((s, p) => s + known(p.anomaly), 0);
  let gains = 0;
  let losses = 0;
  const changes = parts.map((p) => (p.baseline === null || p.anomaly === null ? null : p.anomaly - p.baseline));
  for (const c of changes) {
    if (c === null) continue;
    if (c > 0) gains += c;
    else losses -= c;
  }
  const reference = Math.max(gains, losses);
  let movedSum = 0;
  const rows = parts.map((p, i) => {
    const baselineShare = baselineTotal > 0 ? known(p.baseline) / baselineTotal : 0;
    const anomalyShare = anomalyTotal > 0 ? known(p.anomaly) / anomalyTotal : 0;
    const shareChange = anomalyShare - baselineShare;
    movedSum += Math.abs(shareChange);
    const change = changes[i];
    const explains = change === null ? null : reference > 0 ? round9(Math.abs(change) / reference) : 0;
    return { ...p, change, baselineShare, anomalyShare, shareChange, explains, conclusion: conclusionFor(explains, change) };
  });
  // With one side empty the shares are undefined rather than moved.
  const moved = baselineTotal > 0 && anomalyTotal > 0 ? round9(movedSum / 2) : 0;
  rows.sort((a, b) => Math.abs(b.change ?? 0) - Math.abs(a.change ?? 0) || a.key.localeCompare(b.key));
  return { rows, baselineTotal, anomalyTotal, moved, gains, losses };
}

/** Shares and fractions are compared rounded to 9 decimals, so that 0.4 − 0.5 counts as 10 points moved. */
const round9 = (v: number): number => Math.round(v * 1e9) / 1e9;

const pct = (v: number): string => `${(v * 100).toFixed(1)} %`;

/**
 * The classification, by the first rule that holds, in this order (a change of handover AS also
 * changes routers and interfaces, a change of router also changes interfaces, so the outermost
 * level that moved is the cause):
 *  1. Unknown — the data is incomplete (no baseline, poll gaps, the object folded into Others) or
 *     there is no traffic in either the baseline or the anomaly.
 *  2. Indirect Overflow — the object is a source AS whose direct traffic rose by at most 5 % of its
 *     baseline (capped) or fell, while its indirect traffic rose by at least 10 % of the baseline total,
 *     and the busiest direct link's utilisation over the period is at least 90 %. With that traffic pattern and the
 *     utilisation interpolated: Unknown; with no utilisation measured at all the rule does not hold
 *     (nothing shows the links were full) and the next rules decide.
 *  3. Handover AS Shift — at least 10 % of the traffic moved between handover ASes.
 *  4. Router Shift — under 10 % moved between handover ASes, at least 10 % between ingress routers.
 *  5. Interface Shift — under 10 % moved between handover ASes and between routers, at least 10 %
 *     between ingress interfaces.
 *  6. Organic — under 5 % moved at every level.
 *  7. Unknown — between the two: the shares moved more than the tolerance but no level moved enough
 *     to name it (the evidence does not agree).
 */
export function classify(input: RootCauseInput): RootCauseResult {
  const levels = {
    handoverAs: decompose(input.levels.handoverAs),
    router: decompose(input.levels.router),
    interface: decompose(input.levels.interface),
  };
  const path = input.path
    ? {
        ...input.path,
        directChange: input.path.direct.anomaly - input.path.direct.baseline,
        indirectChange: input.path.indirect.anomaly - input.path.indirect.baseline,
      }
    : null;
  const result = (classification: Classification, reason: string): RootCauseResult => ({ classification, reason, levels, path });
  const c = input.completeness;
  if (c.noBaseline) return result("Unknown", "There is no seasonal baseline: less than a week of history before the period.");
  if (c.foldedIntoOthers) return result("Unknown", "The object is folded into Others: its own traffic is not known.");
  if (c.pollGaps) return result("Unknown", "The object's routers had poll gaps in the period or the baseline weeks.");
  const total = levels.handoverAs;
  if (total.baselineTotal <= 0 || total.anomalyTotal <= 0) {
    return result("Unknown", total.baselineTotal <= 0 ? "The baseline has no traffic to compare with." : "The period has no traffic.");
  }
  if (path) {
    const baselineTotal = path.direct.baseline + path.indirect.baseline;
    const capped = path.direct.baseline > 0 && round9(path.directChange / path.direct.baseline) <= DIRECT_CAPPED_MAX_RISE;
    const overflow = path.direct.baseline > 0 && baselineTotal > 0 && round9(path.indirectChange / baselineTotal) >= INDIRECT_MIN_RISE;
    if (capped && overflow) {
      const u = input.directUtilisation;
      if (u !== null && c.interpolatedUtilisation) {
        return result(
          "Unknown",
          "Direct traffic was capped while indirect traffic rose, but the direct links' utilisation is interpolated.",
        );
      }
      if (u !== null && u >= NEAR_CAPACITY) {
        return result(
          "Indirect Overflow",
          `Direct traffic changed by ${pct(path.directChange / path.direct.baseline)} of its baseline while indirect traffic rose by ${pct(path.indirectChange / baselineTotal)} of the total, the direct links at ${pct(u)} utilisation.`,
        );
      }
    }
  }
  const moved = (level: Level) => levels[level].moved;
  if (moved("handoverAs") >= SHIFT_MIN_MOVED) {
    return result("Handover AS Shift", `${pct(moved("handoverAs"))} of the traffic moved between handover ASes.`);
  }
  if (moved("router") >= SHIFT_MIN_MOVED) {
    return result(
      "Router Shift",
      `${pct(moved("router"))} of the traffic moved between ingress routers (${pct(moved("handoverAs"))} between handover ASes).`,
    );
  }
  if (moved("interface") >= SHIFT_MIN_MOVED) {
    return result(
      "Interface Shift",
      `${pct(moved("interface"))} of the traffic moved between ingress interfaces (${pct(moved("router"))} between routers, ${pct(moved("handoverAs"))} between handover ASes).`,
    );
  }
  if (LEVELS.every((level) => moved(level) < ORGANIC_TOLERANCE)) {
    const change = (total.anomalyTotal - total.baselineTotal) / total.baselineTotal;
    return result("Organic", `The total changed by ${pct(change)} while no level's shares moved by 5 % or more.`);
  }
  return result("Unknown", "The shares moved by more than the organic tolerance at some level but no level moved enough to be a shift.");
}

/** The routing evidence's conclusion: Yes with changes of the affected prefixes in the window, No without, Unknown without routing data. */
export function routingConclusion(changes: number, vantagePoints: number): Conclusion {
  if (vantagePoints === 0) return "Unknown";
  return changes > 0 ? "Yes" : "No";
}
