/**
 * The traffic ratio categories of the spec (shell §3), as PeeringDB declares them and as the AS
 * Relations screen derives them from observed traffic.
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
