/**
 * The route that carried a raw flow (issue point 10): for a flow row — its exporting router,
 * destination address, time, next hop and VRF (or route distinguisher) — the route its
 * destination had at that moment at the router's vantage point, with the AS path's names, the
 * communities' labels, the RPKI state and a link to the Control Plane at that time.
 *
 * A router's vantage point is the inventory's (vantage_points.router): the demo has one per router;
 * a router with several takes the one whose address is the exporter's, else the first. A flow whose
 * exporter the collector did not name is looked up by its address (router_exporters). A delegated
 * account reads only the routing tables of its Looking Glass routers, as on the Looking Glass.
 * A flow of a VRF (vrf_name) reads the table of that VRF's route distinguisher on the router
 * (router_vrfs in the inventory); for a VRF the inventory gives no distinguisher (the demo's
 * "default", a vendor's name for the global table) the global table is read, and the answer says so.
 */
import { communityNamer } from "~/lib/bgp-communities";
import { formatIpAddress, parseIpAddress, type IpAddress } from "~/lib/ip";
import { isToolBuilt } from "~/lib/routes";
import { routerForExporter, vrfRouteDistinguisher } from "~/features/inventory/inventory.server";
import { communityLabelList } from "~/features/routing/community-labels.server";
import { parseRibQuery } from "~/features/routing/rib-sql";
import { routeRpkiState } from "~/features/routing/rpki/roa-index";
import { currentRoaIndex } from "~/features/routing/rpki/vrp-store.server";
import { listVantagePoints, type VantagePointJson } from "~/features/routing/vantage-points.server";
import { effectiveNames } from "~/features/tags/effective-names.server";
import { ApiProblem } from "~/server/api/contract.server";
import { lookingGlassRouters } from "~/server/auth/delegation.server";
import type { UserContext } from "~/server/auth/user-context.server";
import { chQuery } from "~/server/clickhouse/query.server";
import type { Services } from "~/server/services.server";
import { routeAtTimeDbRow, routeAtTimeSql, type RouteAtTimeDbRow } from "./route-at-time-sql";
import {
  carryingRoute,
  controlPlaneAtTimeHref,
  noRouteMessage,
  noVantagePointMessage,
  NOT_AVAILABLE_MESSAGE,
  type RouteAtTimeResult,
  type RouteAtTimeRoute,
  type RouteAtTimeVantagePoint,
} from "./route-at-time";

/** The fields of a raw flow row the lookup needs, as flows_raw's columns name them. */
export type FlowForRoute = {
  /** The router's name as the collector enriched it ("" when it did not know the exporter). */
  exporter_name: string;
  exporter_address: string;
  dst_addr: string;
  /** Unix seconds. */
  time_received: number;
  /** The flow's next hop when the exporter sent one ("::" or "" when not). */
  next_hop?: string | null;
  /** The route distinguisher of the flow's VRF when known; absent or "": the global table (or the VRF's, below). */
  route_distinguisher?: string | null;
  /**
   * The flow's VRF as the collector wrote it (vrf_name; "" the global table). Without a route
   * distinguisher given, the VRF's table is the one the inventory gives the router's VRF of that name.
   */
  vrf_name?: string | null;
};

function badInput(field: string, message: string): ApiProblem {
  return new ApiProblem(400, { detail: message, errors: [{ field, message }] });
}

/** An address in any spelling; IPv4 stored IPv4-mapped in IPv6 columns (::ffff:a.b.c.d) comes back as IPv4. */
function readAddress(text: string): IpAddress | null {
  const parsed = parseIpAddress(text);
  if (parsed?.version === 6 && parsed.value >> 32n === 0xffffn) return { version: 4, value: parsed.value & 0xffffffffn };
  return parsed;
}

const unspecified = (a: IpAddress | null) => a === null || a.value === 0n;

function sameAddress(a: string, b: string): boolean {
  const x = readAddress(a);
  const y = readAddress(b);
  return x !== null && y !== null && x.version === y.version && x.value === y.value;
}

/** The vantage point of the flow's exporting router, and the router's name ("" when not known). */
async function vantagePointOf(
  stores: Pick<Services, "pg">,
  flow: FlowForRoute,
  exporter: IpAddress | null,
): Promise<{ router: string; vantagePoint: VantagePointJson | null }> {
  let router = flow.exporter_name.trim();
  if (router === "" && exporter) router = (await routerForExporter(stores, formatIpAddress(exporter)))?.name ?? "";
  if (router === "") return { router, vantagePoint: null };
  const points = (await listVantagePoints(stores, { variant: "private" })).filter((vp) => vp.router === router);
  const byAddress = exporter ? points.find((vp) => sameAddress(vp.ip, formatIpAddress(exporter))) : undefined;
  return { router, vantagePoint: byAddress ?? points[0] ?? null };
}

/**
 * The route that carried `flow`. Bad input (an address that is none, a time that is not unix
 * seconds) is an ApiProblem 400 naming the field.
 */
export async function routeAtTime(
  services: Pick<Services, "pg" | "ch">,
  user: UserContext,
  flow: FlowForRoute,
): Promise<RouteAtTimeResult> {
  const destinationAddress = readAddress(flow.dst_addr);
  if (!destinationAddress) throw badInput("dst_addr", `"${flow.dst_addr}" is not an IP address.`);
  if (!Number.isInteger(flow.time_received) || flow.time_received < 0 || flow.time_received > 0xffffffff)
    throw badInput("time_received", "time_received must be unix seconds.");
  const exporter = flow.exporter_address ? readAddress(flow.exporter_address) : null;
  if (flow.exporter_address && !exporter) throw badInput("exporter_address", `"${flow.exporter_address}" is not an IP address.`);
  const nextHop = flow.next_hop ? readAddress(flow.next_hop) : null;
  if (flow.next_hop && !nextHop) throw badInput("next_hop", `"${flow.next_hop}" is not an IP address.`);

  const at = flow.time_received;
  const destination = formatIpAddress(destinationAddress);
  const { router, vantagePoint } = await vantagePointOf(services, flow, unspecified(exporter) ? null : exporter);
  if (!vantagePoint) return { kind: "no-vantage-point", at, destination, message: noVantagePointMessage(router) };
  const routers = await lookingGlassRouters(services.pg.db, user);
  if (routers !== null && !routers.includes(router)) return { kind: "not-available", at, destination, message: NOT_AVAILABLE_MESSAGE };

  const parsed = parseRibQuery("IpPrefixQuery", destination);
  if (!parsed.ok || parsed.match.kind !== "address") throw badInput("dst_addr", `"${flow.dst_addr}" is not an IP address.`);
  const vrfName = (flow.vrf_name ?? "").trim();
  let routeDistinguisher = (flow.route_distinguisher ?? "").trim();
  let vrf: string | null = null;
  let unmappedVrf: string | null = null;
  if (!routeDistinguisher && vrfName) {
    const known = await vrfRouteDistinguisher(services, router, vrfName);
    if (known === null) unmappedVrf = vrfName;
    else [routeDistinguisher, vrf] = [known, vrfName];
  }
  const dbRows = await chQuery(services.ch, {
    schema: routeAtTimeDbRow,
    ...routeAtTimeSql({ vantagePoint: vantagePoint.key, routeDistinguisher, match: parsed.match, at }),
  });
  const point: RouteAtTimeVantagePoint = { key: vantagePoint.key, name: vantagePoint.display_name, router };
  const mayOpenControlPlane = isToolBuilt("/controlplane") && user.permissions.includes("CONTROL_PLANE");
  const longest = dbRows.length ? dbRows[0].prefix_len : -1;
  const routes = await namedRoutes(
    services,
    user,
    dbRows.filter((r) => r.prefix_len === longest),
  );
  const carried = carryingRoute(routes, unspecified(nextHop) ? null : formatIpAddress(nextHop!), sameAddress);
  if (!carried) {
    return {
      kind: "no-route",
      at,
      destination,
      vantagePoint: point,
      routeDistinguisher,
      vrf,
      unmappedVrf,
      message: noRouteMessage(destination, point.name),
      controlPlaneHref: mayOpenControlPlane ? controlPlaneAtTimeHref(destination, at, null) : null,
    };
  }
  return {
    kind: "route",
    at,
    destination,
    vantagePoint: point,
    routeDistinguisher,
    vrf,
    unmappedVrf,
    route: carried.route,
    carriedBecause: carried.because,
    otherPaths: carried.others,
    controlPlaneHref: mayOpenControlPlane ? controlPlaneAtTimeHref(destination, at, carried.route.announcedAt) : null,
  };
}

/** The rows as routes people read: ASes with the viewer's names, communities with their labels, the RPKI state. */
async function namedRoutes(
  services: Pick<Services, "pg">,
  user: UserContext,
  rows: readonly RouteAtTimeDbRow[],
): Promise<RouteAtTimeRoute[]> {
  if (rows.length === 0) return [];
  const asns = [...new Set(rows.flatMap((r) => [...r.as_path, r.peer_asn].map((a) => String(a))))];
  const [names, labels, roas] = await Promise.all([
    effectiveNames(services, user).then((n) => n.ases(asns)),
    communityLabelList(services.pg.db),
    currentRoaIndex(services),
  ]);
  const communityName = communityNamer(labels);
  const named = (asn: number) => ({ asn: Number(asn), name: names.get(String(asn))?.name ?? null });
  return rows.map((r) => ({
    prefix: r.prefix,
    announcedAt: Number(r.announced_at),
    ribView: r.rib_view,
    pathId: Number(r.path_id),
    peerIp: r.peer_ip,
    peerAs: named(r.peer_asn),
    nextHop: r.bgp_next_hop,
    asPath: r.as_path.map(named),
    asPathSet: r.as_path_set.map(Number),
    origin: r.origin,
    localPref: Number(r.local_pref),
    med: Number(r.med),
    communities: [...r.communities, ...r.ext_communities].map((community) => ({ community, label: communityName(community) })),
    rpki: routeRpkiState(roas, r),
  }));
}
