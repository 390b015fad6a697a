/** The OpenAPI description of the tags and mappings endpoints, handed to the catalogue by app/wiring.server.ts. */
import { anyObject, arr, type Operation } from "~/server/api/openapi.server";
import {
  dimensionQuerySchema,
  mappingBodySchema,
  mappingLayerQuerySchema,
  mappingQuerySchema,
  tagValuesBodySchema,
} from "./request-schema";

/**
 * The access rule of the flows endpoints (api/flows/ and the others): the tags and mappings are
 * read by the flows screens and their filters, so they need the same permission.
 */
const FLOWS = { permission: "API_FLOWS_4D" } as const;

export const TAGS_OPERATIONS: Operation[] = [
  {
    file: "api.tags.ts",
    method: "GET",
    path: "/api/tags/",
    summary: "Tags the user can see for a dimension.",
    access: FLOWS,
    query: dimensionQuerySchema,
    response: arr(anyObject),
  },
  {
    file: "api.tag_groups.ts",
    method: "GET",
    path: "/api/tag_groups/",
    summary: "Tag groups the user can see for a dimension.",
    access: FLOWS,
    query: dimensionQuerySchema,
    response: arr(anyObject),
  },
  {
    file: "api.tag.values.ts",
    method: "POST",
    path: "/api/tag/values/",
    summary: "A tag or tag group as a filter tag value.",
    access: FLOWS,
    body: tagValuesBodySchema,
    response: anyObject,
  },
  {
    file: "api.mapping.ts",
    method: "GET",
    path: "/api/mapping/",
    summary: "Name and colour layers of an object and the effective mapping.",
    access: FLOWS,
    query: mappingQuerySchema,
    response: anyObject,
  },
  {
    file: "api.mapping.ts",
    method: "PUT",
    path: "/api/mapping/",
    summary:
      "Creates or replaces one layer's mapping. Layer 30: the caller's own (an AS name needs API_CHANGE_AS_INFO); 20: moderators, staff, superusers; 0 and 10: staff and superusers.",
    access: FLOWS,
    query: mappingLayerQuerySchema,
    body: mappingBodySchema,
    response: anyObject,
  },
  {
    file: "api.mapping.ts",
    method: "DELETE",
    path: "/api/mapping/",
    summary: "Removes one layer's mapping (404 when absent); the same layer rights as PUT.",
    access: FLOWS,
    query: mappingLayerQuerySchema,
    response: anyObject,
  },
];
