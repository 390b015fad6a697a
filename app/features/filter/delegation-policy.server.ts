/**
 * What a delegated user may see of the flows: the security boundary, so it lives here alone and
 * every flows path (api/flows/, api/sankey/, the analysis calls, api/flows/export/, the Flow
 * Explorer and AS Flows screens and their exports, api/autocomplete/, api/filter/metadata/, and
 * the tag calls api/tags/, api/tag_groups/, api/tag/values/) applies
 * it through this module. docs/delegated-users.md states the rules; in short:
 *
 * - A restriction is { dimension, constrained_values, output }. Exactly one is CURRENT:
 *   delegation_restrictions.current_index (0 after login; the header's "Next" cycles it).
 * - The current restriction's dimension is locked to its constrained values: they become forced,
 *   locked, positive filters; a request filter on it is admitted only when it repeats constrained
 *   values positively (a no-op), anything else is a 400 naming the allowed values.
 * - Only two dimensions may be asked for at all — grouped by (breakdown, Sankey, export), filtered
 *   on, completed or named: the restricted dimension and the output (what the restricted traffic
 *   is broken down by). Any other is a 403 naming the two.
 * - A restriction that cannot be applied (unknown dimension or output, no valid value), and a
 *   delegated account without any flows restriction, refuse every flows request (403) instead of
 *   widening it.
 * The restriction row applies whether or not the account is flagged as delegated; the flag alone
 * (without restrictions) is refused.
 */
import { ApiProblem } from "~/server/api/contract.server";
import { readDelegation, reduceIndex } from "~/server/auth/delegation.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Db } from "~/server/postgres.server";
import type { Services } from "~/server/services.server";
import { getDimension, isDimensionId, type DimensionId } from "./dimensions";
import { restrictionFilters, type FlowFilter, type FlowsRestriction } from "./filters";
import { valueLabel } from "./value-labels";

/** The current restriction, resolved. */
export type CurrentRestriction = {
  /** 0-based position in the account's list, and the list's length. */
  index: number;
  count: number;
  dimension: DimensionId;
  output: DimensionId;
  /** The constrained values as locked filters. */
  values: FlowFilter[];
};

export type DelegationPolicy = {
  /** The current restriction's forced filters, locked; every query starts from them. */
  lockedFilters: FlowFilter[];
  locked: ReadonlySet<DimensionId>;
  /** null: every dimension (no restriction); otherwise the restricted dimension and the output. */
  allowed: ReadonlySet<DimensionId> | null;
  current: CurrentRestriction | null;
};

/** A user without restrictions. */
export const NO_DELEGATION: DelegationPolicy = { lockedFilters: [], locked: new Set(), allowed: null, current: null };

export const RESTRICTIONS_CANNOT_BE_APPLIED = "Your account's flow restrictions cannot be applied; please contact your operator.";

/**
 * The policy of a list of restrictions with the current one at `currentIndex` (reduced mod n);
 * NO_DELEGATION for an empty list; null when the current restriction cannot be applied.
 */
export function delegationPolicy(restrictions: readonly FlowsRestriction[], currentIndex = 0): DelegationPolicy | null {
  if (!restrictions.length) return NO_DELEGATION;
  const index = reduceIndex(currentIndex, restrictions.length);
  const r = restrictions[index];
  const output = r.output ?? "";
  if (!isDimensionId(r.dimension) || !isDimensionId(output)) return null;
  const values = restrictionFilters([r]);
  if (!values.length) return null;
  return {
    lockedFilters: values,
    locked: new Set([r.dimension]),
    allowed: new Set([r.dimension, output]),
    current: { index, count: restrictions.length, dimension: r.dimension, output, values },
  };
}

/** The user's policy, read once per request; a 403 when their restrictions cannot be applied. */
export async function loadDelegationPolicy(
  stores: Pick<Services, "pg">,
  user: Pick<UserContext, "id"> & Partial<Pick<UserContext, "isDelegated">>,
): Promise<DelegationPolicy> {
  return delegationPolicyOf(stores.pg.db, user);
}

/** loadDelegationPolicy for callers holding only the database (the tag calls). */
export async function delegationPolicyOf(
  db: Db,
  user: Pick<UserContext, "id"> & Partial<Pick<UserContext, "isDelegated">>,
): Promise<DelegationPolicy> {
  const row = await readDelegation(db, user.id);
  const restrictions = row?.flows ?? [];
  const policy = user.isDelegated && !restrictions.length ? null : delegationPolicy(restrictions, row?.currentIndex ?? 0);
  if (!policy) throw new ApiProblem(403, { detail: RESTRICTIONS_CANNOT_BE_APPLIED, exception_code: "permission_denied" });
  return policy;
}

/** "Destination AS (ingress) and Source AS (ingress)": the dimensions a policy allows, in words. */
export function allowedDimensionsText(policy: DelegationPolicy): string {
  if (!policy.current) return "every dimension";
  const { dimension, output } = policy.current;
  return dimension === output ? getDimension(dimension).label : `${getDimension(dimension).label} and ${getDimension(output).label}`;
}

/** Why a dimension is refused: the message names the allowed dimensions. */
export function dimensionRefusal(policy: DelegationPolicy, dimension: DimensionId): string {
  return `${getDimension(dimension).label} is not available to your account: it may only use ${allowedDimensionsText(policy)}.`;
}

/** Whether the policy lets a request use the dimension (group by, filter, complete, name). */
export function mayUseDimension(policy: DelegationPolicy, dimension: DimensionId): boolean {
  return policy.allowed === null || policy.allowed.has(dimension);
}

/** The 403 of a request asking for a dimension outside the policy. */
export function dimensionProblem(policy: DelegationPolicy, dimension: DimensionId): ApiProblem {
  return new ApiProblem(403, { detail: dimensionRefusal(policy, dimension), exception_code: "permission_denied" });
}

/** Throws the 403 unless every dimension is allowed by the policy. */
export function requireAllowedDimensions(policy: DelegationPolicy, dimensions: readonly DimensionId[]): void {
  const refused = dimensions.find((d) => !mayUseDimension(policy, d));
  if (refused) throw dimensionProblem(policy, refused);
}

/**
 * Whether a value of a dimension may be asked about (autocomplete results, metadata): every value
 * of the output and of unrestricted dimensions; only the constrained values of the restricted one.
 */
export function mayUseValue(policy: DelegationPolicy, dimension: DimensionId, value: string): boolean {
  if (!mayUseDimension(policy, dimension)) return false;
  if (!policy.locked.has(dimension)) return true;
  return policy.lockedFilters.some((f) => f.dimension === dimension && f.value === value);
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
