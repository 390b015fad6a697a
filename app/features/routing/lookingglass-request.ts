/**
 * The fields api/lookingglass/ takes beside the spec's queryTerm, queryType and vantagePoints (GET
 * parameters and POST body alike), shared by the route and its OpenAPI description. Isomorphic.
 */
import { z } from "zod";
import { COMMUNITY_MAX_LENGTH } from "~/lib/bgp-communities";
import { RIB_VIEW_CHOICES } from "./rib-views";

export const routeFilterFields = {
  /** Which routing tables (rib-views.ts); absent or "default": post-policy and Loc-RIB. Checked by resolveRouteFilters. */
  ribView: z.string().max(40, "At most 40 characters.").nullish(),
  /** Only routes carrying this community (exact, or `*` for its last part). Checked by resolveRouteFilters. */
  community: z.string().max(COMMUNITY_MAX_LENGTH, `At most ${COMMUNITY_MAX_LENGTH} characters.`).nullish(),
};

/** The OpenAPI description of the two fields. */
export const ROUTE_FILTER_PROPERTIES = {
  ribView: {
    enum: [...RIB_VIEW_CHOICES],
    description:
      "Private variant: the routing tables to read — default (post-policy and Loc-RIB), pre-policy, post-policy (Adj-RIB-In) or loc-rib. The public variant: default only (400 otherwise).",
  },
  community: {
    type: "string",
    maxLength: COMMUNITY_MAX_LENGTH,
    description:
      "Private variant: only routes carrying this community — standard 64496:100, large 64496:1:2, extended RT:64497:42 — or a pattern with * for the last part (64496:*, 64496:1:*, RT:64497:*). The public variant: 400.",
  },
} as const;
