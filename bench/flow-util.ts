/**
 * npx tsx bench/flow-util.ts
 *
 * The flow-derived interface utilisation writer (app/features/collector/flow-util) on the demo's
 * raw flow records: a demo network of BENCH_DEMO_DAYS (1) days loaded into embedded test stores (its
 * last day goes through flows_raw), the demo's guard removed so the writer reads those records, then
 * one catch-up run over the whole raw day (the most one run does) and BENCH_RUNS (3) steady runs (the
 * 30-minute late margin and the interval just closed, as every 5 minutes). Prints the raw records,
 * the rows written and the time of each run. No thresholds.
 */
import { eq } from "drizzle-orm";
import { systemState } from "~db/postgres/schema";
import { writeFlowUtil } from "~/features/collector/flow-util/flow-util.server";
import { openTestStores, chRows } from "../tests/helpers/stores";

const DAYS = process.env.BENCH_DEMO_DAYS ?? "1";
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

async function main() {
  const stores = await openTestStores({ loadDemo: true, env: { DEMO_DAYS: DAYS } });
  try {
    const [raw] = await chRows<{ n: string; hi: string }>(
      stores,
      "SELECT count() AS n, toUnixTimestamp(max(time_received)) AS hi FROM flows_raw",
    );
    await stores.pg.db.delete(systemState).where(eq(systemState.key, "demo"));
    const now = new Date((Number(raw.hi) + 300) * 1000);
    const timed = async (label: string) => {
      const started = performance.now();
      const outcome = await writeFlowUtil(stores, now);
      const ms = performance.now() - started;
      const hours = (outcome.to - outcome.from) / 3600;
      console.log(`${label}: ${hours.toFixed(1)} h of intervals, ${outcome.rows} rows in ${ms.toFixed(0)} ms`);
      return ms;
    };
    console.log(`flows_raw: ${Number(raw.n).toLocaleString("en-US")} records`);
    await timed("catch-up run");
    const steady: number[] = [];
    for (let run = 1; run <= RUNS; run++) steady.push(await timed(`steady run ${run}`));
    steady.sort((a, b) => a - b);
    console.log(`steady median: ${steady[Math.floor(steady.length / 2)].toFixed(0)} ms`);
  } finally {
    await stores.dispose();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
