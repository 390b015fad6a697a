/**
 * npm run bench:planners
 *
 * The planners on the demo network, in the embedded stores under BENCH_DATA_DIR (default
 * ./data-bench; the 35-day demo is loaded there first when the stores are empty):
 *   - Border Planner: planLinks over every external link for the 35 days ending at the newest
 *     interface_util_5m sample (the service as the screen and API call it, as a superuser);
 *   - the same for the Core Planner (internal links);
 *   - the billing 95th of one external link over 30 days (linkFiguresQuery alone, one link).
 * Median and max of BENCH_RUNS timed runs after one warm-up. No thresholds: it fails only on errors.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { DEMO_DAYS, loadDemoNetwork } from "~db/demo/load";
import { endsOf, readCatalogue } from "~/features/planners/links.server";
import { planLinks } from "~/features/planners/plan.server";
import { linkFiguresQuery } from "~/features/planners/sql";
import type { Viewer } from "~/features/planners/types";
import { chQuery } from "~/server/clickhouse/query.server";
import { parseConfig } from "~/server/env.server";
import { startServices, storesAreEmpty } from "~/server/services.server";
import { DEFAULT_USER_SETTINGS } from "~/server/settings/user-settings.server";
import { wireApp } from "~/wiring.server";
import { recordBenchOutput } from "./results";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DAY = 86_400;

async function timed(runs: number, work: () => Promise<unknown>): Promise<{ median: number; max: number }> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const mid = times.length >> 1;
  return { median: times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2, max: times[times.length - 1] };
}

async function main() {
  const dataDir = path.resolve(ROOT, process.env.BENCH_DATA_DIR ?? "data-bench");
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  wireApp();
  const config = parseConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", CLICKHOUSE_URL: "", DEMO_DATA: "off" });
  const services = await startServices(config, { loadDemo: false });
  try {
    if (await storesAreEmpty(services)) {
      console.log(`stores are empty: loading the ${DEMO_DAYS}-day demo network…`);
      await loadDemoNetwork(services, { days: DEMO_DAYS });
    }
    const [newest] = await chQuery(services.ch, {
      name: "bench.utilNewest",
      sql: "SELECT toUInt32(max(time)) AS t, toUInt64(count()) AS n FROM interface_util_5m",
      schema: z.object({ t: z.coerce.number(), n: z.coerce.number() }),
    });
    if (!newest || newest.n === 0) throw new Error("interface_util_5m is empty");
    const end = newest.t + 300;
    const viewer: Viewer = { userId: 0, isDelegated: false, settings: DEFAULT_USER_SETTINGS, timezone: "UTC" };
    const catalogue = await readCatalogue(services);
    const range35 = { start: end - 35 * DAY, end };
    const border = await timed(runs, () => planLinks(services, viewer, { kind: "external", range: range35 }));
    const core = await timed(runs, () => planLinks(services, viewer, { kind: "internal", range: range35 }));
    const one = catalogue.external[0];
    const range30 = { start: end - 30 * DAY, end };
    let samples = 0;
    const p95 = await timed(runs, async () => {
      const rows = await chQuery(services.ch, { ...linkFiguresQuery(endsOf([one]), range30), schema: z.object({ samples: z.number() }) });
      samples = Number(rows[0]?.samples ?? 0);
    });
    const f = (t: { median: number; max: number }) => `median ${t.median.toFixed(0)} ms, max ${t.max.toFixed(0)} ms`;
    console.log(`rows in interface_util_5m: ${newest.n}; runs: ${runs}`);
    console.log(`Border Planner, ${catalogue.external.length} external links × 35 days: ${f(border)}`);
    console.log(`Core Planner, ${catalogue.internal.length} internal links × 35 days: ${f(core)}`);
    console.log(`95th of ${one.key} over 30 days (${samples} samples): ${f(p95)}`);
  } finally {
    await services.close();
  }
}

const results = recordBenchOutput("Planners (`npm run bench:planners`)");
main()
  .then(() => results.finish())
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
