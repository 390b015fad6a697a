/**
 * What-if (docs/revenues-and-costs.md "What-if"), pure: a share of one AS's traffic moved from one
 * billing group to another, interval by interval, and both groups billed again on the moved 5-minute
 * series — never on averages, since the 95th of a series is not moved by the mean of what leaves it.
 */
import { chargesOf, trafficFigures, type BillTerms, type BillingWindow, type Charges, type PortSamples, type TrafficFigures } from "./bill";

/** Per interval (unix seconds), the bytes in and out. */
export type Series = ReadonlyMap<number, { inBytes: number; outBytes: number }>;

/** The groups' series after moving `share` (0–1) of the AS's bytes: taken off `from` (never below 0), added to `to`. */
export function moveTraffic(from: Series, to: Series, asTraffic: Series, share: number): { from: Series; to: Series } {
  if (!(share >= 0 && share <= 1)) throw new RangeError("the share moved is from 0 to 1");
  const nextFrom = new Map([...from].map(([t, v]) => [t, { ...v }]));
  const nextTo = new Map([...to].map(([t, v]) => [t, { ...v }]));
  for (const [t, v] of asTraffic) {
    const a = nextFrom.get(t);
    const movedIn = Math.min(v.inBytes * share, a?.inBytes ?? 0);
    const movedOut = Math.min(v.outBytes * share, a?.outBytes ?? 0);
    if (a) {
      a.inBytes -= movedIn;
      a.outBytes -= movedOut;
    }
    const b = nextTo.get(t) ?? { inBytes: 0, outBytes: 0 };
    b.inBytes += movedIn;
    b.outBytes += movedOut;
    nextTo.set(t, b);
  }
  return { from: nextFrom, to: nextTo };
}

/** A group's bill on a series (the group's ports already summed: billed as one aggregate port). */
export function billOnSeries(series: Series, terms: BillTerms, window: BillingWindow): { traffic: TrafficFigures; charges: Charges } {
  const port: PortSamples = {
    key: "group",
    samples: [...series].sort(([a], [b]) => a - b).map(([t, v]) => ({ t, inBytes: v.inBytes, outBytes: v.outBytes, source: "what-if" })),
  };
  const traffic = trafficFigures([port], { billedDirection: terms.billedDirection, groupMode: "aggregate" }, window);
  return { traffic, charges: chargesOf(terms, traffic, window) };
}
