/**
 * The MRT import's figures for bench:routing, each beside the 1-minute load average of its start:
 * decoding alone (file → rows, no store), `bgpdump -m` on the same file, the import into fresh
 * embedded stores with its peak memory, the store's insert ceiling for the same rows, and the whole
 * `npm run rib:import` process (start of the stores included).
 */
import { spawnSync } from "node:child_process";
import { createReadStream, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { decodeMrt } from "~/features/routing/mrt/decoder";
import { MrtFormatError } from "~/features/routing/mrt/errors";
import { ribRecordRows, RIB_COLUMNS, updateRows, type CompactRibRow } from "~/features/routing/mrt/rib-rows";
import { importMrt } from "~/features/routing/rib-import.server";
import { vantagePoints } from "~db/postgres/schema";
import { chInsertRaw } from "~/server/clickhouse/query.server";
import { parseConfig } from "~/server/env.server";
import { startServices, type Services } from "~/server/services.server";
import { wireApp } from "~/wiring.server";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BATCH_ROWS = 50_000;
const MiB = 1024 * 1024;

export const load = () => os.loadavg()[0].toFixed(1);

/** The rows of an MRT file as the import builds them, batch by batch (a cut file's rows before the cut). */
async function forEachBatch(file: string, onBatch: (rows: CompactRibRow[]) => Promise<void> | void): Promise<number> {
  let routerIp = "";
  let batch: CompactRibRow[] = [];
  let rows = 0;
  const add = async (more: CompactRibRow[]) => {
    for (const row of more) batch.push(row);
    if (batch.length >= BATCH_ROWS) {
      rows += batch.length;
      await onBatch(batch);
      batch = [];
    }
  };
  try {
    for await (const record of decodeMrt(createReadStream(file))) {
      if (record.kind === "peer-index") routerIp = record.collectorId;
      else if (record.kind === "rib") await add(ribRecordRows(record, "bench1", routerIp));
      else if (record.kind === "update") await add(updateRows(record, "bench1"));
    }
  } catch (error) {
    if (!(error instanceof MrtFormatError)) throw error;
  }
  if (batch.length) {
    rows += batch.length;
    await onBatch(batch);
  }
  return rows;
}

export type Timed = { rows: number; seconds: number; load: string };

/** Decoding alone: every row built, none encoded or stored. */
export async function decodeOnly(file: string): Promise<Timed & { cpuSeconds: number }> {
  const loadAtStart = load();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const rows = await forEachBatch(file, () => {});
  const used = process.cpuUsage(cpu);
  return { rows, seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6, load: loadAtStart };
}

/** `bgpdump -m FILE` to a pipe (its lines counted), or null when bgpdump is not installed. */
export function bgpdumpTime(file: string): (Timed & { lines: number }) | null {
  const loadAtStart = load();
  const run = spawnSync(
    "bash",
    [
      "-c",
      `command -v bgpdump >/dev/null || exit 127; start=$(date +%s.%N); n=$(bgpdump -m "$1" 2>/dev/null | wc -l); end=$(date +%s.%N); echo "$n $start $end"`,
      "bench",
      file,
    ],
    { encoding: "utf8" },
  );
  if (run.status === 127) return null;
  const [lines, start, end] = run.stdout.trim().split(" ").map(Number);
  return { rows: lines, lines, seconds: end - start, load: loadAtStart };
}

/** importMrt into the stores; peak resident memory above the process's before the import (sampled, and the kernel's maximum). */
export async function importOnce(services: Services, file: string): Promise<Timed & { peakAboveIdleMiB: number; idleMiB: number }> {
  global.gc?.();
  const idle = process.memoryUsage.rss();
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
  const loadAtStart = load();
  try {
    const summary = await importMrt(services, { vantagePoint: "bench1", source: createReadStream(file), fileName: path.basename(file) });
    peak = Math.max(peak, process.memoryUsage.rss(), process.resourceUsage().maxRSS * 1024);
    return {
      rows: summary.rowsWritten,
      seconds: summary.seconds,
      load: loadAtStart,
      peakAboveIdleMiB: (peak - idle) / MiB,
      idleMiB: idle / MiB,
    };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * The store's own ceiling for these rows: each batch encoded first (untimed) as the import encodes
 * it, then inserted with chInsertRaw as the import inserts it; only the inserts are timed.
 */
export async function insertCeiling(services: Services, file: string): Promise<Timed> {
  const loadAtStart = load();
  let seconds = 0;
  const rows = await forEachBatch(file, async (batch) => {
    const body = Buffer.from(batch.map((row) => JSON.stringify(row) + "\n").join(""));
    const started = performance.now();
    await chInsertRaw(services.ch, {
      name: "bench.ribCeiling",
      table: "rib_entries",
      body,
      rows: batch.length,
      format: "JSONCompactEachRow",
      columns: RIB_COLUMNS,
    });
    seconds += (performance.now() - started) / 1000;
  });
  return { rows, seconds, load: loadAtStart };
}

/** `npm run rib:import` as an operator runs it, a fresh DATA_DIR: wall time of the whole process. */
export function wholeProcessImport(file: string): Timed & { ok: boolean } {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "flowlens-bench-rib-cli-"));
  const loadAtStart = load();
  const started = performance.now();
  try {
    const run = spawnSync(
      path.join(ROOT, "node_modules", ".bin", "tsx"),
      [
        path.join(ROOT, "scripts", "rib-import.ts"),
        "--new-vantage-point",
        "bench1",
        "--router",
        "bench-r1",
        "--city",
        "Frankfurt",
        "--country",
        "Germany",
        "--ip",
        "192.0.2.250",
        file,
      ],
      { cwd: ROOT, encoding: "utf8", env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", CLICKHOUSE_URL: "", DEMO_DATA: "off" } },
    );
    const rows = Number(/; ([\d,]+) rows in/.exec(run.stdout)?.[1]?.replace(/,/g, "") ?? 0);
    return { rows, seconds: (performance.now() - started) / 1000, load: loadAtStart, ok: rows > 0 };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Fresh embedded stores in a temporary directory with the bench vantage point; `dispose` removes them. */
export async function freshStores(): Promise<{ services: Services; dispose: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "flowlens-bench-mrt-"));
  const config = parseConfig({ ...process.env, DATA_DIR: dir, DATABASE_URL: "", CLICKHOUSE_URL: "", DEMO_DATA: "off" });
  wireApp();
  const services = await startServices(config, { loadDemo: false });
  await services.pg.db
    .insert(vantagePoints)
    .values({ key: "bench1", city: "Frankfurt", country: "Germany", router: "bench-r1", ip: "192.0.2.250", isPublic: false });
  return {
    services,
    dispose: async () => {
      await services.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** npx tsx bench/mrt-import.ts FILE [decode,bgpdump,import,ceiling,cli]: the chosen figures of one file as JSON lines. */
async function main(file: string, steps: string[]) {
  const print = (step: string, figures: object | null) => console.log(JSON.stringify({ step, ...figures }));
  for (const step of steps) {
    if (step === "decode") print(step, await decodeOnly(file));
    else if (step === "bgpdump") print(step, bgpdumpTime(file));
    else if (step === "cli") print(step, wholeProcessImport(file));
    else if (step === "import" || step === "ceiling") {
      const stores = await freshStores();
      try {
        print(step, step === "import" ? await importOnce(stores.services, file) : await insertCeiling(stores.services, file));
      } finally {
        await stores.dispose();
      }
    } else throw new Error(`unknown step ${step}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv[2], (process.argv[3] ?? "decode,bgpdump,import,ceiling,cli").split(",")).then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
