/**
 * Which traffic a flows view counts, said next to its total: the AS dimensions count one direction
 * (dimensions.ts), the dimensions without one (routers, interfaces, protocols, applications …)
 * count all traffic unless the screen (AS Flows Egress) or a filter restricts it. A positive filter
 * on a directed dimension keeps only rows of its direction; a negated one removes only its own rows,
 * so it restricts nothing. A view with a direction also says how much traffic of its range and
 * filters it leaves out and where that entered the network, with a link to a view without a
 * direction, which shows all of it (leftOutText, allTrafficView, allTrafficHref). Pure and isomorphic.
 */
import { getDimension, type DimensionId, type Direction } from "~/features/filter/dimensions";

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

/** The bit/s a view with a direction leaves out, by where that traffic entered the network (service.server.ts LeftOut). */
export type LeftOutFigures = { bps: number; fromNeighboursBps: number; fromAccessBps: number };

/**
 * What the total leaves out, in words: "62.4 Gbit/s entering from access interfaces", or with both
 * parts "431 Gbit/s: 430 Gbit/s entering from neighbours and 1.2 Gbit/s …". Traffic from an access
 * interface left out of an egress view is what never leaves the network. Null when nothing is left out.
 */
export function leftOutText(figures: LeftOutFigures, direction: Direction, format: (bps: number) => string): string | null {
  if (!(figures.bps > 0)) return null;
  const fromAccess =
    direction === "EGRESS" ? "entering from access interfaces and staying inside the network" : "entering from access interfaces";
  const parts = [
    { bps: figures.fromNeighboursBps, reason: "entering from neighbours" },
    { bps: figures.fromAccessBps, reason: fromAccess },
  ].filter((p) => p.bps > 0);
  if (parts.length === 1) return `${format(figures.bps)} ${parts[0].reason}`;
  return `${format(figures.bps)}: ${parts.map((p) => `${format(p.bps)} ${p.reason}`).join(" and ")}`;
}

/** The views that show the traffic a directed view leaves out, in order of preference: no direction, so all of it. */
const UNDIRECTED_VIEWS: readonly DimensionId[] = ["ROUTER_IN", "IANA_PROTOCOL"];

/** Of the dimensions a user may open, the one whose view shows all the traffic; null when there is none. */
export function allTrafficView(dimensions: readonly { value: DimensionId; direction: Direction | null }[]): DimensionId | null {
  const undirected = dimensions.filter((d) => d.direction === null).map((d) => d.value);
  return UNDIRECTED_VIEWS.find((d) => undirected.includes(d)) ?? undirected[0] ?? null;
}

/**
 * The Flow Explorer link to that view, keeping the range, filters, IP version and table of `search`:
 * only the dimension changes (and a Sankey's second dimension goes, which could bring a direction back).
 */
export function allTrafficHref(search: URLSearchParams, dimension: DimensionId): string {
  const params = new URLSearchParams(search);
  params.set("dimension", dimension);
  params.delete("dimension2");
  if (params.get("view") === "sankey") params.delete("view");
  return `/flow-explorer?${params.toString()}`;
}
