import { describe, expect, it } from "vitest";
import {
  formatDateCompact,
  formatDateIso,
  formatDateLong,
  formatDateLongBare,
  formatDateShort,
  formatTime,
  formatTimeSeconds,
  fromUnixSeconds,
  safeTimezone,
} from "~/lib/date-format";

// 2026-03-29 00:30:05 UTC: the night Europe/Berlin moves from UTC+1 to UTC+2 (at 01:00 UTC).
const BEFORE_DST = Date.UTC(2026, 2, 29, 0, 30, 5);
const AFTER_DST = Date.UTC(2026, 2, 29, 1, 30, 5);

describe("the spec's date formats", () => {
  it("formats in the given timezone, not the machine's", () => {
    expect(formatDateShort(BEFORE_DST, "UTC")).toBe("29.03.2026");
    expect(formatDateShort(Date.UTC(2026, 2, 28, 23, 30), "Europe/Berlin")).toBe("29.03.2026");
    expect(formatDateLong(BEFORE_DST, "Europe/Berlin")).toBe("29.03.2026 01:30 Europe/Berlin");
    expect(formatDateLong(AFTER_DST, "Europe/Berlin")).toBe("29.03.2026 03:30 Europe/Berlin");
    expect(formatDateLongBare(AFTER_DST, "UTC")).toBe("29.03.2026 01:30");
    expect(formatTime(AFTER_DST, "America/New_York")).toBe("21:30");
    expect(formatTimeSeconds(AFTER_DST, "UTC")).toBe("01:30:05");
    expect(formatDateCompact(BEFORE_DST, "UTC")).toBe("20260329");
    expect(formatDateIso(BEFORE_DST, "Asia/Tokyo")).toBe("2026-03-29");
  });

  it("accepts Date, ISO strings and unix seconds", () => {
    expect(formatDateLong(new Date(AFTER_DST), "UTC")).toBe("29.03.2026 01:30 UTC");
    expect(formatDateLong("2026-03-29T01:30:05Z", "UTC")).toBe("29.03.2026 01:30 UTC");
    expect(formatDateLong(fromUnixSeconds(AFTER_DST / 1000), "UTC")).toBe("29.03.2026 01:30 UTC");
  });

  it("falls back to UTC for a missing or unknown timezone", () => {
    expect(safeTimezone(undefined)).toBe("UTC");
    expect(safeTimezone("Mars/Olympus_Mons")).toBe("UTC");
    expect(formatDateLong(AFTER_DST, "Mars/Olympus_Mons")).toBe("29.03.2026 01:30 UTC");
  });
});

describe("formatting against Intl, instant by instant", () => {
  // The module applies a cached offset per zone and quarter hour; Intl asked for every instant is the reference.
  const reference = (ms: number, tz: string) => {
    const parts = new Intl.DateTimeFormat("en-GB", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    }).formatToParts(new Date(ms));
    const f = (t: string) => parts.find((p) => p.type === t)!.value;
    return `${f("day")}.${f("month")}.${f("year")} ${f("hour")}:${f("minute")}`;
  };
  it.each(["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "America/St_Johns", "Pacific/Chatham", "UTC"])(
    "%s over two years, every 7 minutes around the transitions",
    (tz) => {
      const start = Date.UTC(2026, 0, 1);
      for (let ms = start; ms < start + 2 * 365 * 86_400_000; ms += 97 * 60_000) expect(formatDateLongBare(ms, tz)).toBe(reference(ms, tz));
      for (const day of [
        Date.UTC(2026, 2, 29),
        Date.UTC(2026, 9, 25),
        Date.UTC(2026, 2, 8),
        Date.UTC(2026, 10, 1),
        Date.UTC(2026, 3, 5),
        Date.UTC(2026, 8, 27),
      ]) {
        for (let ms = day - 86_400_000; ms < day + 86_400_000; ms += 7 * 60_000) expect(formatDateLongBare(ms, tz)).toBe(reference(ms, tz));
      }
    },
  );
});
