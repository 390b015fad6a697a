/**
 * What a decoding thread needs to enrich flows, as plain data: the main thread loads it from the
 * stores and posts it to each thread (structured cloning), which builds its Enricher from it.
 */
export type EnrichmentSnapshot = {
  /** The operator's own AS, when the site names it. */
  operatorAsn: number | null;
  /** Routers of the inventory with the exporter addresses they send from. */
  routers: Array<{ name: string; exporters: string[] }>;
};
