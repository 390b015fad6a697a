/**
 * An AS's routing view from the RIB (api/routingstreams/?asn, the AS Relations neighbour detail):
 * the prefixes it originates, and through which neighbours and AS paths each vantage point
 * receives them, with counts. From rib_current, the default tables (post-policy and Loc-RIB).
 */
import { z } from "zod";
import { chQuery } from "~/server/clickhouse/query.server";
import type { Services } from "~/server/services.server";
import { DEFAULT_RIB_VIEWS } from "../rib-views";
import { originatedPrefixesSql, routingStreamsSql, routingStreamsSummarySql, routingStreamsVantagePointsSql } from "./sql";

/** Streams and prefixes listed at most; the summary counts them all, and `truncated` says when a list was cut. */
export const ROUTING_STREAMS_LIMIT = 5000;

const SummaryRow = z.object({
  prefixes: z.number(),
  ipv4: z.number(),
  ipv6: z.number(),
  vantage_points: z.number(),
  neighbors: z.number(),
  streams: z.number(),
});
const VantagePointRow = z.object({ vantage_point: z.string(), prefixes: z.number(), neighbors: z.number(), paths: z.number() });
const StreamRow = z.object({
  vantage_point: z.string(),
  neighbor_asn: z.number(),
  as_path: z.array(z.number()),
  prefixes: z.number(),
  ipv4: z.number(),
  ipv6: z.number(),
});
const PrefixRow = z.object({ prefix: z.string(), afi: z.number(), vantage_points: z.number(), neighbors: z.number(), paths: z.number() });

export type RoutingStream = {
  vantage_point: string;
  /** The AS the route was received from (the path's first AS); null for a route originated inside the network (empty path). */
  neighbor_asn: number | null;
  as_path: number[];
  prefixes: number;
  ipv4: number;
  ipv6: number;
};

export type RoutingStreams = {
  asn: number;
  tables: string[];
  summary: z.output<typeof SummaryRow>;
  vantage_points: z.output<typeof VantagePointRow>[];
  streams: RoutingStream[];
  prefixes: { prefix: string; ip_version: 4 | 6; vantage_points: number; neighbors: number; paths: number }[];
  truncated: boolean;
};

export async function routingStreams(services: Pick<Services, "ch">, asn: number, limit = ROUTING_STREAMS_LIMIT): Promise<RoutingStreams> {
  const [[summary], vantagePoints, streamRows, prefixRows] = await Promise.all([
    chQuery(services.ch, { ...routingStreamsSummarySql({ asn }), schema: SummaryRow }),
    chQuery(services.ch, { ...routingStreamsVantagePointsSql({ asn }), schema: VantagePointRow }),
    chQuery(services.ch, { ...routingStreamsSql({ asn, limit }), schema: StreamRow }),
    chQuery(services.ch, { ...originatedPrefixesSql({ asn, limit }), schema: PrefixRow }),
  ]);
  return {
    asn,
    tables: [...DEFAULT_RIB_VIEWS],
    summary,
    vantage_points: vantagePoints,
    streams: streamRows.map((r) => ({ ...r, neighbor_asn: r.as_path.length === 0 ? null : r.neighbor_asn })),
    prefixes: prefixRows.map((p) => ({
      prefix: p.prefix,
      ip_version: p.afi === 1 ? 4 : 6,
      vantage_points: p.vantage_points,
      neighbors: p.neighbors,
      paths: p.paths,
    })),
    truncated: summary.streams > streamRows.length || summary.prefixes > prefixRows.length,
  };
}
