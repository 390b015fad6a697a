import type { Services } from "~/server/services.server";
import { chRows } from "./stores";

/** A flows_5m row as the independent recomputations in the tests need it. */
export type FlowRow = {
  time: number;
  ip_version: number;
  as_src: number;
  as_hnd: number;
  as_nxt: number;
  as_dst: number;
  egress_router: string;
  bytes: bigint;
};

/** The flows_5m rows of [start, end) read with a plain SELECT (no aggregation in SQL). */
export async function readFlowRows(stores: Pick<Services, "ch">, range: { start: number; end: number }): Promise<FlowRow[]> {
  const raw = await chRows<Record<string, string | number>>(
    stores,
    "SELECT toUnixTimestamp(time) AS t, ip_version, as_src, as_hnd, as_nxt, as_dst, egress_router, toString(bytes) AS b FROM flows_5m WHERE time >= toDateTime({s:UInt32}, 'UTC') AND time < toDateTime({e:UInt32}, 'UTC')",
    { s: range.start, e: range.end },
  );
  return raw.map((r) => ({
    time: Number(r.t),
    ip_version: Number(r.ip_version),
    as_src: Number(r.as_src),
    as_hnd: Number(r.as_hnd),
    as_nxt: Number(r.as_nxt),
    as_dst: Number(r.as_dst),
    egress_router: String(r.egress_router),
    bytes: BigInt(r.b),
  }));
}
