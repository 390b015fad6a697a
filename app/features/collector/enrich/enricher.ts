/**
 * The contract between the collector's runtime and enrichment: the runtime (UDP listeners, decoding
 * worker threads) builds an Enricher from a snapshot that the main thread loads from the stores and
 * posts to each worker (so the snapshot is plain data that survives structured cloning), and asks it
 * for one FlowRow per decoded flow.
 */
import type { DecodedFlow } from "../decode/flow-record";
import type { FlowRow } from "./flow-row";

export type EnrichOptions = {
  /** Unix milliseconds when the datagram arrived. */
  arrivalMs: number;
  /** The exporter's clock is off by more than the allowed skew: time the flow by arrival. */
  clockSkewed: boolean;
};

export interface Enricher {
  /** The router name of an exporter address, null when the inventory does not know it. */
  routerOf(exporter: string): string | null;
  /** The flow's ifIndexes (in, out; non-null, non-zero) that the inventory does not know for its exporter. */
  unknownIfIndexes(flow: DecodedFlow): number[];
  /** The row for flows_raw. Never throws: what cannot be resolved becomes "" or a special AS. */
  enrich(flow: DecodedFlow, options: EnrichOptions): FlowRow;
}
