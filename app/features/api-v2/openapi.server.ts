/**
 * The OpenAPI description of the second client (api/v2/, docs/api.md "The second client"): each
 * heavy call described as its api/ twin is (the same access rule, query and body), answered with
 * the twin's result or a status object; and GET api/v2/results/{id}/. Built from the operations
 * already described, so a change to a twin's description shows here too.
 */
import { bool, obj, str, type JsonSchema, type Operation } from "~/server/api/openapi.server";

/** The calls of the second client, as their api/ twins' paths (the route app/routes/api.v2.$.ts lists the same). */
export const API_V2_TWIN_PATHS = [
  "/api/flows/",
  "/api/sankey/",
  "/api/asflows/indirect/",
  "/api/linkutil/external/",
  "/api/linkutil/internal/",
  "/api/rna/",
  "/api/rna/timeseries/",
  "/api/revenue_cost/",
] as const;

const FILE = "api.v2.$.ts";

const started = obj({ status: { const: "Started" }, id: str });
const failed = obj({ status: { const: "Failed" }, id: str, resolvable: bool, detail: str });

const V2_DESCRIPTION =
  'The second client: answered at once with `{status: "Started", id}` while the result is computed (or with the result when it is there). ' +
  "Send the same request again until the answer is no longer Started; it is then the result, exactly as the api/ twin answers, " +
  'or `{status: "Failed", resolvable, detail}` (once; the next request computes anew). Identical requests after resolution (the delegation ' +
  "policy, tags, database override, API version and the range's resolved end) share one computation. 429 with Retry-After when the " +
  "user has API_V2_PENDING_PER_USER computations pending.";

/** The api/v2/ operations, from the twins among `described`. */
export function apiV2Operations(described: readonly Operation[]): Operation[] {
  const twins = API_V2_TWIN_PATHS.flatMap((path) => described.filter((op) => op.path === path));
  const calls: Operation[] = twins.map((twin) => ({
    ...twin,
    file: FILE,
    path: twin.path.replace(/^\/api\//, "/api/v2/"),
    summary: `${twin.summary} (second client: computed as a shared job)`,
    description: `${V2_DESCRIPTION}${twin.description ? `\n\nThe api/ twin: ${twin.description}` : ""}`,
    response: { anyOf: [started, failed, twin.response] } satisfies JsonSchema,
  }));
  return [
    ...calls,
    {
      file: FILE,
      method: "GET",
      path: "/api/v2/results/{id}/",
      summary: "A second-client result by id: Started, the result, or Failed {resolvable, detail}; 404 for any id that names no result.",
      access: "login",
      response: { anyOf: [started, failed, { type: "object", additionalProperties: true }] },
      description:
        "An extension of the spec for other clients. The id is the one a call under api/v2/ answered; results are kept API_V2_RESULT_TTL_SECONDS.",
    },
  ];
}
