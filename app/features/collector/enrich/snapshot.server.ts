/** Loads the enrichment snapshot from the stores (main thread; the decoding threads receive it). */
import type { Services } from "~/server/services.server";
import type { EnrichmentSnapshot } from "./snapshot";

export async function loadEnrichmentSnapshot(_services: Services): Promise<EnrichmentSnapshot> {
  return { operatorAsn: null, routers: [] };
}
