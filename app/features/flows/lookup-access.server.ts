/**
 * api/autocomplete/ and api/filter/metadata/ under the delegation policy (delegation-policy.server.ts):
 * a delegated user may complete or name values of the restricted dimension and of its output only
 * (any other dimension: 403 naming the two), and of the restricted dimension only its constrained
 * values (no other value, no negation, no tag).
 */
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { AUTOCOMPLETE_LIMIT, type AutocompleteItem } from "~/features/filter/autocomplete-cache";
import { autocomplete, filterMetadata, type MetadataInput, type MetadataOutput, type TagAutocompleteItem } from "./autocomplete.server";
import {
  allowedDimensionsText,
  dimensionProblem,
  loadDelegationPolicy,
  mayUseValue,
  requireAllowedDimensions,
} from "~/features/filter/delegation-policy.server";
import { getDimension, type DimensionId } from "~/features/filter/dimensions";
import { parseAsValue } from "~/features/filter/filters";

type Stores = Pick<Services, "pg" | "ch">;
type Caller = Pick<UserContext, "id" | "isDelegated">;

/** The bare value of an item or input: without a leading `!`, an AS number normalised. */
function bareValue(dimension: DimensionId, value: string): string {
  const text = value.trim().replace(/^!/, "").trim();
  if (getDimension(dimension).filterKind !== "AS_NUMBER") return text;
  const as = parseAsValue(text);
  return as ? as.value : text;
}

/** The autocomplete of one dimension as the caller may see it (403 for a dimension outside their restriction). */
export async function autocompleteFor(
  stores: Stores,
  user: Caller,
  dimension: DimensionId,
  term: string,
): Promise<(AutocompleteItem | TagAutocompleteItem)[]> {
  const policy = await loadDelegationPolicy(stores, user);
  requireAllowedDimensions(policy, [dimension]);
  const items = await autocomplete(stores, dimension, term, AUTOCOMPLETE_LIMIT, user);
  if (!policy.locked.has(dimension)) return items;
  // The restricted dimension: its constrained values only, positive, no tags.
  return items.filter(
    (i) => i.type === "PRIMITIVE" && !i.value.startsWith("!") && mayUseValue(policy, dimension, bareValue(dimension, i.value)),
  );
}

/**
 * Names for filter values as the caller may ask for them: a value of a named dimension outside the
 * restriction is a 403, as is a value of the restricted dimension that is not constrained. An
 * input without a dimension (read as a filter kind) counts as the allowed dimensions of its kind:
 * answered when one of them may carry the value, otherwise a 403.
 */
export async function filterMetadataFor(stores: Stores, user: Caller, inputs: readonly MetadataInput[]): Promise<MetadataOutput[]> {
  const policy = await loadDelegationPolicy(stores, user);
  if (policy.allowed !== null) {
    const allowed = [...policy.allowed];
    const refuse = (what: string) =>
      new ApiProblem(403, {
        detail: `${what} is not available to your account: it may only use ${allowedDimensionsText(policy)}.`,
        exception_code: "permission_denied",
      });
    for (const input of inputs) {
      if (input.dimension) {
        if (!allowed.includes(input.dimension)) throw dimensionProblem(policy, input.dimension);
        if (!mayUseValue(policy, input.dimension, bareValue(input.dimension, input.value)))
          throw refuse(`The value ${input.value} of ${getDimension(input.dimension).label}`);
      } else if (input.kind) {
        const candidates = allowed.filter((d) => getDimension(d).filterKind === input.kind);
        if (!candidates.some((d) => mayUseValue(policy, d, bareValue(d, input.value))))
          throw refuse(`The value ${input.value} (${input.kind})`);
      }
    }
  }
  return filterMetadata(stores, inputs, user);
}
