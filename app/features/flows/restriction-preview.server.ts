/**
 * What a delegated account would see of the flows under one restriction: the same server code a
 * delegated user's request runs — the filter resolution with the account's delegation policy and
 * the flows query of api/flows/ — broken down by the restriction's output. The Delegated Users
 * screen (app/features/users/delegated-users/) shows it as its preview; its route hands this
 * function to the screen, so the users tool does not import the flows tool.
 */
import type { DelegationPolicy } from "~/features/filter/delegation-policy.server";
import { MAX_API_VERSION } from "~/features/filter/dimensions";
import { applyFilterRules } from "~/features/filter/filter-resolver.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { runFlowsQuery } from "./query.server";
import { operatorAsn, type FlowsContext } from "./service.server";

/**
 * The traffic of `account` (under `policy`, its only restriction) from `start` to `end` by
 * `output`: the `top` rows (bit/s) and the total over all rows. A refusal of the query (the API's
 * 400 or 403) is returned as its messages, anything else is thrown. Its shape is the screen's
 * TrafficOf (the route checks that they agree).
 */
export async function restrictedTraffic(
  services: Services,
  account: UserContext,
  policy: DelegationPolicy,
  query: { output: string; start: number; end: number; top: number },
) {
  const resolved = applyFilterRules({ values: [], errors: [] }, policy, new Map());
  try {
    // Inside the try: an installation without its own AS answers the preview with that reason (409), not a 500.
    const context: FlowsContext = {
      filters: resolved.filters,
      notices: [],
      locked: resolved.locked,
      operatorAsn: await operatorAsn(services),
      policy,
    };
    const result = await runFlowsQuery(services, account, MAX_API_VERSION, {
      dimension: query.output,
      start: query.start,
      end: query.end,
      filters: context,
      ipVersion: "all",
      timeseries: false,
      limit: 1000,
    });
    return {
      output: result.dimension.label,
      range: result.range ? { start: result.range.start, end: result.range.end } : null,
      rows: result.table.slice(0, query.top).map((r) => ({ key: r.key, name: r.name, bps: r.bps })),
      total: result.table.reduce((a, r) => a + r.bps, 0),
    };
  } catch (error) {
    const body = (error as { body?: { detail?: string; errors?: { message: string }[] } }).body;
    if (!body) throw error;
    return { errors: body.errors?.length ? body.errors.map((e) => e.message) : [body.detail ?? "Refused."] };
  }
}
