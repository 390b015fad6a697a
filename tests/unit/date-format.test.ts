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
