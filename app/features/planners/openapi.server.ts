/** The OpenAPI description of the link-utilisation calls (api/linkutil/*), handed to the catalogue by app/wiring.server.ts. */
import {
  anyObject,
  arr,
  bool,
  int,
  nullable,
  num,
  obj,
  str,
  toJsonSchema,
  unix,
  type JsonSchema,
  type Operation,
} from "~/server/api/openapi.server";
import {
  externalBodySchema,
  interfacesQuerySchema,
  interfaceStatisticsQuerySchema,
  internalQuerySchema,
  summaryBodySchema,
} from "./api-schema";

const EXTERNAL = { permission: "API_LINK_UTIL_EXTERNAL" } as const;
const INTERNAL = { permission: "API_LINK_UTIL_INTERNAL" } as const;

const DATES =
  "startDate/endDate: unix seconds or a day yyyy-MM-dd in the caller's timezone (an end day counts whole). The range is snapped to 5 minutes (start down, end up) and may be at most 800 days long.";
const P95 = "Fields named p95… and billedP95… are present only for holders of LINK_UTILIZATION_95TH.";

const range = obj({ start: unix, end: unix });
const fraction = nullable(num);
const thresholds = obj({ medium: num, high: num });

const daily = arr(obj({ day: str, bps: nullable(num), utilisation: fraction, peakHourStart: nullable(unix) }));
const direction = obj(
  {
    maxDailyBps: nullable(num),
    maxDailyUtilisation: fraction,
    maxDailyDay: nullable(str),
    latestDailyBps: nullable(num),
    latestDailyUtilisation: fraction,
    latestDailyDay: nullable(str),
    p95Bps: nullable(num),
    p95Utilisation: fraction,
    daily,
  },
  ["maxDailyBps", "maxDailyUtilisation", "maxDailyDay", "latestDailyBps", "latestDailyUtilisation", "latestDailyDay", "daily"],
);
const figures: Record<string, JsonSchema> = {
  capacityBps: nullable(num),
  billedP95Bps: nullable(num),
  billedP95Utilisation: fraction,
  maxDailyUtilisation: fraction,
  status: { type: "string", enum: ["high", "medium", "normal", "no data"] },
  statusLabel: str,
  forecast: anyObject,
  buildoutDue: nullable(bool),
  samplingConfidence: nullable(obj({ ratio: num, intervals: int })),
  samples: int,
  interpolatedSamples: int,
  sources: arr(str),
};
const figuresRequired = Object.keys(figures).filter((k) => !k.startsWith("billedP95"));

const externalLink = obj(
  {
    key: str,
    router: str,
    interface: str,
    description: str,
    neighbourAs: nullable(int),
    asName: nullable(str),
    peering: nullable(str),
    connection: nullable(str),
    in: direction,
    out: direction,
    ...figures,
  },
  ["key", "router", "interface", "description", "neighbourAs", "asName", "peering", "connection", "in", "out", ...figuresRequired],
);
const end = obj({ router: str, interface: str, description: str, capacityBps: nullable(num) });
const internalLink = obj({ key: str, from: end, to: end, forward: direction, reverse: direction, ...figures }, [
  "key",
  "from",
  "to",
  "forward",
  "reverse",
  ...figuresRequired,
]);

/** The timeseries body: the summary's, or that body written as a JSON string. */
const timeseriesBody: JsonSchema = {
  anyOf: [toJsonSchema(summaryBodySchema), { type: "string", description: "the same body as a JSON string" }],
};

export const PLANNERS_OPERATIONS: Operation[] = [
  {
    file: "api.linkutil.external.ts",
    method: "POST",
    path: "/api/linkutil/external/",
    summary:
      "External links grouped by neighbour AS, router or interface, with capacity, peak-hour daily utilisation, 95th, status and forecast.",
    description: `startTime/endTime: unix seconds (snapped to 5 minutes, at most 800 days). filters: SearchFilter objects of the dimensions AS_NUMBER (neighbour AS), ROUTER and INTERFACE ("router|interface" or the interface name); a value "!…" or isNegation excludes. dimension (or groupByRouter / groupByInterface) chooses the grouping; currentlyDisplayedValues keeps only those groups. A delegated account sees only its links. ${P95}`,
    access: EXTERNAL,
    body: externalBodySchema,
    response: obj(
      {
        range,
        grouping: { type: "string", enum: ["AS_NUMBER", "ROUTER", "INTERFACE"] },
        thresholds,
        links: int,
        groups: arr(
          obj(
            {
              value: str,
              label: str,
              linkCount: int,
              capacityBps: num,
              billedP95SumBps: num,
              maxDailyUtilisation: fraction,
              status: str,
              links: arr(externalLink),
            },
            ["value", "label", "linkCount", "capacityBps", "maxDailyUtilisation", "status", "links"],
          ),
        ),
      },
      ["range", "grouping", "thresholds", "links", "groups"],
    ),
  },
  {
    file: "api.linkutil.external.summary.ts",
    method: "POST",
    path: "/api/linkutil/external/summary/",
    summary: "Summary of the external links: count, capacity, sum of billed 95th, links per status, build-outs due.",
    description: `${DATES} filters as in api/linkutil/external/. ${P95}`,
    access: EXTERNAL,
    body: summaryBodySchema,
    response: obj(
      {
        range,
        links: int,
        totalCapacityBps: num,
        billedP95SumBps: num,
        statusCounts: obj({ high: int, medium: int, normal: int, noData: int }),
        buildoutDue: int,
      },
      ["range", "links", "totalCapacityBps", "statusCounts", "buildoutDue"],
    ),
  },
  {
    file: "api.linkutil.external.timeseries.ts",
    method: "POST",
    path: "/api/linkutil/external/timeseries/",
    summary:
      "In/out bit/s of the external links per bucket (5 min up to 1 day, 15 min up to 6 days, 1 h up to 59 days, 1 day beyond), with their capacity.",
    description: `The summary's body, as an object or as a JSON string of it. ${DATES}`,
    access: EXTERNAL,
    body: timeseriesBody,
    response: obj({
      range,
      bucketSeconds: int,
      capacityBps: num,
      points: arr(obj({ time: unix, inBps: num, outBps: num, complete: bool })),
    }),
  },
  {
    file: "api.linkutil.internal.ts",
    method: "GET",
    path: "/api/linkutil/internal/",
    summary: "Internal links (all, or the one joining two interfaces) with the figures per direction.",
    description: `dataType all_links (default) or single_interface_pair, which needs inRouter, startInterface, outRouter and endInterface (404 when no internal link joins them); forward is from the start interface to the end interface (for all_links from the end that sorts first). ${DATES} ${P95}`,
    access: INTERNAL,
    query: internalQuerySchema,
    response: obj({ range, dataType: str, thresholds, links: arr(internalLink) }),
  },
  {
    file: "api.linkutil.interfaces.ts",
    method: "GET",
    path: "/api/linkutil/interfaces/",
    summary:
      "The interface pairs of the internal links between inRouter and outRouter (any router without outRouter), with their 5-minute samples in the range.",
    description: DATES,
    access: INTERNAL,
    query: interfacesQuerySchema,
    response: obj({
      range,
      interfaces: arr(
        obj({ key: str, inRouter: str, startInterface: str, outRouter: str, endInterface: str, capacityBps: nullable(num), samples: int }),
      ),
    }),
  },
  {
    file: "api.linkutil.interfacestatistics.ts",
    method: "GET",
    path: "/api/linkutil/interfacestatistics/",
    summary:
      "The traffic of external links by neighbour, source or destination AS, from the flows: mean bit/s, bytes, share, and each AS's 95th.",
    description: `The links: those of router to the neighbour ASes of ASNumberList (comma-separated), narrowed to interface when given; interface alone for a port without a single neighbour AS (404 when no external link matches). isDirectedIn true: traffic entering on the links; false: leaving. dimension neighbour, source or destination. A delegated account: 403 for a router, AS number or interface outside its lists. p95Bps (the 95th of the AS's traffic over the intervals in which the links carried any flow, 0 where the AS had none), p95Intervals and p95IntervalSeconds only for holders of NETFLOW95TH. ${DATES}`,
    access: EXTERNAL,
    query: interfaceStatisticsQuerySchema,
    response: obj(
      {
        range,
        router: str,
        interfaces: arr(str),
        isDirectedIn: bool,
        dimension: { type: "string", enum: ["neighbour", "source", "destination"] },
        dimensionLabel: str,
        totalBps: num,
        p95Intervals: int,
        p95IntervalSeconds: int,
        rows: arr(
          obj({ asn: int, name: nullable(str), bps: num, bytes: str, share: nullable(num), p95Bps: num }, [
            "asn",
            "name",
            "bps",
            "bytes",
            "share",
          ]),
        ),
      },
      ["range", "router", "interfaces", "isDirectedIn", "dimension", "dimensionLabel", "totalBps", "rows"],
    ),
  },
  {
    file: "api.linkutil.$x.dateswithdata.ts",
    method: "GET",
    path: "/api/linkutil/{x}/dateswithdata/",
    summary: "First and last 5-minute sample of the caller's external (x = external) or internal (x = internal) links.",
    description: "x = external needs API_LINK_UTIL_EXTERNAL, x = internal API_LINK_UTIL_INTERNAL (403 otherwise); another x is a 400.",
    access: "login",
    response: arr(obj({ minTimestamp: nullable(unix), maxTimestamp: nullable(unix) })),
  },
];
