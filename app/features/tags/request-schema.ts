/**
 * zod schemas of api/tags/, api/tag_groups/, api/tag/values/ and api/mapping/. Isomorphic.
 * The flow dimension itself is checked by requireDimension (it depends on the user's permissions
 * and the API version), so here it is only a bounded string.
 */
import { z } from "zod";
import { singleLineText } from "~/lib/input-fields";
import { isHexColor } from "~/lib/colors";
import { isMappingLayer, MAPPING_MODELS, type MappingLayer } from "./mapping-model";
import { parseValuesId } from "~/features/filter/tag-reference";

const dimension = z.string().trim().min(1, "dimension is required.").max(64);

export const dimensionQuerySchema = z.object({ dimension });

export const tagValuesBodySchema = z.object({
  dimension,
  id: z
    .union([z.number(), z.string()])
    .refine((id) => parseValuesId(id) !== null, "id must be a tag id (e.g. 12) or group:<id> for a tag group (e.g. group:3)."),
});

const mappingType = z.enum(MAPPING_MODELS, { error: "type must be one of AS, Application, Infrastructure." });
const objectId = z.string().trim().min(1, "id is required.").max(200);

export const mappingQuerySchema = z.object({ id: objectId, type: mappingType });

export const mappingLayerQuerySchema = z.object({
  id: objectId,
  type: mappingType,
  priority: z
    .string()
    .trim()
    .refine(
      (p) => /^\d{1,3}$/.test(p) && isMappingLayer(Number(p)),
      "priority must be one of 0 (base), 10 (product), 20 (site), 30 (user).",
    )
    .transform((p) => Number(p) as MappingLayer),
});

export const mappingBodySchema = z
  .object({
    id: z.union([z.string(), z.number()]).optional(),
    name: singleLineText(100).trim().min(1, "name must not be empty (send null to leave it to the lower layers).").nullable().optional(),
    color: z.string().trim().refine(isHexColor, "color must be #rrggbb, e.g. #137cbd.").nullable().optional(),
  })
  .refine((b) => (b.name ?? null) !== null || (b.color ?? null) !== null, { message: "Give a name, a color or both.", path: ["name"] });
