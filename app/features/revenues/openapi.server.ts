/** The OpenAPI description of Revenues & Costs' call, handed to the catalogue by app/wiring.server.ts. */
import { arr, bool, int, nullable, num, obj, str, type Operation } from "~/server/api/openapi.server";
import { revenueCostBodySchema } from "./request-schema";

const totals = obj({ costEur: num, revenueEur: num, marginEur: num });

export const REVENUES_OPERATIONS: Operation[] = [
  {
    file: "api.revenue_cost.ts",
    method: "POST",
    path: "/api/revenue_cost/",
    summary: "The bills of a calendar month per contract, the totals (cost, revenue, margin) and their change against the previous month.",
    description:
      "month 1–12 and year: 400 naming the field for month 13, a month in the future or a month that ends before the first sample of any interface. " +
      "Each contract valid in the month: the billed 95th (the Border Planner's rule: of n 5-minute samples the top floor(n/20) dropped), the 95th of in and out, " +
      "the mean rate, samples present and expected (a month under 99 % complete has complete false), the sources (snmp, flows, demo), and the charges in EUR: " +
      "commit, burst above the commit, flat price, fees, the minimum fee's top-up, total, effective prices per billed and per carried Mbit/s (Mbit/s = 10^6 bit/s). " +
      "A month over in every billing timezone is closed (closed: when frozen, last recomputed and by whom): its bills are read as frozen, " +
      "whatever contracts or samples changed since, and stay readable after the 5-minute rows expired. " +
      "Delegated accounts: 403 whatever they hold. Rules: docs/revenues-and-costs.md.",
    access: { permission: "REVENUES_AND_COSTS" },
    body: revenueCostBodySchema,
    response: obj({
      year: int,
      month: int,
      bills: arr(
        obj({
          contract: obj({ id: int, name: str, direction: str, method: str, partnerAsn: nullable(int), ports: arr(str) }),
          traffic: obj({
            billed95thMbps: nullable(num),
            in95thMbps: nullable(num),
            out95thMbps: nullable(num),
            meanMbps: nullable(num),
            samples: int,
            expectedSamples: int,
            completeness: num,
            complete: bool,
            sources: arr(str),
          }),
          charges: obj({
            proration: num,
            commitEur: num,
            burstEur: num,
            flatEur: num,
            feesEur: num,
            minimumTopUpEur: num,
            totalEur: num,
            perBilledMbpsEur: nullable(num),
            perCarriedMbpsEur: nullable(num),
            burstMbps: num,
          }),
        }),
      ),
      totals,
      previous: obj({ year: int, month: int, totals }),
      change: totals,
      incompleteContracts: int,
      closed: nullable(obj({ closedAt: str, recomputedAt: nullable(str), recomputedBy: nullable(str) })),
    }),
  },
];
