/**
 * Trend forecasting over daily values: a Theil–Sen line and the build-out evaluation of the
 * planners (docs/planners.md, "Forecast"). Pure and isomorphic; the Flow Explorer's prediction
 * (forecast-seasonal.ts) uses the same fit.
 *
 * Theil–Sen rather than least squares: one outlier day (an outage, a DDoS) moves a least-squares
 * slope a lot and the median of pairwise slopes hardly at all.
 */

/** Fewer daily values than this give no forecast. */
export const MIN_FORECAST_DAYS = 7;
/** Beyond this many days (10 years) the words say "more than 10 years"; daysLeft keeps the figure. */
export const FAR_FUTURE_DAYS = 3650;
/** PERCENT: the utilisation expected this many days after the period's last day. */
export const FORECAST_HORIZON_DAYS = 90;

export type ForecastType = "DAYS" | "PERCENT";
export type ForecastOutcome = "reaches" | "no growth" | "already above" | "not enough data";

export type TrendLine = {
  /** Change per day. */
  slope: number;
  /** Fitted value at x = 0. */
  intercept: number;
  /** Points used (non-null). */
  points: number;
};

export type ForecastResult = {
  type: ForecastType;
  outcome: ForecastOutcome;
  /** Build-out utilisation (fraction, e.g. 0.95). */
  level: number;
  horizonDays: number;
  /** Daily values present (non-null). */
  points: number;
  /** Change of utilisation per day; null without a fit. */
  slopePerDay: number | null;
  /** Fitted utilisation at the period's last day; null without a fit. */
  fittedLast: number | null;
  /**
   * Whole days from the last day until the fitted line reaches the level (the first whole day at or
   * above it): 0 when already above; null for "no growth" and "not enough data".
   */
  daysLeft: number | null;
  /** Fitted utilisation at the horizon in percent (never below 0); null for "not enough data". */
  percentAtHorizon: number | null;
  /** What people read, e.g. "Reaches 95 % in 42 days". */
  words: string;
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Theil–Sen fit of y over x = index: slope = median of the pairwise slopes (pairs with distinct x),
 * intercept = median of y − slope·x. Null values are skipped; null when fewer than 2 points.
 */
export function theilSen(values: readonly (number | null)[]): TrendLine | null {
  const points: [number, number][] = [];
  values.forEach((y, x) => {
    if (y !== null && Number.isFinite(y)) points.push([x, y]);
  });
  if (points.length < 2) return null;
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++)
    for (let j = i + 1; j < points.length; j++) slopes.push((points[j][1] - points[i][1]) / (points[j][0] - points[i][0]));
  const slope = median(slopes);
  const intercept = median(points.map(([x, y]) => y - slope * x));
  return { slope, intercept, points: points.length };
}

/** A percentage for people: at most one decimal, no trailing zero (0.95 → "95"). */
export function percentWords(fraction: number): string {
  const p = Math.round(fraction * 1000) / 10;
  return Number.isInteger(p) ? String(p) : p.toFixed(1);
}

/**
 * The build-out forecast of daily utilisation values (one per day, consecutive, the last one the
 * period's last day; null for a day without a value). Both daysLeft and percentAtHorizon are
 * computed whatever the type; `type` picks the outcome's words.
 */
export function forecastBuildout(
  daily: readonly (number | null)[],
  options: { level: number; type: ForecastType; horizonDays?: number },
): ForecastResult {
  const { level, type } = options;
  const horizonDays = options.horizonDays ?? FORECAST_HORIZON_DAYS;
  const present = daily.filter((v) => v !== null && Number.isFinite(v)).length;
  const base = { type, level, horizonDays, points: present };
  const fit = present >= MIN_FORECAST_DAYS ? theilSen(daily) : null;
  if (!fit)
    return {
      ...base,
      outcome: "not enough data",
      slopePerDay: null,
      fittedLast: null,
      daysLeft: null,
      percentAtHorizon: null,
      words: `Not enough data (${present} of ${MIN_FORECAST_DAYS} days)`,
    };
  const last = daily.length - 1;
  const fittedLast = fit.intercept + fit.slope * last;
  const percentAtHorizon = Math.max(0, fittedLast + fit.slope * horizonDays) * 100;
  const levelWords = `${percentWords(level)} %`;
  let outcome: ForecastOutcome;
  let daysLeft: number | null;
  if (fittedLast >= level) {
    outcome = "already above";
    daysLeft = 0;
  } else if (fit.slope <= 0) {
    outcome = "no growth";
    daysLeft = null;
  } else {
    outcome = "reaches";
    // Whole days: the first day on which the line is at or above the level.
    daysLeft = Math.ceil((level - fittedLast) / fit.slope);
  }
  const daysWords =
    outcome === "already above"
      ? `Already above ${levelWords}`
      : outcome === "no growth"
        ? "No growth"
        : daysLeft !== null && daysLeft > FAR_FUTURE_DAYS
          ? // A slope of a few thousandths of a percent a day gives tens of thousands of days: a figure nobody plans with.
            `Reaches ${levelWords} in more than ${FAR_FUTURE_DAYS / 365} years`
          : `Reaches ${levelWords} in ${daysLeft} ${daysLeft === 1 ? "day" : "days"}`;
  const words = type === "DAYS" ? daysWords : `${percentWords(percentAtHorizon / 100)} % in ${horizonDays} days`;
  return { ...base, outcome, slopePerDay: fit.slope, fittedLast, daysLeft, percentAtHorizon, words };
}
