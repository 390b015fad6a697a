/**
 * Tick marks of a time axis at the times a reader expects — whole hours, local midnights, every
 * second or seventh day — in the user's timezone, instead of a linear scale's round numbers of
 * unix seconds (which land on 11:06, 14:53, …).
 */
import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone";
import utc from "dayjs/plugin/utc";
import { DATE_FORMATS, type DateFormat } from "~/lib/date-format";

dayjs.extend(utc);
dayjs.extend(timezone);

const HOUR = 3_600;
const DAY = 86_400;
const STEPS = [
  5 * 60,
  15 * 60,
  30 * 60,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
  28 * DAY,
  91 * DAY,
  182 * DAY,
  364 * DAY,
];

export type TimeTicks = { values: number[]; format: DateFormat };

/**
 * Ticks within [first, last] (unix seconds), at most `maxTicks` of them, and the pattern to label
 * them: one of the spec's formats (dd.MM.yyyy for days, HH:mm within a day, dd.MM.yyyy HH:mm for
 * hours across days, with fewer ticks because the labels are longer).
 */
export function timeTicks(first: number, last: number, tz: string, maxTicks = 8): TimeTicks {
  const span = last - first;
  if (!(span > 0)) return { values: [first], format: DATE_FORMATS.time };
  const longLabels = span > DAY;
  const step = STEPS.find((s) => span / s <= (longLabels && s < DAY ? Math.min(maxTicks, 6) : maxTicks)) ?? STEPS[STEPS.length - 1];
  const values: number[] = [];
  const firstMidnight = dayjs.unix(first).tz(tz).startOf("day");
  if (step >= DAY) {
    // Every k-th date counted from a fixed Monday (day 4 since 1970-01-01), so weeks start on Mondays
    // and a range that moves by a day keeps the same days marked.
    const k = step / DAY;
    const dayNumber = Math.round((firstMidnight.unix() + firstMidnight.utcOffset() * 60) / DAY) - 4;
    for (let m = addDays(firstMidnight, (((k - (dayNumber % k)) % k) + k) % k, tz); m.unix() <= last; m = addDays(m, k, tz)) {
      if (m.unix() >= first) values.push(m.unix());
    }
  } else {
    // Within each local day from its midnight (spans here are at most a few days).
    for (let m = firstMidnight; m.unix() <= last; m = addDays(m, 1, tz)) {
      const next = addDays(m, 1, tz).unix();
      for (let t = m.unix(); t < next && t <= last; t += step) if (t >= first) values.push(t);
    }
  }
  const format = step >= DAY ? DATE_FORMATS.short : span > DAY ? DATE_FORMATS.long : DATE_FORMATS.time;
  return { values, format };
}

/** The local midnight `days` dates later: n × 24 h + 12 h on is always that date (days last 23 to 25 h), read at its midnight. */
function addDays(midnight: dayjs.Dayjs, days: number, tz: string): dayjs.Dayjs {
  return days === 0 ? midnight : dayjs.tz(midnight.add(days * 24 + 12, "hour").format("YYYY-MM-DD"), tz);
}
