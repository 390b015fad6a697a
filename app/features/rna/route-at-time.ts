/**
 * The route that carried a raw flow (issue point 10): what the row detail of the Raw Network
 * Analyzer shows, and the pure rules behind it — which of the routes of the longest matching
 * prefix carried the flow, and the Control Plane address of that moment. Isomorphic: the server
 * function (route-at-time.server.ts) builds the answer, the component (ui/RouteAtTime.tsx) shows it.
 */
import type { RpkiState } from "~/features/routing/rpki/state";
import type { RibView } from "~/features/routing/rib-views";

/** One AS of a path with the name the viewer reads for it (null when nothing names it). */
export type NamedAs = { asn: number; name: string | null };

/** One community of a route with its label: the operator's label or the well-known name (null when none applies). */
export type LabelledCommunity = { community: string; label: string | null };

/** A route of the routing history as it stood at the flow's time. */
export type RouteAtTimeRoute = {
  prefix: string;
  /** Unix seconds of the announcement in effect at the flow's time (the newest one before it). */
  announcedAt: number;
  ribView: RibView;
  /** Path id of an ADD-PATH session, 0 without. */
  pathId: number;
  peerIp: string;
  peerAs: NamedAs;
  nextHop: string;
  asPath: NamedAs[];
  /** AS_SET members of an aggregate (they close the path). */
  asPathSet: number[];
  origin: string;
  localPref: number;
  med: number;
  communities: LabelledCommunity[];
  /** Origin validation against the VRPs loaded now (no history of VRPs is kept); null when none is loaded. */
  rpki: RpkiState | null;
};

/** Why a route of the prefix was taken as the one that carried the flow. */
export type CarriedBecause = "only-route" | "flow-next-hop" | "loc-rib" | "best-path";

export type RouteAtTimeVantagePoint = { key: string; name: string; router: string };

export type RouteAtTimeResult =
  | {
      kind: "route";
      /** The flow's time (unix seconds). */
      at: number;
      destination: string;
      vantagePoint: RouteAtTimeVantagePoint;
      /** The routing table read ("" is the global table). */
      routeDistinguisher: string;
      /** The flow's VRF whose table that is (router_vrfs), null for the global table or a distinguisher given as such. */
      vrf: string | null;
      /** The flow's VRF when the inventory gives the router no distinguisher for it: the global table was read (unmappedVrfNote). */
      unmappedVrf: string | null;
      /** The route that carried the flow, and why it is that one. */
      route: RouteAtTimeRoute;
      carriedBecause: CarriedBecause;
      /** The other routes of the same prefix present at that time (other peers, tables or paths). */
      otherPaths: RouteAtTimeRoute[];
      controlPlaneHref: string | null;
    }
  | {
      kind: "no-route";
      at: number;
      destination: string;
      vantagePoint: RouteAtTimeVantagePoint;
      routeDistinguisher: string;
      vrf: string | null;
      unmappedVrf: string | null;
      message: string;
      controlPlaneHref: string | null;
    }
  /** The exporting router has no vantage point in the inventory, or the account may not use it. */
  | { kind: "no-vantage-point"; at: number; destination: string; message: string }
  | { kind: "not-available"; at: number; destination: string; message: string };

export const CARRIED_BECAUSE_LABELS: Record<CarriedBecause, string> = {
  "only-route": "the only route of the prefix",
  "flow-next-hop": "its next hop is the flow's next hop",
  "loc-rib": "the router's selected route (Loc-RIB)",
  "best-path": "the best path: highest local preference, shortest AS path, lowest origin, lowest MED",
};

export function noRouteMessage(destination: string, vantagePointName: string): string {
  return `No route covered ${destination} at ${vantagePointName} at that time.`;
}

export function noVantagePointMessage(router: string): string {
  return router
    ? `The exporting router ${router} has no vantage point in the inventory, so its routing table is not known.`
    : "The flow's exporter is not a router of the inventory, so its routing table is not known.";
}

/** Beside the answer for a flow whose VRF the inventory gives the router no route distinguisher. */
export function unmappedVrfNote(vrf: string, router: string): string {
  return (
    `The flow is of VRF ${vrf}, which the inventory does not give router ${router} with a route distinguisher: ` +
    "this is the global table's answer (add the VRF to the router in the inventory if it has a table of its own)."
  );
}

export const NOT_AVAILABLE_MESSAGE = "The routing table of this router is not available to your account.";

const ORIGIN_RANK: Record<string, number> = { IGP: 0, EGP: 1, INCOMPLETE: 2 };

/** Path length as BGP counts it: the sequence's ASes, and an AS_SET as one. */
const pathLength = (r: RouteAtTimeRoute) => r.asPath.length + (r.asPathSet.length ? 1 : 0);

/**
 * The BGP decision steps that the history can judge (RFC 4271 §9.1.2.2, without IGP cost and
 * router ids, which it does not hold): higher local preference, shorter AS path, lower origin,
 * lower MED; then the peer address, so the choice is stable.
 */
function betterPath(a: RouteAtTimeRoute, b: RouteAtTimeRoute): number {
  return (
    b.localPref - a.localPref ||
    pathLength(a) - pathLength(b) ||
    (ORIGIN_RANK[a.origin] ?? 3) - (ORIGIN_RANK[b.origin] ?? 3) ||
    a.med - b.med ||
    (a.peerIp < b.peerIp ? -1 : a.peerIp > b.peerIp ? 1 : 0) ||
    a.pathId - b.pathId
  );
}

/**
 * Which of the routes of one prefix carried the flow: the one whose next hop is the flow's own
 * next hop (what the router did, when the exporter sent it), else the router's Loc-RIB route
 * (what it selected), else the best path of the steps above. `sameAddress` compares addresses in
 * any spelling. Null for no routes.
 */
export function carryingRoute(
  routes: readonly RouteAtTimeRoute[],
  flowNextHop: string | null,
  sameAddress: (a: string, b: string) => boolean,
): { route: RouteAtTimeRoute; because: CarriedBecause; others: RouteAtTimeRoute[] } | null {
  if (routes.length === 0) return null;
  const ranked = [...routes].sort(betterPath);
  const pick = (route: RouteAtTimeRoute, because: CarriedBecause) => ({ route, because, others: ranked.filter((r) => r !== route) });
  if (ranked.length === 1) return pick(ranked[0], "only-route");
  const byNextHop = flowNextHop ? ranked.filter((r) => r.nextHop !== "" && sameAddress(r.nextHop, flowNextHop)) : [];
  const locRibByNextHop = byNextHop.find((r) => r.ribView === "loc-rib");
  if (byNextHop.length) return pick(locRibByNextHop ?? byNextHop[0], "flow-next-hop");
  const locRib = ranked.find((r) => r.ribView === "loc-rib");
  if (locRib) return pick(locRib, "loc-rib");
  return pick(ranked[0], "best-path");
}

/** How far around the flow's time the Control Plane link looks: the changes just before and after it. */
export const CONTROL_PLANE_WINDOW_SECONDS = 60 * 60;

/**
 * The Control Plane at the flow's time, from the parameters that screen documents
 * (features/controlplane/params.ts): an IP / IP prefix query for the destination address (every
 * prefix covering it), start and end as unix seconds — from the announcement in effect (without
 * one, an hour before the flow) to an hour after it, so the route and what changed around the flow
 * are in range. The start is never before the announcement: that screen resets a start outside the
 * history it holds, and the announcement is in it.
 */
export function controlPlaneAtTimeHref(destination: string, at: number, announcedAt: number | null): string {
  const start = announcedAt ?? at - CONTROL_PLANE_WINDOW_SECONDS;
  const search = new URLSearchParams({
    queryType: "IpPrefixQuery",
    queryTerm: destination,
    start: String(start),
    end: String(at + CONTROL_PLANE_WINDOW_SECONDS),
  });
  return `/controlplane?${search.toString()}`;
}
