/**
 * What a delegated user may see of the flows: the security boundary, so it lives here alone and
 * every flows path (api/flows/, api/sankey/, the analysis calls, the Flow Explorer screen and its
 * exports) applies it through this module.
 *
 * The rules (delegation_restrictions.flows_views_restrictions, read from PostgreSQL on every request):
 * - each restriction becomes forced, locked filters: its constrained values, positive;
 * - a request filter on a locked dimension is admitted only when it repeats constrained values
 *   positively (a no-op); anything else is refused with a message naming the allowed values;
 * - a restriction that cannot be applied (unknown dimension, no valid value) refuses the whole
 *   request (403) instead of widening it.
 * external_links_views_restrictions are not applied to flows: the flows restrictions alone bound
 * what the flows paths return (the link-level calls run with them too).
 */
import { eq } from "drizzle-orm";
import { delegationRestrictions } from "~db/postgres/schema";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { getDimension, isDimensionId, type DimensionId } from "./dimensions";
import { lockedDimensions, restrictionFilters, type FlowFilter, type FlowsRestriction } from "./filters";
import { valueLabel } from "./value-labels";

export type DelegationPolicy = {
  /** The restrictions' forced filters, locked; every query starts from them. */
  lockedFilters: FlowFilter[];
  locked: ReadonlySet<DimensionId>;
};

/** A user without restrictions. */
export const NO_DELEGATION: DelegationPolicy = { lockedFilters: [], locked: new Set() };

/** The policy of a set of restrictions; null when one of them cannot be applied. */
export function delegationPolicy(restrictions: readonly FlowsRestriction[]): DelegationPolicy | null {
  if (restrictions.some((r) => !isDimensionId(r.dimension) || !restrictionFilters([r]).length)) return null;
  return { lockedFilters: restrictionFilters(restrictions), locked: lockedDimensions(restrictions) };
}

/** The user's policy, read once per request; a 403 when their restrictions cannot be applied. */
export async function loadDelegationPolicy(stores: Pick<Services, "pg">, user: Pick<UserContext, "id">): Promise<DelegationPolicy> {
  const rows = await stores.pg.db
    .select({ flows: delegationRestrictions.flowsViewsRestrictions })
    .from(delegationRestrictions)
    .where(eq(delegationRestrictions.userId, user.id));
  const policy = delegationPolicy(rows.flatMap((r) => r.flows ?? []));
  if (!policy) {
    throw new ApiProblem(403, {
      detail: "Your account's flow restrictions cannot be applied; please contact your operator.",
      exception_code: "permission_denied",
    });
  }
  return policy;
}

/**
 * Whether requested filters on a locked dimension are admitted: null when they only repeat
 * constrained values positively, otherwise the refusal's message.
 */
export function refuseLockedFilters(policy: DelegationPolicy, dimension: DimensionId, requested: readonly FlowFilter[]): string | null {
  const allowed = policy.lockedFilters.filter((f) => f.dimension === dimension);
  if (requested.every((x) => !x.isNegation && allowed.some((f) => f.value === x.value))) return null;
  const values = allowed.map((f) => valueLabel(dimension, f.value)).join(", ");
  return `${getDimension(dimension).label} is restricted for your account to ${values}; this filter cannot be changed.`;
}
