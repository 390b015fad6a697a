import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone";
import utc from "dayjs/plugin/utc";
import { describe, expect, it } from "vitest";
import { timeTicks } from "~/lib/time-ticks";

dayjs.extend(utc);
dayjs.extend(timezone);

const at = (text: string, tz = "UTC") => dayjs.tz(text, tz).unix();
const labels = (values: number[], tz: string, pattern: string) => values.map((v) => dayjs.unix(v).tz(tz).format(pattern));

describe("timeTicks", () => {
  it("a week: every day at local midnight, labelled by day", () => {
    const t = timeTicks(at("2026-11-17 12:30"), at("2026-11-24 12:30"), "UTC");
    expect(t.format).toBe("DD.MM.YYYY");
    expect(labels(t.values, "UTC", "MM-DD HH:mm")).toEqual([
      "11-18 00:00",
      "11-19 00:00",
      "11-20 00:00",
      "11-21 00:00",
      "11-22 00:00",
      "11-23 00:00",
      "11-24 00:00",
    ]);
  });

  it("30 days: every seventh day, the same days when the range moves by a day", () => {
    const a = timeTicks(at("2026-10-25 12:00"), at("2026-11-24 12:00"), "UTC");
    const b = timeTicks(at("2026-10-26 12:00"), at("2026-11-25 12:00"), "UTC");
    expect(a.values.length).toBeGreaterThanOrEqual(4);
    expect(a.values.length).toBeLessThanOrEqual(8);
    for (let i = 1; i < a.values.length; i++) expect(a.values[i] - a.values[i - 1]).toBe(7 * 86_400);
    expect(new Set(labels(a.values, "UTC", "dddd HH:mm"))).toEqual(new Set(["Monday 00:00"]));
    expect(b.values.filter((v) => a.values.includes(v)).length).toBeGreaterThanOrEqual(a.values.length - 1);
  });

  it("a day: every three hours on the hour in the user's timezone", () => {
    const tz = "Europe/Berlin";
    const t = timeTicks(at("2026-11-23 12:40", tz), at("2026-11-24 12:40", tz), tz);
    expect(t.format).toBe("HH:mm");
    expect(labels(t.values, tz, "HH:mm")).toEqual(["15:00", "18:00", "21:00", "00:00", "03:00", "06:00", "09:00", "12:00"]);
  });

  it("an hour: every 15 minutes; a two-day span keeps the date in the label (the spec's long format, at most 6 ticks)", () => {
    expect(labels(timeTicks(at("2026-11-24 10:02"), at("2026-11-24 11:02"), "UTC").values, "UTC", "HH:mm")).toEqual([
      "10:15",
      "10:30",
      "10:45",
      "11:00",
    ]);
    expect(timeTicks(at("2026-11-22 10:00"), at("2026-11-24 10:00"), "UTC").format).toBe("DD.MM.YYYY HH:mm");
  });

  it("local midnights stay at midnight across a daylight-saving change", () => {
    const tz = "Europe/Berlin";
    const t = timeTicks(at("2026-10-20 12:00", tz), at("2026-10-30 12:00", tz), tz);
    expect(new Set(labels(t.values, tz, "HH:mm"))).toEqual(new Set(["00:00"]));
  });

  it("never more ticks than asked for, always inside the range", () => {
    for (const span of [300, 3_600, 86_400, 5 * 86_400, 90 * 86_400, 800 * 86_400]) {
      const first = at("2026-03-01 07:13");
      const t = timeTicks(first, first + span, "America/New_York");
      expect(t.values.length).toBeLessThanOrEqual(8);
      expect(t.values.every((v) => v >= first && v <= first + span)).toBe(true);
    }
    expect(timeTicks(100, 100, "UTC").values).toEqual([100]);
    expect(timeTicks(at("2025-01-01 00:00"), at("2026-12-31 00:00"), "UTC").format).toBe("DD.MM.YYYY");
  });
});
