/**
 * The operator's own AS number: what splits flows into ingress and egress (dimensions.ts), so every
 * reader of directed filters needs it — the flows views and the Raw Network Analyzer.
 */
import { eq } from "drizzle-orm";
import { asInfo } from "~db/postgres/schema";
import { ApiProblem } from "~/server/api/contract.server";
import type { Services } from "~/server/services.server";

type Stores = Pick<Services, "pg">;

/** Why flows cannot be split into ingress and egress on an installation without its own AS. */
export const NO_OPERATOR_AS =
  "The operator's own AS is not configured yet: staff set it in Site settings → Network inventory. Until then flows cannot be split into ingress and egress.";

/** The operator AS each store last answered: only a guess to start work early (flows' likelyFlowsContext). */
const lastAnswer = new WeakMap<object, number>();

/** The operator's own AS number (as_info with category 'operator'), read per request. */
export async function operatorAsn(stores: Stores): Promise<number> {
  const rows = await stores.pg.db
    .select({ asn: asInfo.asn })
    .from(asInfo)
    .where(eq(asInfo.category, "operator"))
    .orderBy(asInfo.asn)
    .limit(1);
  // Not a server fault: an installation whose staff have not named their own AS yet. The API says so (409) instead of a 500.
  if (!rows.length) throw new ApiProblem(409, { detail: NO_OPERATOR_AS, exception_code: "operator_as_not_configured" });
  const asn = Number(rows[0].asn);
  lastAnswer.set(stores.pg, asn);
  return asn;
}

/** The operator AS the store last answered, if any. */
export function lastOperatorAsn(stores: Stores): number | undefined {
  return lastAnswer.get(stores.pg);
}
