import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { answerCall, resultById } from "~/features/api-v2/jobs.server";
import { resultKeyOf } from "~/features/api-v2/key.server";
import { accessProblem, apiError, type Method, type RouteDispatch } from "~/server/api/contract.server";
import { getApiRequestContext } from "~/server/auth/guard.server";
import type { Services } from "~/server/services.server";
import type { RequestFilter } from "~/features/filter/request-filter";
import { dataRange } from "~/features/flows/data-range.server";
import { tableGranularity } from "~/features/flows/aggregation-window";
import { normalizeFilters } from "~/features/flows/request-schema";
import { action as asflowsIndirect } from "./api.asflows.indirect";
import { action as flows } from "./api.flows";
import { action as linkutilExternal } from "./api.linkutil.external";
import { action as linkutilInternal } from "./api.linkutil.internal";
import { action as revenueCost } from "./api.revenue_cost";
import { action as rna } from "./api.rna";
import { action as rnaTimeseries } from "./api.rna.timeseries";
import { action as sankey } from "./api.sankey";

/**
 * The second client (spec: looking glass §4 "Second client", §7 "A second client uses base
 * /api/v2/"; docs/api.md "The second client"): api/v2/<call> for the heavy calls, each its api/
 * twin's endpoint — the same access rule, version, CSRF check, schemas and handler — prepared here
 * and run as a shared computation (app/features/api-v2/jobs.server.ts). GET api/v2/results/{id}/ reads
 * a result by id. Anything else under api/v2/ is a 404.
 */
const API_V2_CALLS: Readonly<Record<string, RouteDispatch>> = {
  "flows/": flows,
  "sankey/": sankey,
  "asflows/indirect/": asflowsIndirect,
  "linkutil/external/": linkutilExternal,
  "linkutil/internal/": linkutilInternal,
  "rna/": rna,
  "rna/timeseries/": rnaTimeseries,
  "revenue_cost/": revenueCost,
};

/** What the key needs from the flows tool: the body's filters as {dimension, values}, the end of the newest bucket with data. */
async function keySources(services: Services, body: unknown): Promise<{ filters: RequestFilter[] | null; dataEnd: number | null }> {
  const raw = body && typeof body === "object" ? (body as { filters?: unknown }).filters : undefined;
  const filters = Array.isArray(raw) ? normalizeFilters(raw as Parameters<typeof normalizeFilters>[0]) : null;
  const range = await dataRange(services).catch(() => null);
  const dataEnd = range?.maxTimestamp != null ? range.maxTimestamp + tableGranularity("flows_5m") : null;
  return { filters, dataEnd };
}

const notFound = () => apiError(404, "Not found.");

async function dispatch(args: LoaderFunctionArgs | ActionFunctionArgs): Promise<Response> {
  const { request } = args;
  const rest = args.params["*"] ?? "";
  const call = rest.endsWith("/") ? rest : `${rest}/`;
  const results = /^results\/(.*)\/$/s.exec(call);
  if (results) {
    if (request.method !== "GET") return apiError(405, `Method ${request.method} not allowed.`);
    return resultLookup(request, results[1]);
  }
  const route = API_V2_CALLS[call];
  if (!route) return notFound();
  const endpoint = route.endpoints[request.method as Method];
  if (!endpoint) return apiError(405, `Method ${request.method} not allowed.`);
  const url = new URL(request.url);
  const twinUrl = new URL(`/api/${call}${url.search}`, url);
  const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
  const twinRequest = new Request(twinUrl, { method: request.method, headers: request.headers, body });
  const prepared = await endpoint.prepare({ ...args, request: twinRequest });
  if (prepared instanceof Response) return prepared;
  const services = prepared.context.services;
  const user = prepared.user;
  // Every heavy call needs a permission, so a prepared call has a user; without one it runs as the twin does.
  if (!user) return prepared.run(twinRequest);
  const key = await resultKeyOf(services, user, {
    call,
    method: request.method,
    version: prepared.version,
    query: prepared.query,
    body: prepared.body,
    ...(await keySources(services, prepared.body)),
  });
  return answerCall({
    services,
    key,
    call,
    userId: user.id,
    compute: (signal) => prepared.run(new Request(twinUrl, { method: request.method, headers: request.headers, signal })),
  });
}

/**
 * GET api/v2/results/{id}/: any logged-in caller; the id (128 random bits) is handed only to the
 * callers whose request resolved to the result. 404 for any id that names no result.
 */
async function resultLookup(request: Request, id: string): Promise<Response> {
  const context = await getApiRequestContext(request);
  if (context.session.status !== "LOGGED_IN") {
    const problem = accessProblem("not_authenticated", context);
    return Response.json(problem.body, { status: problem.status });
  }
  return (await resultById(context.services, id)) ?? notFound();
}

export const loader = dispatch;
export const action = dispatch;
