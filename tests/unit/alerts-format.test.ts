/**
 * The Alerts screen's pure parts: rates as the Flow Explorer writes them (bit/s, and packets/s by
 * the same rule), thresholds typed with SI prefixes and written back, durations, the URL state,
 * the "Alert on this view" and view links, and the form turned into the API's body.
 */
import { describe, expect, it } from "vitest";
import { describeCondition, formatPacketsPerSecond, formatRate, formatSeconds, parseRate, rateText } from "~/features/alerts/format";
import { EMPTY_RULE_FORM, formOfRule, parseAlertsParams, ruleBodyOf } from "~/features/alerts/params";
import { alertOnViewHref, flowExplorerViewHref } from "~/lib/alert-link";
import { formatBitsPerSecond } from "~/lib/units";

describe("alert formatting", () => {
  it("writes bit/s as the Flow Explorer does and packets/s by the same rule", () => {
    for (const v of [0, 0.5, 999, 1234, 999_999, 12_345_678, 3.2e12]) expect(formatRate(v, "bps")).toBe(formatBitsPerSecond(v));
    expect(formatPacketsPerSecond(0)).toBe("0 packets/s");
    expect(formatPacketsPerSecond(1234)).toBe("1.23 kpackets/s");
    expect(formatPacketsPerSecond(999_999)).toBe("1.00 Mpackets/s");
    expect(formatRate(null, "pps")).toBe("–");
  });

  it("reads thresholds with SI prefixes and writes them back the shortest exact way", () => {
    expect(parseRate("1.5G")).toBe(1.5e9);
    expect(parseRate(" 800 k ")).toBe(800_000);
    expect(parseRate("10 Mbit/s")).toBe(10_000_000);
    expect(parseRate("2,5M")).toBe(2_500_000);
    expect(parseRate("2500000")).toBe(2_500_000);
    for (const bad of ["", "lots", "-5", "1e9", "5 X"]) expect(parseRate(bad)).toBeNull();
    expect(rateText(1.5e9)).toBe("1.5G");
    expect(rateText(800_000)).toBe("800k");
    expect(rateText(42)).toBe("42");
    expect(rateText(1234.5)).toBe("1234.5");
    expect(rateText(123_456_789)).toBe("123456789");
    for (const v of [1.5e9, 800_000, 42, 10_000_000, 123_456_789]) expect(parseRate(rateText(v))).toBe(v);
  });

  it("writes durations and conditions for people", () => {
    expect(formatSeconds(0)).toBe("none");
    expect(formatSeconds(900)).toBe("15 min");
    expect(formatSeconds(5400)).toBe("1 h 30 min");
    expect(formatSeconds(45)).toBe("45 s");
    expect(describeCondition({ condition: "above", metric: "bps", threshold: 1e7, bandFactor: null })).toBe("above 10.0 Mbit/s");
    expect(describeCondition({ condition: "outside_band", metric: "pps", threshold: null, bandFactor: 1.5 })).toBe(
      "outside the seasonal band of packets/s × 1.5",
    );
  });

  it("links a view both ways: the prefilled new-rule form and the Flow Explorer", () => {
    const view = { dimension: "AS_HND_INGRESS", filter: ["AS_SRC_INGRESS:65010", " "], ipVersion: "6" };
    const href = alertOnViewHref(view);
    expect(href).toBe("/alerts?new=1&dimension=AS_HND_INGRESS&filter=AS_SRC_INGRESS%3A65010&ipVersion=6");
    const params = parseAlertsParams(new URL(href, "http://x").searchParams);
    expect(params).toMatchObject({
      creating: true,
      prefill: { dimension: "AS_HND_INGRESS", filter: ["AS_SRC_INGRESS:65010"], ipVersion: "6" },
    });
    expect(flowExplorerViewHref({ ...view, value: "3356" })).toBe(
      "/flow-explorer?dimension=AS_HND_INGRESS&filter=AS_SRC_INGRESS%3A65010&filter=AS_HND_INGRESS%3A3356&ipVersion=6",
    );
    expect(parseAlertsParams(new URLSearchParams("rule=x&edit=12&ipVersion=7&saved=nope"))).toMatchObject({
      rule: null,
      edit: 12,
      saved: null,
      prefill: { ipVersion: "all" },
    });
  });

  it("turns the form into the API's body and a stored rule back into the same form", () => {
    const form = {
      ...EMPTY_RULE_FORM,
      name: "R",
      value: "65010",
      threshold: "1.5G",
      minDuration: "15",
      hysteresis: "10",
      emails: "a@b.test\nc@d.test",
    };
    const out = ruleBodyOf(form, [7]);
    expect(out).toEqual({
      body: {
        name: "R",
        view: { dimension: "AS_SRC_INGRESS", filter: [], ipVersion: "all", value: "65010" },
        metric: "bps",
        condition: "above",
        threshold: 1.5e9,
        bandFactor: null,
        minDurationSeconds: 900,
        hysteresis: 0.1,
        severity: "warning",
        recipients: { userIds: [7], groupIds: [], emails: ["a@b.test", "c@d.test"], webhook: null },
        enabled: true,
      },
    });
    if (!("body" in out)) throw new Error("no body");
    const back = formOfRule({ ...out.body, view: out.body.view, userEmails: [], recipients: out.body.recipients });
    expect(back).toEqual({ ...form, condition: "above", users: "", emails: "a@b.test\nc@d.test", threshold: "1.5G" });
    expect(ruleBodyOf({ ...form, condition: "outside_band", bandFactor: "0" }, [])).toEqual({
      errors: { bandFactor: "The band factor is a number above 0 and at most 100." },
    });
    expect(ruleBodyOf({ ...form, emails: "not-mail" }, [])).toEqual({ errors: { emails: "Enter a valid e-mail address." } });
  });
});
