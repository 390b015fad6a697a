import { describe, expect, it } from "vitest";
import { countedTraffic } from "~/features/flows/counted-traffic";
import { rangeNotice, viewWindow } from "~/features/flows/range-notice";
import { clampToData } from "~/lib/time-range";
import { valueLabel, filterLabel } from "~/features/filter/value-labels";

const DAY = 86_400;
const NOW = 1_800_000_000;
/** A range as the flows queries resolve it, data up to `dataEnd`. */
const resolved = (start: number, end: number, dataEnd: number, dataStart = 0) => ({
  ...clampToData({ start, end }, dataStart, dataEnd),
  requested: { start, end },
});

describe("the routine lag of the newest data", () => {
  it("a preset ending now, data 10 minutes old: no notice, and Last 7 days keeps hourly buckets", () => {
    const week = resolved(NOW - 7 * DAY, NOW, NOW - 600);
    expect(week.adjusted).toBe("end-clamped");
    expect(viewWindow(week)).toBe(3600);
    expect(rangeNotice(week, 3600, "UTC")).toBeNull();
    const twoDays = resolved(NOW - 2 * DAY, NOW, NOW - 600);
    expect(viewWindow(twoDays)).toBe(900);
    expect(rangeNotice(twoDays, 900, "UTC")).toBeNull();
  });

  it("the spec's windows: 5 min up to a day, 15 min up to 6 days, 1 h from 7 to 59 days, daily from 60", () => {
    const w = (days: number) => viewWindow(resolved(NOW - days * DAY, NOW, NOW - 300));
    expect([w(1), w(2), w(6), w(7), w(30), w(59), w(60), w(90)]).toEqual([300, 900, 900, 3600, 3600, 3600, 86_400, 86_400]);
  });

  it("a real gap still warns, with the dates in the spec's format", () => {
    const gap = resolved(NOW - 2 * DAY, NOW, NOW - 3 * 3600);
    expect(rangeNotice(gap, 900, "Europe/Berlin")).toMatch(
      /^The newest flow data ends at \d{2}\.\d{2}\.\d{4} \d{2}:\d{2} Europe\/Berlin; the range ends there \(requested \d{2}\.\d{2}\.\d{4} \d{2}:\d{2} Europe\/Berlin\)\.$/,
    );
    // Up to two buckets of an hourly view are routine, three are not.
    expect(rangeNotice(resolved(NOW - 7 * DAY, NOW, NOW - 2 * 3600), 3600, "UTC")).toBeNull();
    expect(rangeNotice(resolved(NOW - 7 * DAY, NOW, NOW - 3 * 3600), 3600, "UTC")).not.toBeNull();
    expect(rangeNotice(resolved(NOW - 7 * DAY, NOW, NOW - 600, NOW - 3 * DAY), 3600, "UTC")).toMatch(/^Start date unavailable: .*\)\.$/);
    expect(rangeNotice(resolved(NOW + DAY, NOW + 2 * DAY, NOW), 300, "UTC")).toMatch(/^No data for the chosen start or end/);
  });
});

describe("which traffic a view counts", () => {
  it("AS dimensions one direction, the others all traffic unless a scope or a positive directed filter narrows it", () => {
    expect(countedTraffic(["AS_SRC_INGRESS"], null, [])).toBe("INGRESS");
    expect(countedTraffic(["AS_NEIGHBOR_EGRESS"], null, [])).toBe("EGRESS");
    expect(countedTraffic(["ROUTER_IN"], null, [])).toBe("ALL");
    expect(countedTraffic(["IANA_PROTOCOL"], "EGRESS", [])).toBe("EGRESS");
    expect(countedTraffic(["ROUTER_IN"], null, [{ dimension: "AS_SRC_INGRESS", isNegation: false }])).toBe("INGRESS");
    expect(countedTraffic(["ROUTER_IN"], null, [{ dimension: "AS_SRC_INGRESS", isNegation: true }])).toBe("ALL");
    expect(countedTraffic(["AS_SRC_INGRESS"], null, [{ dimension: "AS_DST_EGRESS", isNegation: false }])).toBe("NONE");
  });
});

describe("values and filters as people read them", () => {
  it("labels", () => {
    expect(valueLabel("IANA_PROTOCOL", "6")).toBe("TCP");
    expect(valueLabel("IANA_PROTOCOL", "143")).toBe("143");
    expect(valueLabel("IANA_PROTOCOL", "-101")).toBe("Others");
    expect(valueLabel("INTERFACE_IN", "lon-er1|xe-0/0/6")).toBe("lon-er1 xe-0/0/6");
    expect(valueLabel("AS_INFRASTRUCTURE", "")).toBe("Not mapped");
    expect(filterLabel({ dimension: "AS_SRC_INGRESS", value: "15169", isNegation: false, name: "Google" })).toBe(
      "Source AS (ingress): AS15169 Google",
    );
    expect(filterLabel({ dimension: "AS_DST_INGRESS", value: "8422", isNegation: false, locked: true, name: "NetCologne" })).toBe(
      "Destination AS (ingress): AS8422 NetCologne (locked)",
    );
    expect(filterLabel({ dimension: "IANA_PROTOCOL", value: "17", isNegation: true })).toBe("not IANA protocol: UDP");
  });
});
