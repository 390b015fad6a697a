const DAY = 86_400;
/** 11:10 UTC: a 5-minute boundary inside the demo's busy hours. */
const TIME_OF_DAY = 11 * 3_600 + 10 * 60;

/**
 * The end of the demo period an integration test loads: yesterday at 11:10 UTC by the real clock.
 * Near the clock, because ClickHouse's retention TTLs (raw flows 7 days, 5-minute aggregates 100
 * days) are measured against it and would remove rows of a fixed past date while a test reads
 * them; at a fixed time of day, so the daily traffic cycle looks the same on every run.
 */
export function demoTestNow(now = Date.now()): number {
  return (Math.floor(now / 1000 / DAY) - 1) * DAY + TIME_OF_DAY;
}

/** The first and last day of a range in UTC (the test users' timezone), as export file names carry them: `20261117-20261118`. */
export function utcDays(range: { start: number; end: number }): string {
  return [range.start, range.end].map((t) => new Date(t * 1000).toISOString().slice(0, 10).replaceAll("-", "")).join("-");
}
