/**
 * npx tsx bench/chdb-insert.ts: what an insert of flow rows into embedded chDB costs, and where.
 *
 * Fresh chDB store in a temporary directory (removed at the end), the ClickHouse migrations
 * applied, rows as the collector writes them: datagrams of bench/collector-traffic.ts decoded,
 * enriched and encoded as TabSeparated by a DecodeThread over the synthetic network, tracked_as
 * filled as the collector computes it (the top 200 ASes by traffic of those rows). Then each
 * variant inserts the same BENCH_CHINSERT_ROWS rows in batches of BENCH_CHINSERT_BATCH through
 * chInsertRaw, BENCH_RUNS times, the variants taking turns so they share the machine's noise.
 * Tables are emptied before each variant's turn, so every turn starts from the same parts.
 *
 * Figures: rows/s (wall) and rows per CPU-second of this process (every thread: chDB's too), the
 * median of the runs; CPU is the steadier of the two on a shared machine.
 */
import { z } from "zod";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import type { ClickHouseClient, ClickHouseSettings } from "@clickhouse/client";
import { FLOW_ROW_COLUMNS } from "~/features/collector/enrich/flow-row";
import { topTrafficAsSql, TRACKED_TOP } from "~/features/collector/enrich/tracked-as.server";
import { DecodeThread } from "~/features/collector/runtime/decode-thread";
import { openClickhouse } from "~/server/clickhouse.server";
import { NO_OVERRIDE } from "~/server/clickhouse/database-override.server";
import { queryDoorSettings } from "~/server/clickhouse/limits.server";
import { chCommand, chInsert, chInsertRaw, chQuery, openQueryDoor, type ClickhouseHandle } from "~/server/clickhouse/query.server";
import { DEFAULT_LAYOUT, loadMigrations, migrateClickhouse } from "~/server/clickhouse-migrations.server";
import { parseConfig } from "~/server/env.server";
import { ipfixDatagram, v9Datagram } from "./collector-traffic";
import { OPERATOR_ASN, syntheticNetwork } from "./synthetic-network";

const ROWS = Number(process.env.BENCH_CHINSERT_ROWS ?? 200_000);
const BATCH = Number(process.env.BENCH_CHINSERT_BATCH ?? 50_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** Comma-separated names: only these variants (all when unset). */
const ONLY = process.env.BENCH_CHINSERT_VARIANTS?.split(",").map((s) => s.trim());

const grouped = (n: number) => Math.round(n).toLocaleString("en-US");
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** The 5-minute view as the latest migration that replaces it creates it, with the fold expression and FROM clause of a variant. */
function fiveMinuteView(fold: (column: string) => string, prefix = ""): string {
  const view = loadMigrations(DEFAULT_LAYOUT)
    .flatMap((m) => m.statements)
    .filter((s) => s.startsWith("CREATE MATERIALIZED VIEW IF NOT EXISTS flows_5m_mv"))
    .at(-1);
  if (!view) throw new Error("no migration creates flows_5m_mv");
  // The four fold lines of whatever form the view has, replaced by the variant's.
  const lines = view.split("\n");
  const first = lines.findIndex((l) => /AS as_src,\s*$/.test(l));
  if (first < 0) throw new Error("the view's as_src line was not found");
  const folded = ["as_src", "as_hnd", "as_nxt", "as_dst"].map((c) => `    ${fold(c)} AS ${c},`);
  const out = [...lines.slice(0, first), ...folded, ...lines.slice(first + 4)].join("\n");
  return prefix ? out.replace(/\nSELECT\n/, `\n${prefix}\nSELECT\n`) : out;
}

const FLOWS_1H_VIEW = () => {
  const view = loadMigrations(DEFAULT_LAYOUT)
    .find((m) => m.version === 1)
    ?.statements.find((s) => s.startsWith("CREATE MATERIALIZED VIEW IF NOT EXISTS flows_1h_mv"));
  if (!view) throw new Error("0001 has no flows_1h_mv");
  return view;
};

type Variant = {
  name: string;
  what: string;
  /** Statements that set the views up (after both views were dropped); none = raw table only. */
  views: () => string[];
  /** Extra statements once, before the first run (tables, dictionaries). */
  once?: string[];
  settings?: ClickHouseSettings;
  batch?: number;
  /** The table inserted into (default flows_raw). */
  table?: string;
  /** Statements before the variant's turn, and after it (table settings set and reset). */
  before?: string[];
  after?: string[];
  /** Through the client's insert (the body made a string and appended to the statement), not chDB's raw insert. */
  viaClient?: boolean;
  /** The body's format (default TabSeparated): RowBinary goes through a file and FROM INFILE. */
  format?: "RowBinary";
};

const NO_OPT: ClickHouseSettings = { optimize_on_insert: 0 };
const TABLES = ["flows_raw", "flows_5m", "flows_1h"];
const subqueryFold = (c: string) => `if(${c} < 0 OR ${c} IN (SELECT asn FROM tracked_as), ${c}, -101)`;
const asIsViews = () => [fiveMinuteView(subqueryFold), FLOWS_1H_VIEW()];

const VARIANTS: Variant[] = [
  {
    name: "rowbinary",
    what: "RowBinary written by the threads, FROM INFILE, optimize_on_insert = 0: what the collector now inserts",
    views: () => migratedViews(),
    settings: NO_OPT,
    format: "RowBinary",
  },
  {
    name: "rowbinary-parse-only",
    what: "RowBinary into the Null-engine copy of flows_raw: reading the body, nothing written",
    once: ["CREATE TABLE IF NOT EXISTS flows_raw_null AS flows_raw ENGINE = Null"],
    views: () => [],
    table: "flows_raw_null",
    format: "RowBinary",
  },
  {
    name: "rowbinary-raw-only",
    what: "RowBinary, optimize_on_insert = 0, no views",
    views: () => [],
    settings: NO_OPT,
    format: "RowBinary",
  },
  { name: "as-is", what: "the views as migrated, chInsertRaw (chDB's raw insert), default settings", views: () => migratedViews() },
  {
    name: "client-insert",
    what: "as-is through @clickhouse/client's insert (body → string → statement), the path before chDB's raw insert",
    views: () => migratedViews(),
    viaClient: true,
  },
  { name: "raw-only", what: "no views: parse + write flows_raw only", views: () => [] },
  { name: "5m-only", what: "flows_5m_mv without the 1h cascade", views: () => [migratedViews()[0]] },
  {
    name: "no-fold",
    what: "views without the fold (as columns as they are): the fold's share",
    views: () => [fiveMinuteView((c) => c), FLOWS_1H_VIEW()],
  },
  { name: "subquery", what: "IN (SELECT asn FROM tracked_as) ×4 (the released form)", views: asIsViews },
  {
    name: "has-array",
    what: "one array subquery (WITH … AS tracked), has(tracked, x) ×4",
    views: () => [
      fiveMinuteView((c) => `if(${c} < 0 OR has(tracked, ${c}), ${c}, -101)`, "WITH (SELECT groupArray(asn) FROM tracked_as) AS tracked"),
      FLOWS_1H_VIEW(),
    ],
  },
  {
    name: "set-engine",
    what: "IN tracked_as_set (Set engine table, refilled with tracked_as)",
    once: ["CREATE TABLE IF NOT EXISTS tracked_as_set (asn Int64) ENGINE = Set", "INSERT INTO tracked_as_set SELECT asn FROM tracked_as"],
    views: () => [fiveMinuteView((c) => `if(${c} < 0 OR ${c} IN tracked_as_set, ${c}, -101)`), FLOWS_1H_VIEW()],
  },
  {
    name: "dictionary",
    what: "dictHas over a HASHED dictionary of tracked_as",
    once: [
      `CREATE DICTIONARY IF NOT EXISTS tracked_as_dict (asn Int64, rank UInt16) PRIMARY KEY asn
       SOURCE(CLICKHOUSE(TABLE 'tracked_as')) LIFETIME(MIN 60 MAX 120) LAYOUT(HASHED())`,
    ],
    views: () => [fiveMinuteView((c) => `if(${c} < 0 OR dictHas('tracked_as_dict', toUInt64(${c})), ${c}, -101)`), FLOWS_1H_VIEW()],
  },
  {
    name: "no-parallel-parsing",
    what: "input_format_parallel_parsing = 0",
    views: () => migratedViews(),
    settings: { input_format_parallel_parsing: 0 },
  },
  { name: "insert-threads-2", what: "max_insert_threads = 2", views: () => migratedViews(), settings: { max_insert_threads: "2" } },
  { name: "max-threads-1", what: "max_threads = 1", views: () => migratedViews(), settings: { max_threads: 1 } },
  {
    name: "no-optimize-on-insert",
    what: "optimize_on_insert = 0 (what the collector inserts with)",
    views: () => migratedViews(),
    settings: { optimize_on_insert: 0 },
  },
  {
    name: "one-block",
    what: "one block per insert: min_insert_block_size_rows/bytes, max_block_size, max_insert_block_size 1M",
    views: () => migratedViews(),
    settings: {
      min_insert_block_size_rows: "1000000",
      min_insert_block_size_bytes: "1000000000",
      max_block_size: "1000000",
      max_insert_block_size: "1000000",
    },
  },
  {
    name: "parallel-views",
    what: "parallel_view_processing = 1",
    views: () => migratedViews(),
    settings: { parallel_view_processing: 1 },
  },
  { name: "batch-20k", what: "batches of 20,000 rows", views: () => migratedViews(), batch: 20_000 },
  { name: "batch-100k", what: "batches of 100,000 rows", views: () => migratedViews(), batch: 100_000 },
  { name: "batch-200k", what: "batches of 200,000 rows", views: () => migratedViews(), batch: 200_000 },
  {
    name: "parse-only",
    what: "into a Null-engine copy of flows_raw: parsing the TabSeparated body, nothing written",
    once: ["CREATE TABLE IF NOT EXISTS flows_raw_null AS flows_raw ENGINE = Null"],
    views: () => [],
    table: "flows_raw_null",
  },
  {
    name: "parse-only-200k",
    what: "parse-only, batches of 200,000 rows",
    views: () => [],
    table: "flows_raw_null",
    batch: 200_000,
  },
  {
    name: "parse-only-10k",
    what: "parse-only, batches of 10,000 rows",
    views: () => [],
    table: "flows_raw_null",
    batch: 10_000,
  },
  {
    name: "parse-only-serial",
    what: "parse-only, input_format_parallel_parsing = 0",
    views: () => [],
    table: "flows_raw_null",
    settings: { input_format_parallel_parsing: 0 },
  },
  {
    name: "parse-strings",
    what: "into a Null table of String columns: splitting the text into fields, no conversion",
    once: [`CREATE TABLE IF NOT EXISTS flows_raw_strings (${FLOW_ROW_COLUMNS.map((c) => `${c} String`).join(", ")}) ENGINE = Null`],
    views: () => [],
    table: "flows_raw_strings",
  },
  {
    name: "memory-table",
    what: "into a Memory-engine copy of flows_raw: parsing, no sorting, compression or files",
    once: ["CREATE TABLE IF NOT EXISTS flows_raw_memory AS flows_raw ENGINE = Memory"],
    before: ["TRUNCATE TABLE flows_raw_memory"],
    views: () => [],
    table: "flows_raw_memory",
  },
  {
    name: "opt0-5m-only",
    what: "optimize_on_insert = 0, flows_5m_mv without the 1h cascade",
    views: () => [migratedViews()[0]],
    settings: NO_OPT,
  },
  { name: "opt0-raw-only", what: "optimize_on_insert = 0, no views", views: () => [], settings: NO_OPT },
  {
    name: "opt0-max-threads-1",
    what: "optimize_on_insert = 0, max_threads = 1",
    views: () => migratedViews(),
    settings: { ...NO_OPT, max_threads: 1 },
  },
  {
    name: "opt0-no-parallel-parsing",
    what: "optimize_on_insert = 0, input_format_parallel_parsing = 0",
    views: () => migratedViews(),
    settings: { ...NO_OPT, input_format_parallel_parsing: 0 },
  },
  {
    name: "opt0-batch-100k",
    what: "optimize_on_insert = 0, batches of 100,000 rows",
    views: () => migratedViews(),
    settings: NO_OPT,
    batch: 100_000,
  },
  {
    name: "opt0-compact-parts",
    what: "optimize_on_insert = 0, new parts compact (min_bytes_for_wide_part = 1 GB on the three tables)",
    views: () => migratedViews(),
    settings: NO_OPT,
    before: TABLES.map((t) => `ALTER TABLE ${t} MODIFY SETTING min_bytes_for_wide_part = 1000000000`),
    after: TABLES.map((t) => `ALTER TABLE ${t} RESET SETTING min_bytes_for_wide_part`),
  },
];

/** The views exactly as the migrations create them: the latest 5-minute view (0007 now) and the hourly one. */
function migratedViews(): string[] {
  const fiveMinute = loadMigrations(DEFAULT_LAYOUT)
    .flatMap((m) => m.statements)
    .filter((s) => s.startsWith("CREATE MATERIALIZED VIEW IF NOT EXISTS flows_5m_mv"))
    .at(-1);
  if (!fiveMinute) throw new Error("no migration creates flows_5m_mv");
  return [fiveMinute, FLOWS_1H_VIEW()];
}

/** The same rows in both formats the decoding threads write, in parts of whole rows (one decoded batch each). */
type Rows = { parts: { text: Uint8Array; binary: Uint8Array; rows: number }[]; textBytes: number; binaryBytes: number };

/** `count` rows as the decoding threads write them, TabSeparated and RowBinary, from the same datagrams. */
function makeRows(count: number): Rows {
  const network = syntheticNetwork({ prefixes: Number(process.env.BENCH_COLLECTOR_PREFIXES ?? 100_000) });
  const { rib } = network.buildRib();
  const snapshot = network.snapshot(["192.0.2.1"], rib);
  const text = new DecodeThread(120_000, "TabSeparated");
  const binary = new DecodeThread(120_000, "RowBinary");
  text.useSnapshot(snapshot);
  binary.useSnapshot(snapshot);
  const out: Rows = { parts: [], textBytes: 0, binaryBytes: 0 };
  for (let seq = 0, rows = 0; rows < count; seq++) {
    // Fresh datagrams every time (no pool): as many distinct flows as rows.
    const datagrams = Array.from({ length: 40 }, (_, i) => (i % 2 ? ipfixDatagram : v9Datagram)(network, seq * 40 + i));
    const offsets = [0];
    for (const d of datagrams) offsets.push(offsets[offsets.length - 1] + d.length);
    const buffer = new Uint8Array(offsets[offsets.length - 1]);
    datagrams.forEach((d, i) => buffer.set(d, offsets[i]));
    const arrival = Date.now();
    const batch = { buffer: buffer.buffer, offsets, exporters: datagrams.map(() => "192.0.2.1"), arrivalsMs: datagrams.map(() => arrival) };
    const t = text.decodeBatch(batch);
    const b = binary.decodeBatch(batch);
    if (t.rows !== b.rows) throw new Error(`the two formats hold ${t.rows} and ${b.rows} rows`);
    out.parts.push({ text: t.body, binary: b.body, rows: t.rows });
    out.textBytes += t.body.length;
    out.binaryBytes += b.body.length;
    rows += t.rows;
  }
  return out;
}

async function insertAll(
  ch: ClickhouseHandle,
  rows: Rows,
  batch: number,
  settings?: ClickHouseSettings,
  client?: ClickHouseClient,
  table = "flows_raw",
  format: "TabSeparated" | "RowBinary" = "TabSeparated",
) {
  let inserted = 0;
  for (let i = 0; i < rows.parts.length && inserted < ROWS;) {
    const chunks: Uint8Array[] = [];
    let n = 0;
    for (; i < rows.parts.length && n < batch && inserted + n < ROWS; i++) {
      const part = rows.parts[i];
      chunks.push(format === "RowBinary" ? part.binary : part.text);
      n += part.rows;
    }
    inserted += n;
    if (client) {
      await client.insert({
        table,
        values: Readable.from([Buffer.concat(chunks)], { objectMode: false }),
        format: "TabSeparated",
        columns: [...FLOW_ROW_COLUMNS],
        clickhouse_settings: settings,
      });
      continue;
    }
    await chInsertRaw(ch, { name: "bench.flowsRaw", table, columns: FLOW_ROW_COLUMNS, format, body: chunks, rows: n, settings });
  }
  return inserted;
}

const VIEWS = ["flows_5m_mv", "flows_1h_mv"];

async function setViews(ch: ClickhouseHandle, statements: string[]) {
  for (const view of VIEWS) await chCommand(ch, { name: "bench.dropView", sql: `DROP VIEW IF EXISTS ${view}` });
  for (const sql of statements) await chCommand(ch, { name: "bench.createView", sql });
}

async function truncate(ch: ClickhouseHandle) {
  for (const table of TABLES) await chCommand(ch, { name: "bench.truncate", sql: `TRUNCATE TABLE ${table}` });
}

async function main() {
  const variants = ONLY ? VARIANTS.filter((v) => ONLY.includes(v.name)) : VARIANTS;
  console.log(
    `chDB insert bench (${availableParallelism()} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}): ${grouped(ROWS)} rows in batches of ${grouped(BATCH)}, ${RUNS} runs per variant`,
  );
  const rows = makeRows(ROWS);
  const rowCount = rows.parts.reduce((n, p) => n + p.rows, 0);
  console.log(
    `  rows: ${grouped(ROWS)}, ${(rows.textBytes / rowCount).toFixed(0)} bytes each as TabSeparated, ${(rows.binaryBytes / rowCount).toFixed(0)} as RowBinary`,
  );

  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-bench-chinsert-"));
  // Embedded whatever the environment says: the bench is about chDB.
  const config = parseConfig({ DATA_DIR: dataDir, DEMO_DATA: "off", SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0123" });
  const connection = await openClickhouse(config);
  const ch = openQueryDoor(connection, queryDoorSettings(config), { identify: async () => "bench", databases: async () => NO_OVERRIDE });
  try {
    await migrateClickhouse(ch, DEFAULT_LAYOUT);
    // tracked_as as the collector computes it from these rows (raw table only, so nothing is folded yet).
    await setViews(ch, []);
    await insertAll(ch, rows, BATCH);
    const now = Math.floor(Date.now() / 1000);
    const top = await chQuery(ch, {
      ...topTrafficAsSql({ from: now - 86_400, to: now + 3600, exclude: [OPERATOR_ASN], limit: TRACKED_TOP }),
      schema: z.object({ asn: z.number(), traffic: z.number() }),
    });
    await chInsert(ch, {
      name: "bench.trackedAs",
      table: "tracked_as",
      values: [OPERATOR_ASN, ...top.map((r) => Number(r.asn))].map((asn, rank) => ({ asn, rank, updated_at: now })),
    });
    const [{ distinct }] = await chQuery(ch, {
      name: "bench.distinct",
      sql: "SELECT uniqExact(as_src, as_hnd, as_nxt, as_dst, in_if, out_if) AS distinct FROM flows_raw",
      schema: z.object({ distinct: z.number() }),
    });
    console.log(`  tracked_as: ${top.length + 1} ASes; distinct (AS ×4, in_if, out_if) in the rows: ${grouped(distinct)}`);
    for (const v of variants) for (const sql of v.once ?? []) await chCommand(ch, { name: "bench.once", sql });

    const results = new Map<string, { wall: number[]; cpu: number[]; rows5m: number }>();
    for (let run = 0; run < RUNS; run++) {
      for (const v of variants) {
        await setViews(ch, v.views());
        await truncate(ch);
        for (const sql of v.before ?? []) await chCommand(ch, { name: "bench.before", sql });
        const cpu = cpuSeconds();
        const started = performance.now();
        await insertAll(ch, rows, v.batch ?? BATCH, v.settings, v.viaClient ? connection.writer : undefined, v.table, v.format);
        const wall = (performance.now() - started) / 1000;
        const cpuUsed = cpuSeconds() - cpu;
        for (const sql of v.after ?? []) await chCommand(ch, { name: "bench.after", sql });
        const [{ n }] = await chQuery(ch, {
          name: "bench.count",
          sql: "SELECT count() AS n FROM flows_5m",
          schema: z.object({ n: z.number() }),
        });
        const r = results.get(v.name) ?? { wall: [], cpu: [], rows5m: 0 };
        r.wall.push(wall);
        r.cpu.push(cpuUsed);
        r.rows5m = Number(n);
        results.set(v.name, r);
        process.stdout.write(`  run ${run + 1} ${v.name}: ${grouped(ROWS / wall)} rows/s, ${grouped(ROWS / cpuUsed)} per CPU-s\n`);
      }
    }
    console.log("\n| variant | rows/s (median) | rows per CPU-second (median) | CPU-s per 50k rows | flows_5m rows | what |");
    console.log("|---|---|---|---|---|---|");
    for (const v of variants) {
      const r = results.get(v.name);
      if (!r) continue;
      const cpu = median(r.cpu);
      console.log(
        `| ${v.name} | ${grouped(ROWS / median(r.wall))} | ${grouped(ROWS / cpu)} | ${((cpu / ROWS) * 50_000).toFixed(3)} | ${grouped(r.rows5m)} | ${v.what} |`,
      );
    }
  } finally {
    await connection.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
