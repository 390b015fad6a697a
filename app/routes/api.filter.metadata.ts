import { z } from "zod";
import type { MetadataInput } from "~/features/flows/autocomplete.server";
import { filterMetadataFor } from "~/features/flows/lookup-access.server";
import { availableDimensions, FILTER_KINDS, getDimension, isDimensionId, type FilterKind } from "~/features/filter/dimensions";
import { requireDimension } from "~/features/filter/filter-resolver.server";
import { ApiProblem, endpoint, resourceRoute } from "~/server/api/contract.server";

const isFilterKind = (v: string): v is FilterKind => (FILTER_KINDS as readonly string[]).includes(v);

/**
 * POST api/filter/metadata/ {filters: [{dimension?, value}], fallbackDimensionType?} →
 * {results: [{dimension, value, name, type}]}, in request order: the names a deep link's filter
 * chips show (AS names, routers with their city, interface descriptions, protocol names).
 * A filter without a dimension is read as fallbackDimensionType (a dimension id or a filter kind:
 * AS_NUMBER, ROUTER, ...); without either its name is null. Access: API_FLOWS_4D; a named
 * dimension must be available to the user (400 otherwise), and a fallback kind none of the
 * user's dimensions has gives null names. A delegated user may ask only about the restricted
 * dimension (its constrained values) and its output: anything else is a 403.
 */
const route = resourceRoute({
  POST: endpoint({
    method: "POST",
    access: { permission: "API_FLOWS_4D" },
    body: z.object({
      filters: z
        .array(
          z.object({
            dimension: z.string().max(64).optional(),
            value: z.union([z.string().max(300), z.number()]),
          }),
        )
        .max(500),
      fallbackDimensionType: z.string().max(64).optional(),
    }),
    handler: async ({ context, user, body, version }) => {
      const allowedKinds = new Set(availableDimensions(user.permissions, version).map((d) => d.filterKind));
      const fallback = body.fallbackDimensionType;
      let fallbackKind: FilterKind | null = null;
      if (fallback !== undefined) {
        if (isDimensionId(fallback))
          fallbackKind = getDimension(requireDimension(user, version, fallback, "fallbackDimensionType")).filterKind;
        else if (isFilterKind(fallback)) fallbackKind = allowedKinds.has(fallback) ? fallback : null;
        else
          throw new ApiProblem(400, {
            detail: "Invalid request body.",
            errors: [
              {
                field: "fallbackDimensionType",
                message: `Unknown dimension type ${fallback}.`,
              },
            ],
          });
      }
      const inputs: MetadataInput[] = body.filters.map((f, i) => {
        if (f.dimension) {
          const dimension = requireDimension(user, version, f.dimension, `filters.${i}.dimension`);
          return {
            dimension,
            kind: getDimension(dimension).filterKind,
            value: String(f.value),
          };
        }
        return { dimension: null, kind: fallbackKind, value: String(f.value) };
      });
      return { results: await filterMetadataFor(context.services, user, inputs) };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
