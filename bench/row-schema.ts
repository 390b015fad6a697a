/**
 * npx tsx bench/row-schema.ts
 *
 * What checking rows against a zod schema costs next to the read itself, on embedded chDB through
 * the query door: one page of the enrichment snapshot's shape (BENCH_ROWS rows, default 100k, of
 * address, prefix length, origin and first AS, next hop: collector.ribSnapshot), read with
 * `chQueryUnchecked`, then its rows checked against the schema as `chQuery` does, timed apart,
 * BENCH_RUNS times after two warm-ups. The rows come from numbers(), so no table is needed. No thresholds: the figures decide
 * where `chQueryUnchecked` is worth its missing check (docs/decisions/013-checked-rows.md).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { z } from "zod";
import { openClickhouse } from "~/server/clickhouse.server";
import { NO_OVERRIDE } from "~/server/clickhouse/database-override.server";
import { queryDoorSettings } from "~/server/clickhouse/limits.server";
import { chQuery, chQueryUnchecked, openQueryDoor, type Statement } from "~/server/clickhouse/query.server";
import { parseConfig } from "~/server/env.server";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);

const page: Statement = {
  name: "bench.rowSchema",
  sql: `SELECT toString(toIPv6(concat('::ffff:', IPv4NumToString(toUInt32(number * 256))))) AS a, toUInt8(24) AS l,
               toUInt32(64496 + number % 1000) AS o, toUInt32(3356) AS f, '192.0.2.1' AS n
        FROM numbers({rows:UInt32})`,
  params: { rows: ROWS },
};
const pageRow = z.object({ a: z.string(), l: z.number(), o: z.number(), f: z.number(), n: z.string() });

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-bench-rowschema-"));
  const config = parseConfig({ DATA_DIR: dataDir, DEMO_DATA: "off", SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0123" });
  const connection = await openClickhouse(config);
  const ch = openQueryDoor(connection, queryDoorSettings(config), { identify: async () => "bench", databases: async () => NO_OVERRIDE });
  try {
    // The read (engine, transfer, JSON parsing) and the check of the rows it gave, timed apart:
    // end to end the check drowns in the read's variance on a shared machine.
    const reads: number[] = [];
    const checks: number[] = [];
    for (let run = 0; run < RUNS + 2; run++) {
      let started = performance.now();
      const rows = await chQueryUnchecked(ch, page);
      const read = performance.now() - started;
      if (rows.length !== ROWS) throw new Error(`${rows.length} rows read, ${ROWS} expected`);
      started = performance.now();
      for (const row of rows) if (!pageRow.safeParse(row).success) throw new Error("a row does not match its schema");
      const check = performance.now() - started;
      if (run >= 2) [reads, checks].forEach((into, i) => into.push(i ? check : read));
    }
    // chQuery is the two together: the same read, then the same check.
    await chQuery(ch, { ...page, schema: pageRow });
    const [read, check] = [median(reads), median(checks)];
    console.log(`row schema, ${ROWS} rows of collector.ribSnapshot's shape, median of ${RUNS} runs:`);
    console.log(`  read (chQueryUnchecked): ${read.toFixed(0)} ms`);
    console.log(`  check of its rows:       ${check.toFixed(0)} ms (${((check / read) * 100).toFixed(0)}% of the read)`);
  } finally {
    await connection.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
