/**
 * Which traffic a flows view counts, said next to its total: the AS dimensions count one direction
 * (dimensions.ts), the dimensions without one (routers, interfaces, protocols, applications …)
 * count all traffic unless the screen (AS Flows Egress) or a filter restricts it. A positive filter
 * on a directed dimension keeps only rows of its direction; a negated one removes only its own rows,
 * so it restricts nothing. Pure and isomorphic.
 */
import { getDimension, type DimensionId, type Direction } from "./dimensions";

export type CountedTraffic = "INGRESS" | "EGRESS" | "ALL" | "NONE";

export const COUNTED_TRAFFIC_LABELS: Record<CountedTraffic, string> = {
  INGRESS: "ingress traffic (entering the network from neighbours)",
  EGRESS: "egress traffic (leaving the network to neighbours)",
  ALL: "all traffic: ingress and egress",
  NONE: "no traffic: the ingress and egress filters exclude each other",
};

/**
 * The rule behind every total, said next to it: the collector marks the observation of a flow where
 * it enters the network as the one that counts (flows_raw.counted, docs/architecture.md section 8a);
 * copies exported again by routers further along are kept as raw records only.
 */
export const COUNTED_ONCE_NOTE =
  "Each flow counts once, where it enters the network (external or access interface); the same traffic exported again by other routers on core interfaces is not added.";

export function countedTraffic(
  dimensions: readonly DimensionId[],
  scope: Direction | null | undefined,
  filters: readonly { dimension: DimensionId; isNegation: boolean }[],
): CountedTraffic {
  const directions = new Set<Direction>();
  for (const d of dimensions) {
    const direction = getDimension(d).direction;
    if (direction) directions.add(direction);
  }
  if (scope) directions.add(scope);
  for (const f of filters) {
    const direction = getDimension(f.dimension).direction;
    if (direction && !f.isNegation) directions.add(direction);
  }
  if (directions.size > 1) return "NONE";
  return directions.size ? [...directions][0] : "ALL";
}
