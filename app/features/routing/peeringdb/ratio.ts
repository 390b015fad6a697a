/**
 * The traffic ratio categories of the spec (shell §3), as PeeringDB declares them and as AS
 * Relations derives them from observed traffic. Pure and isomorphic.
 *
 * A network's ratio is said from its own side, as in PeeringDB: "Heavy Outbound" sends much more
 * than it receives. Observed from our flows, a neighbour's outbound is what it hands over to us
 * and its inbound what we hand over to it, each the 95th percentile of the month in that direction
 * (as peering policies state ratios). With r = outbound / inbound:
 *
 * | r                       | category                           |
 * |-------------------------|------------------------------------|
 * | 1/1.5 ≤ r ≤ 1.5         | Balanced                           |
 * | 1.5 < r ≤ 3             | Mostly Outbound                    |
 * | r > 3 (or inbound 0)    | Heavy Outbound                     |
 * | 1/3 ≤ r < 1/1.5         | Mostly Inbound                     |
 * | r < 1/3 (or outbound 0) | Heavy Inbound                      |
 * | no traffic either way   | Not Disclosed (nothing to observe) |
 */
export const TRAFFIC_RATIOS = [
  "Not Disclosed",
  "Heavy Outbound",
  "Mostly Outbound",
  "Balanced",
  "Mostly Inbound",
  "Heavy Inbound",
] as const;
export type TrafficRatio = (typeof TRAFFIC_RATIOS)[number];

/** Up to this many times more one way than the other is Balanced. */
export const BALANCED_MAX = 1.5;
/** Up to this many times is Mostly; beyond, Heavy. */
export const MOSTLY_MAX = 3;

/** The category of a neighbour's observed traffic: its outbound (to us) and inbound (from us) 95th, any unit. */
export function observedRatio(outbound: number, inbound: number): TrafficRatio {
  if (!(outbound > 0) && !(inbound > 0)) return "Not Disclosed";
  const outMore = outbound >= inbound;
  // Multiplied, not divided: the edges are exact (3:1 is Mostly, never 2.9999…).
  const [big, small] = outMore ? [outbound, inbound] : [inbound, outbound];
  if (big <= small * BALANCED_MAX) return "Balanced";
  if (big <= small * MOSTLY_MAX) return outMore ? "Mostly Outbound" : "Mostly Inbound";
  return outMore ? "Heavy Outbound" : "Heavy Inbound";
}

/** Whether the declared ratio and the observed one disagree: never when either is Not Disclosed. */
export function ratiosDisagree(declared: TrafficRatio, observed: TrafficRatio): boolean {
  return declared !== "Not Disclosed" && observed !== "Not Disclosed" && declared !== observed;
}
