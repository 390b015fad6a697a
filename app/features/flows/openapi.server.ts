/** The OpenAPI description of the flows endpoints (api/flows/, api/sankey/, the analyses), handed to the catalogue by app/wiring.server.ts. */
import { arr, bool, int, nullable, num, obj, str, unix, anyObject, type Operation } from "~/server/api/openapi.server";
import { asIndirectBodySchema, linkLevelQuerySchema, netflowStatisticsBodySchema, untrackedBodySchema } from "./analysis.server";
import { flowsBodySchema, sankeyBodySchema } from "./request-schema";
import { rootCauseBodySchema } from "./rootcause/analysis.server";
import { anomaliesQuerySchema } from "./rootcause/anomalies.server";

/** The access rule of every flows endpoint (app/features/tags/openapi.server.ts gives the tags and mappings the same). */
export const FLOWS = { permission: "API_FLOWS_4D" } as const;
/** api/sankey/ and the link-level topology calls: the Sankey and topology permission on top. */
const SANKEY_TOPOLOGY = { ...FLOWS, also: ["SANKEY_TOPOLOGY"] } as const;
/** api/asflows/indirect/: the indirect-traffic figures' permission on top. */
const INDIRECT_KPI = { ...FLOWS, also: ["API_FLOWS_INDIRECT_KPI"] } as const;

const filterEcho = arr(obj({ dimension: str, value: str, isNegation: bool, locked: bool }));
const range = nullable(obj({ start: unix, end: unix, adjusted: str, requested: obj({ start: unix, end: unix }) }));
const notes = { notices: arr(str), notes: arr(str) };

export const FLOWS_OPERATIONS: Operation[] = [
  {
    file: "api.flows.timestamps.ts",
    method: "GET",
    path: "/api/flows/timestamps/",
    summary: "First and last 5-minute bucket of flows_5m.",
    access: FLOWS,
    response: obj({ minTimestamp: nullable(unix), maxTimestamp: nullable(unix) }),
  },
  {
    file: "api.flows.ts",
    method: "POST",
    path: "/api/flows/",
    summary: "Timeseries (top N + Others) and table of one dimension.",
    description:
      "Needs the dimension's permission too. A delegated user's current restriction is a forced, locked filter, and only its dimension and output may be used (403 otherwise); the range is clamped to the data. shouldPredict: true adds timeseries.prediction, the next period of the range's length bucketed like the timeseries, for each series but Others: model seasonal (median of the same hour-of-week slots of up to 4 previous weeks, each moved forward by the Theil–Sen trend of the weekly levels) with at least a week of history, trend (Theil–Sen line) otherwise; never below 0. The history is at most the 4 weeks before the range's end, read with the same filters (delegation included). Null, with a note, when nothing can be predicted.",
    access: FLOWS,
    body: flowsBodySchema,
    response: obj({
      timeseries: obj(
        {
          buckets: arr(unix),
          series: arr(obj({ key: str, name: str, color: nullable(str), values: arr(num) })),
          // Per bucket: whole (not cut by the range or the newest data) and ended; the charts draw only these.
          complete: arr(bool),
          prediction: nullable(
            obj({
              model: { type: "string", enum: ["seasonal", "trend"] },
              buckets: arr(unix),
              series: arr(obj({ key: str, name: str, values: arr(num) })),
              history: obj({ start: unix, end: unix }),
            }),
          ),
        },
        ["buckets", "series", "complete"],
      ),
      window: nullable(int),
      table: arr(obj({ key: str, name: str, bps: num, bytes: str })),
      range,
      filters: filterEcho,
      ...notes,
    }),
  },
  {
    file: "api.flows.export.ts",
    method: "GET",
    path: "/api/flows/export/",
    summary: "The Flow Explorer's table (csv in the user's delimiter, xls, xlsx) or chart (png, svg) as a download.",
    description:
      "Takes the screen's query parameters (dimension, dateRange or start/end, filter, ipVersion, view, dimension2, compare, predict (the chart images only: the dashed prediction; never in a table), table, pivot) plus format (default csv) and scope=EGRESS for the AS Flows Egress screen. 400 for an unsupported format, a pivoted table, or an empty table ('Table is empty, nothing to export'); 403 for a delegated user's dimension or filter outside the restricted dimension and its output.",
    access: FLOWS,
    query: obj({ format: { type: "string", enum: ["csv", "xls", "xlsx", "png", "svg"] }, scope: { type: "string", enum: ["EGRESS"] } }, []),
    response: str,
    responseType: "text/csv",
  },
  {
    file: "api.sankey.ts",
    method: "POST",
    path: "/api/sankey/",
    summary: "Sankey nodes and links (bit/s) between consecutive dimensions.",
    description:
      "SANKEY_TOPOLOGY may be given to a delegated user, whose chart then has only the restricted dimension and its output (403 otherwise).",
    access: SANKEY_TOPOLOGY,
    alsoVersions: [3],
    body: sankeyBodySchema,
    response: obj({
      nodes: arr(obj({ id: str, dimension: str, key: str, name: str, color: nullable(str) })),
      links: arr(obj({ source: str, target: str, value: num })),
      range,
      filters: filterEcho,
      ...notes,
    }),
  },
  {
    file: "api.autocomplete.ts",
    method: "POST",
    path: "/api/autocomplete/",
    summary: "Values of a dimension matching a search term.",
    description: "A delegated user: only the restricted dimension (its constrained values) and its output (403 otherwise).",
    access: FLOWS,
    body: obj({ searchTerm: str, dimension: str }),
    response: obj({ results: arr(obj({ id: str, name: str, value: str, type: str })) }),
  },
  {
    file: "api.filter.metadata.ts",
    method: "POST",
    path: "/api/filter/metadata/",
    summary: "Names of filter values.",
    description: "A delegated user: only the restricted dimension (its constrained values) and its output (403 otherwise).",
    access: FLOWS,
    body: obj({ filters: arr(obj({ dimension: str, value: str }, ["value"])), fallbackDimensionType: str }, ["filters"]),
    response: anyObject,
  },
  {
    file: "api.asflows.indirect.ts",
    method: "POST",
    path: "/api/asflows/indirect/",
    summary:
      "Per AS: ingress traffic as a source AS, direct (handed over by itself) and indirect (by other neighbours), with the indirect part per handover AS.",
    description: "API_FLOWS_INDIRECT_KPI is never held by a delegated account (not delegable): they get a 403.",
    access: INDIRECT_KPI,
    body: asIndirectBodySchema,
    response: obj({
      range,
      results: arr(
        obj({
          asn: int,
          name: str,
          total_bps: num,
          direct_bps: num,
          indirect_bps: num,
          direct_share: num,
          indirect_share: num,
          via: arr(obj({ asn: int, name: str, bps: num, share: num })),
        }),
      ),
      filters: filterEcho,
      ...notes,
    }),
  },
  {
    file: "api.netflowstatistics.ts",
    method: "POST",
    path: "/api/netflowstatistics/",
    summary:
      "Per value of targetDimension: the traffic entering at ingressRouter (bit/s, share of the router's total) and in the whole network.",
    description:
      "Needs the target dimension's permission, and API_FLOWS_INTERFACES for ingressRouter. Without ingressRouter: the whole network.",
    access: FLOWS,
    body: netflowStatisticsBodySchema,
    response: obj({
      range,
      targetDimension: obj({ id: str, label: str }),
      ingressRouter: nullable(str),
      results: arr(obj({ key: str, name: str, bps: num, share: num, network_bps: num })),
      totals: obj({ total_bps: num, network_bps: num, router_share: num }),
      filters: filterEcho,
      ...notes,
    }),
  },
  {
    file: "api.linkleveltopology.ts",
    method: "GET",
    path: "/api/linkleveltopology/",
    summary: "Routers and links (external in, core, external out) that the traffic from origin to destination traverses, bit/s per link.",
    description:
      "origin: a source AS (2906 or AS2906) or an ingress router; destination: a destination AS or an egress router. AS ends read ingress traffic. Needs API_FLOWS_INTERFACES and FLOWS_BY_LINK_FILTER too (403 without).",
    access: SANKEY_TOPOLOGY,
    query: linkLevelQuerySchema,
    response: obj({
      origin: anyObject,
      destination: anyObject,
      range,
      total_bps: num,
      nodes: arr(obj({ id: str, type: { enum: ["AS", "ROUTER"] }, name: str, city: nullable(str), country: nullable(str) })),
      links: arr(
        obj({
          id: str,
          kind: { enum: ["external_in", "core", "external_out"] },
          source: str,
          target: str,
          interface: obj({ router: str, interface: str }),
          remote_interface: nullable(obj({ router: str, interface: str })),
          bps: num,
        }),
      ),
      filters: filterEcho,
    }),
  },
  {
    file: "api.linklevelstatistics.ts",
    method: "GET",
    path: "/api/linklevelstatistics/",
    summary:
      "Per link of the traffic from origin to destination: bit/s, capacity, utilisation % of the selection and of all traffic on the link.",
    description:
      "Parameters and access as api/linkleveltopology/ (the same links, measured: SANKEY_TOPOLOGY, API_FLOWS_INTERFACES and FLOWS_BY_LINK_FILTER).",
    access: SANKEY_TOPOLOGY,
    query: linkLevelQuerySchema,
    response: obj({
      origin: anyObject,
      destination: anyObject,
      range,
      links: arr(
        obj({
          id: str,
          kind: str,
          from: obj({ router: str, interface: str }),
          to: nullable(obj({ router: str, interface: str })),
          description: str,
          bps: num,
          capacity_bps: nullable(num),
          utilisation_pct: nullable(num),
          link_bps: nullable(num),
          link_utilisation_pct: nullable(num),
        }),
      ),
      filters: filterEcho,
    }),
  },
  {
    file: "api.untracked_data.ts",
    method: "POST",
    path: "/api/untracked_data/",
    summary:
      "Share of an AS dimension's traffic carried as Untracked (-999), Others (-101, outside the tracked top 200) and Not routable (-1), per bucket and overall.",
    access: FLOWS,
    body: untrackedBodySchema,
    response: (() => {
      const shares = {
        total_bps: num,
        untracked_bps: num,
        others_bps: num,
        not_routable_bps: num,
        untracked_share: num,
        others_share: num,
        not_routable_share: num,
      };
      return obj({
        range,
        window: nullable(int),
        dimension: obj({ id: str, label: str }),
        buckets: arr(obj({ bucket: unix, ...shares })),
        overall: obj(shares),
        filters: filterEcho,
        ...notes,
      });
    })(),
  },
  {
    file: "api.rootcause.ts",
    method: "POST",
    path: "/api/rootcause/",
    summary:
      "Extension: root-cause analysis of one object's ingress traffic in a period — seasonal baseline with its band, the change split by handover AS, router, interface and direct/indirect, the classification and each candidate's conclusion, the routing evidence.",
    description:
      "dimension: AS_SRC_INGRESS, AS_HND_INGRESS, ROUTER_IN or INTERFACE_IN; start in ISO form; duration such as 10h20m (d, h, m; at most 7 days). Bad input: 400 with '{value} is not a valid {name} input'. Never a delegated user (403). Rules: docs/root-cause.md.",
    access: FLOWS,
    body: rootCauseBodySchema,
    response: obj({
      object: obj({ dimension: str, value: str, name: str }),
      period: obj({ start: unix, end: unix, duration: str, step: int, requestedEnd: unix }),
      baseline: nullable(
        obj({
          model: str,
          weeks: int,
          slopePerWeekBps: num,
          points: arr(
            obj({ time: unix, actualBps: nullable(num), baselineBps: nullable(num), lowBps: nullable(num), highBps: nullable(num) }),
          ),
        }),
      ),
      totals: obj({ baselineBps: num, anomalyBps: num, changeBps: num, change: nullable(num) }),
      levels: anyObject,
      path: nullable(obj({ directBaselineBps: num, directAnomalyBps: num, indirectBaselineBps: num, indirectAnomalyBps: num })),
      directUtilisation: nullable(num),
      classification: { enum: ["Handover AS Shift", "Indirect Overflow", "Interface Shift", "Organic", "Router Shift", "Unknown"] },
      reason: str,
      routing: anyObject,
      notes: arr(str),
    }),
  },
  {
    file: "api.rootcause.anomalies.ts",
    method: "GET",
    path: "/api/rootcause/anomalies/",
    summary:
      "Extension: the largest deviations from the seasonal baseline in a range over the tracked source ASes, handover ASes, ingress routers and external interfaces, each classified by the root-cause analysis, newest first.",
    description:
      "The range by the URL date parameters: dateRange (a preset of at most 7 days; default LAST_7_DAYS) or start and end (unix seconds) at most 7 days apart, cut to whole hours of the flow data. Computed in the background: 202 with {state: 'computing'} until the range's list is ready, then 200 (kept in memory per process). Hourly buckets; an anomaly is a stretch outside the band in one direction with at least one bucket 20 % off the object's baseline and 0.2 % of the network's ingress; the 20 with the largest peak deviation. Bad input: 400 with '{value} is not a valid {name} input'. Needs API_FLOWS_INTERFACES too; never a delegated user (403). Rules: docs/root-cause.md.",
    access: FLOWS,
    query: anomaliesQuerySchema,
    response: obj({
      state: { enum: ["ready"] },
      range: obj({ start: unix, end: unix }),
      step: int,
      computedAt: unix,
      thresholds: obj({ minChange: num, minNetworkShare: num, limit: int }),
      anomalies: arr(
        obj({
          dimension: { enum: ["AS_SRC_INGRESS", "AS_HND_INGRESS", "ROUTER_IN", "INTERFACE_IN"] },
          value: str,
          name: str,
          start: unix,
          end: unix,
          duration: str,
          direction: { enum: ["rise", "fall"] },
          fromRangeStart: bool,
          peakTime: unix,
          peakBps: num,
          peakBaselineBps: num,
          peakDeviationBps: num,
          peakShare: nullable(num),
          meanDeviationBps: num,
          classification: { enum: ["Handover AS Shift", "Indirect Overflow", "Interface Shift", "Organic", "Router Shift", "Unknown"] },
          reason: str,
          href: str,
        }),
      ),
      notes: arr(str),
    }),
  },
];
