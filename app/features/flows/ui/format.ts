import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone";
import utc from "dayjs/plugin/utc";

dayjs.extend(utc);
dayjs.extend(timezone);

/** A unix time in the user's timezone (settings → timezone). */
export function fmtTime(ts: number, tz: string, pattern = "YYYY-MM-DD HH:mm") {
  return dayjs.unix(ts).tz(tz).format(pattern);
}
