/**
 * Bench step 1b: the Flow Explorer's top-10 table for each AS dimension over 30 days with two
 * filters, through the app's own code path (runFlowsQuery: permission check, filters, range
 * clamping, the SQL builder, names), against a bare sum(bytes) over the same table and WHERE
 * (sql.ts scanTotal). The ratio is what grouping, sorting and the request's bookkeeping add to
 * reading the rows. The app path is timed twice: as requests usually run, with the data's range
 * read by a request of the last few seconds (data-range.server.ts), and cold, reading it first.
 */
import { z } from "zod";
import { eq } from "drizzle-orm";
import { users } from "~db/postgres/schema";
import { forgetDataRange } from "~/features/flows/data-range.server";
import { getDimension, type DimensionId } from "~/features/filter/dimensions";
import { parseFilterValue, type FlowFilter } from "~/features/filter/filters";
import { runFlowsQuery } from "~/features/flows/query.server";
import { chQuery } from "~/server/clickhouse/query.server";
import { operatorAsn } from "~/features/flows/service.server";
import { scanTotal } from "~/features/flows/sql";
import { alignRange, defaultWindow, tableForWindow } from "~/features/flows/aggregation-window";
import { loadUserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";

export const AS_DIMENSIONS: readonly DimensionId[] = [
  "AS_SRC_INGRESS",
  "AS_HND_INGRESS",
  "AS_NXT_INGRESS",
  "AS_DST_INGRESS",
  "AS_SRC_EGRESS",
  "AS_NXT_EGRESS",
  "AS_DST_EGRESS",
  "AS_NEIGHBOR_EGRESS",
];

/**
 * Two filters per direction, as an operator narrows a view: two Frankfurt routers, and one big
 * neighbour excluded (Google, AS15169, on the handover side for ingress, as the neighbour for egress).
 */
const FILTERS = {
  INGRESS: [
    { dimension: "ROUTER_IN", values: ["fra-er1", "fra-er2"] },
    { dimension: "AS_HND_INGRESS", values: ["!15169"] },
  ],
  EGRESS: [
    { dimension: "ROUTER_OUT", values: ["fra-er1", "fra-er2"] },
    { dimension: "AS_NEIGHBOR_EGRESS", values: ["!15169"] },
  ],
} as const;

export type DimensionFigure = {
  dimension: DimensionId;
  filters: string;
  server: number[];
  serverColdRange: number[];
  scan: number[];
  topValue: string;
};

const timed = async <T>(run: () => Promise<T>): Promise<[number, T]> => {
  const started = performance.now();
  const result = await run();
  return [performance.now() - started, result];
};

export async function measureAsDimensions(
  services: Services,
  range: { from: number; to: number },
  runs: number,
  warmups: number,
): Promise<DimensionFigure[]> {
  const [admin] = await services.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@flowlens.example"));
  const user = admin ? await loadUserContext(services.pg.db, admin.id) : null;
  if (!user) throw new Error("The demo superuser admin@flowlens.example is missing in the bench data dir");
  const operator = await operatorAsn(services);
  const figures: DimensionFigure[] = [];
  for (const dimension of AS_DIMENSIONS) {
    const direction = getDimension(dimension).direction ?? "INGRESS";
    const requestFilters = FILTERS[direction].map((f) => ({ dimension: f.dimension, values: [...f.values] }));
    const server = () =>
      runFlowsQuery(services, user, 17, {
        dimension,
        start: range.from,
        end: range.to,
        filters: requestFilters,
        ipVersion: "all",
        limit: 10,
        timeseries: false,
      });
    // The scan reads exactly what the grouped query reads: same table, aligned range and filters.
    const window = defaultWindow({ start: range.from, end: range.to });
    const table = tableForWindow(window);
    const filters: FlowFilter[] = requestFilters.flatMap((f) =>
      f.values.map((v) => {
        const parsed = parseFilterValue(f.dimension as DimensionId, v);
        if ("error" in parsed) throw new Error(parsed.error);
        return parsed.filter;
      }),
    );
    const built = scanTotal([dimension], {
      range: alignRange({ start: range.from, end: range.to }, table),
      filters,
      operatorAsn: operator,
      table,
    });
    const scan = () => chQuery(services.ch, { ...built, schema: z.object({ total_bytes: z.number() }) });
    const figure: DimensionFigure = {
      dimension,
      filters: requestFilters.map((f) => `${f.dimension}:${f.values.join(",")}`).join(" & "),
      server: [],
      serverColdRange: [],
      scan: [],
      topValue: "",
    };
    const steps = ["server", "serverColdRange", "scan"] as const;
    for (let i = 0; i < warmups + runs; i++) {
      // Rotated so no variant always follows the same one.
      for (let k = 0; k < steps.length; k++) {
        const step = steps[(i + k) % steps.length];
        if (step === "scan") {
          const [elapsed] = await timed(scan);
          if (i >= warmups) figure.scan.push(elapsed);
          continue;
        }
        if (step === "serverColdRange") forgetDataRange(services);
        const [elapsed, result] = await timed(server);
        if (!result.table.length) throw new Error(`${dimension}: the table is empty`);
        figure.topValue = `${result.table[0].name} ${(result.table[0].bps / 1e9).toFixed(2)} Gbit/s`;
        if (i >= warmups) figure[step].push(elapsed);
      }
    }
    figures.push(figure);
  }
  return figures;
}
