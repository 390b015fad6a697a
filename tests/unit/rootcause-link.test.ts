/**
 * The root-cause analysis's addresses from the Flow Explorer (app/features/flows/rootcause/link.ts): a row's value
 * over the view's range as the analysis's start (ISO) and duration, cut to the last 7 days; only the object
 * dimensions, never Others; the no-JavaScript form link without a value.
 */
import { describe, expect, it } from "vitest";
import { parseDuration, parseStart } from "~/features/flows/rootcause/duration";
import { rootCauseFormHref, rootCauseRowHref } from "~/features/flows/rootcause/link";

const DAY = 86_400;
const start = Date.UTC(2026, 10, 20, 18, 0) / 1000;
const params = (href: string | null) => Object.fromEntries(new URL(href!, "http://x").searchParams);

describe("root-cause links", () => {
  it("gives a row's value over the view's range", () => {
    const href = rootCauseRowHref("AS_SRC_INGRESS", "2906", { start, end: start + 3 * 3600 + 20 * 60 });
    expect(new URL(href!, "http://x").pathname).toBe("/flow-explorer/rootcause");
    expect(params(href)).toEqual({ dimension: "AS_SRC_INGRESS", value: "2906", start: "2026-11-20T18:00:00Z", duration: "3h20m" });
    // What the analysis parses back is the range.
    const p = params(href);
    expect(parseStart(p.start)).toEqual({ ok: true, value: start });
    expect(parseDuration(p.duration)).toEqual({ ok: true, value: 3 * 3600 + 20 * 60 });
  });

  it("keeps the last 7 days of a longer range", () => {
    const p = params(rootCauseRowHref("ROUTER_IN", "fra-er1", { start, end: start + 30 * DAY }));
    expect(p.duration).toBe("7d");
    expect(parseStart(p.start)).toEqual({ ok: true, value: start + 23 * DAY });
  });

  it("is offered for the analysis's dimensions only, never for Others or an empty range", () => {
    expect(rootCauseRowHref("AS_DST_EGRESS", "2906", { start, end: start + DAY })).toBeNull();
    expect(rootCauseRowHref("AS_SRC_INGRESS", "-101", { start, end: start + DAY })).toBeNull();
    expect(rootCauseRowHref("INTERFACE_IN", "", { start, end: start + DAY })).toBeNull();
    expect(rootCauseRowHref("AS_HND_INGRESS", "3356", { start, end: start })).toBeNull();
  });

  it("prefills the form with the dimension and period, the value to choose", () => {
    expect(params(rootCauseFormHref("INTERFACE_IN", { start, end: start + DAY }))).toEqual({
      dimension: "INTERFACE_IN",
      start: "2026-11-20T18:00:00Z",
      duration: "1d",
    });
    expect(rootCauseFormHref("PROTOCOL" as never, { start, end: start + DAY })).toBeNull();
  });
});
