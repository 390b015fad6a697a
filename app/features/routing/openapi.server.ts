/** The OpenAPI description of the routing endpoints (Looking Glass, ping and traceroute, Control Plane), handed to the catalogue by app/wiring.server.ts. */
import { anyObject, arr, bool, int, nullable, obj, str, unix, type Operation } from "~/server/api/openapi.server";
import { asnQuerySchema } from "./peeringdb/api";
import { TRAFFIC_RATIOS } from "./peeringdb/ratio";
import { RIB_VIEW_CHOICES } from "./rib-views";
import { ROUTE_FILTER_PROPERTIES } from "./lookingglass-request";

const LOOKING_GLASS_ROWS =
  "Rows: VantagePoint, Prefix, RouteDistinguisher, BGP as_path (AS numbers, space-separated), BGP local_pref, BGP med, BGP next_hop, " +
  "BGP community (standard, large and extended, space-separated; private only), BGP originator_id (private only), RibView " +
  "(pre-policy, post-policy, loc-rib), LastUpdate, asNames ({AS number: name} of the path's ASes: the effective mapping name, else the name as_info gives), " +
  "communityNames (private only: {community: well-known name or operator's label}).";

/** The rows' route origin validation field, in both variants (docs/api.md). */
const RPKI_FIELD =
  'Every row (both variants) has "RPKI": the route origin validation state of its prefix and origin AS (RFC 6811) against the VRPs loaded ' +
  '(an imported VRP file and the RTR cache): "valid", "invalid" or "not-found"; null when no VRP is loaded at all.';

export const ROUTING_OPERATIONS: Operation[] = [
  {
    file: "api.lookingglass.vantagepoints.ts",
    method: "GET",
    path: "/api/lookingglass/vantagepoints/",
    summary: "Vantage points the caller may query (public ones for the public variant).",
    access: "public",
    response: arr(anyObject),
  },
  {
    file: "api.lookingglass.ts",
    method: "POST",
    path: "/api/lookingglass/",
    summary: "A Looking Glass query on chosen vantage points.",
    description:
      "Public variant for anonymous callers (limited per client address, 429 with Retry-After), private variant with PRIVATE_LOOKING_GLASS. " +
      LOOKING_GLASS_ROWS +
      RPKI_FIELD,
    access: "public",
    body: obj({ queryTerm: { type: "string", maxLength: 200 }, queryType: str, vantagePoints: arr(str), ...ROUTE_FILTER_PROPERTIES }, [
      "queryTerm",
      "queryType",
      "vantagePoints",
    ]),
    response: obj({ results: anyObject, results_limit: int, results_maximum: int }, ["results"]),
  },
  {
    file: "api.lookingglass.ts",
    method: "GET",
    path: "/api/lookingglass/",
    summary: "The same Looking Glass query as a link.",
    description:
      "The POST's fields as parameters, one vantagePoints parameter per vantage point (key or display name). Same access, limits and answers; a read, so no CSRF token. " +
      LOOKING_GLASS_ROWS +
      RPKI_FIELD,
    access: "public",
    query: obj({ queryTerm: { type: "string", maxLength: 200 }, queryType: str, vantagePoints: str, ...ROUTE_FILTER_PROPERTIES }, [
      "queryTerm",
      "queryType",
      "vantagePoints",
    ]),
    response: obj({ results: anyObject, results_limit: int, results_maximum: int }, ["results"]),
  },
  {
    file: "api.lookingglass_.export.ts",
    method: "GET",
    path: "/api/lookingglass/export/",
    summary: "The Looking Glass table of a query as a file (the screen's search parameters plus format).",
    description:
      "Private variant: csv, xls, xlsx, png; public variant (or variant=public): csv, xls, xlsx. 400 for an unsupported format, a bad query, or an empty table.",
    access: "public",
    query: obj(
      {
        queryType: str,
        queryTerm: str,
        selectedVantagePoints: str,
        ...ROUTE_FILTER_PROPERTIES,
        format: { enum: ["csv", "xls", "xlsx", "png"] },
        variant: { enum: ["public"] },
      },
      ["format"],
    ),
    response: str,
    responseType: "application/octet-stream",
  },
  {
    file: "api.netcommand.ts",
    method: "POST",
    path: "/api/netcommand/",
    summary: "Starts a ping or traceroute from a vantage point; poll the result at api/netcommand/{jobId}/.",
    description: "Needs the canInvokeNetcommandApi feature flag. Too many jobs: 429 with Retry-After.",
    access: "public",
    body: obj({ networkElement: str, protocol: nullable(str), queryType: str, sourceAddress: nullable(str), targetAddress: str }, [
      "networkElement",
      "queryType",
      "targetAddress",
    ]),
    response: arr(obj({ jobID: str })),
  },
  {
    file: "api.netcommand.$jobId.ts",
    method: "GET",
    path: "/api/netcommand/{jobId}/",
    summary: "State (PENDING, STARTED, RETRY, FAILURE, SUCCESS) and result text of one's own job; 404 for others' jobs.",
    access: "public",
    response: obj({ state: str, result: nullable(str) }),
  },
  {
    file: "api.controlplane.ts",
    method: "POST",
    path: "/api/controlplane/",
    summary: "Routing history rows of a range by AS path pattern or IP/prefix.",
    description:
      "ribView: the routing tables to read — default (post-policy and Loc-RIB), pre-policy, post-policy or loc-rib; each row names its table (ribView).",
    access: { permission: "CONTROL_PLANE" },
    body: obj({ queryTerm: str, queryType: str, startDate: unix, endDate: unix, ribView: { enum: [...RIB_VIEW_CHOICES] } }, [
      "queryTerm",
      "queryType",
      "startDate",
      "endDate",
    ]),
    response: obj({ data: anyObject }),
  },
  {
    file: "api.controlplane.dateswithdata.ts",
    method: "GET",
    path: "/api/controlplane/dateswithdata/",
    summary: "First and last timestamp of the routing history.",
    access: { permission: "CONTROL_PLANE" },
    response: arr(obj({ minTimestamp: nullable(unix), maxTimestamp: nullable(unix) })),
  },
  {
    file: "api.routingstreams.ts",
    method: "GET",
    path: "/api/routingstreams/",
    summary:
      "An AS's routing view from the current routing tables: the prefixes it originates, and through which neighbours and paths each vantage point receives them.",
    description:
      "asn as for api/peering_db/ (400 naming asn otherwise). From rib_current, post-policy and Loc-RIB: routes announced now whose origin is the AS (the path's last AS; " +
      "a path ending in an AS_SET has none; an empty path, originated inside the network, has the peer's AS). summary counts everything; streams (per vantage point, " +
      "neighbour and AS path: the prefixes, per route distinguisher) and prefixes are cut at 5,000 rows each (truncated: true). neighbor_asn is null for an empty path.",
    access: { permission: "AS_RELATIONS" },
    query: asnQuerySchema,
    response: obj({
      asn: int,
      tables: arr(str),
      summary: obj({ prefixes: int, ipv4: int, ipv6: int, vantage_points: int, neighbors: int, streams: int }),
      vantage_points: arr(obj({ vantage_point: str, prefixes: int, neighbors: int, paths: int })),
      streams: arr(obj({ vantage_point: str, neighbor_asn: nullable(int), as_path: arr(int), prefixes: int, ipv4: int, ipv6: int })),
      prefixes: arr(obj({ prefix: str, ip_version: { enum: [4, 6] }, vantage_points: int, neighbors: int, paths: int })),
      truncated: bool,
    }),
  },
  {
    file: "api.peering_db.ts",
    method: "GET",
    path: "/api/peering_db/",
    summary: "What the last PeeringDB import says of an AS: declared facts, organisation, NOC contact, IX and facility presence.",
    description:
      "asn: 64500, AS64500 or as64500 (1 to 4294967295); 400 naming asn otherwise. 404 {detail: 'The requested ASN was not found in PeeringDB.'} " +
      "when the import has no network of that AS (or nothing was imported). info_ratio is in the spec's traffic ratio words (Not Disclosed when PeeringDB " +
      "has none); dump_date is the dump's own date (its meta.generated, else its newest object), imported_at when it was imported (ISO 8601).",
    access: { permission: "AS_RELATIONS" },
    query: asnQuerySchema,
    response: obj({
      asn: int,
      net_id: int,
      name: str,
      aka: str,
      website: str,
      irr_as_set: str,
      info_type: str,
      info_traffic: str,
      info_ratio: { enum: [...TRAFFIC_RATIOS] },
      info_scope: str,
      info_prefixes4: nullable(int),
      info_prefixes6: nullable(int),
      policy_general: str,
      policy_url: str,
      org: nullable(obj({ id: int, name: str })),
      noc_email: nullable(str),
      ix_presence: arr(
        obj({
          ix_id: int,
          name: str,
          city: str,
          country: str,
          speed: nullable(int),
          ipaddr4: nullable(str),
          ipaddr6: nullable(str),
          is_rs_peer: bool,
        }),
      ),
      facility_presence: arr(obj({ fac_id: int, name: str, city: str, country: str })),
      dump_date: nullable(str),
      imported_at: str,
    }),
  },
];
