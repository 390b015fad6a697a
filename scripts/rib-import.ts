/**
 * npm run rib:import -- --vantage-point KEY FILE…
 * Imports MRT files (TABLE_DUMP_V2 RIB dumps, BGP4MP updates; plain, .gz or .bz2) into the
 * routing tables of the configured stores (embedded or servers) under one vantage point.
 * Progress goes to stderr, one summary line per file to stdout; exit code 1 on any error.
 */
import { createReadStream, statSync } from "node:fs";
import path from "node:path";
import { importMrt, UnknownVantagePointError, type MrtImportSummary } from "~/features/routing/rib-import.server";
import { MrtFormatError } from "~/features/routing/mrt/errors";
import { StoreUnavailableError } from "~/server/clickhouse.server";
import { ConfigError } from "~/server/env.server";
import { startScriptServices } from "~/server/script-services.server";
import { wireApp } from "~/wiring.server";

const USAGE = "usage: npm run rib:import -- --vantage-point KEY FILE…";

class UsageError extends Error {}

function parseArguments(argv: string[]): { vantagePoint: string; files: string[] } {
  let vantagePoint: string | undefined;
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--vantage-point") vantagePoint = argv[++i];
    else if (arg.startsWith("--vantage-point=")) vantagePoint = arg.slice("--vantage-point=".length);
    else if (arg === "--help" || arg === "-h") throw new UsageError(USAGE);
    else if (arg.startsWith("--")) throw new UsageError(`unknown option ${arg}; ${USAGE}`);
    else files.push(arg);
  }
  if (!vantagePoint) throw new UsageError(`--vantage-point is required; ${USAGE}`);
  if (!files.length) throw new UsageError(`no MRT file given; ${USAGE}`);
  return { vantagePoint, files };
}

/** Every file is checked before the stores are opened: a typo should not cost a start-up. */
function checkFiles(files: string[]): void {
  for (const file of files) {
    let isFile = false;
    try {
      isFile = statSync(file).isFile();
    } catch {
      throw new UsageError(`${file}: no such file`);
    }
    if (!isFile) throw new UsageError(`${file}: not a file`);
  }
}

const number = (n: number) => n.toLocaleString("en-US");

function summaryLine(s: MrtImportSummary): string {
  const rows = s.announcements + s.withdrawals;
  const rate = s.seconds > 0 ? Math.round(rows / s.seconds) : rows;
  return (
    `${path.basename(s.fileName)}: ${number(s.records)} records, ${number(s.prefixes)} prefixes, ` +
    `${number(s.announcements)} announcements, ${number(s.withdrawals)} withdrawals, ${number(s.stateChanges)} state changes, ` +
    `${number(s.skipped)} skipped, ${number(s.errors)} errors; ${number(s.rowsWritten)} rows in ${s.seconds.toFixed(1)} s ` +
    `(${number(rate)} entries/s)`
  );
}

async function main(): Promise<number> {
  const { vantagePoint, files } = parseArguments(process.argv.slice(2));
  checkFiles(files);
  wireApp();
  const { services } = await startScriptServices();
  let failed = false;
  try {
    for (const file of files) {
      let lastReport = Date.now();
      let summary: MrtImportSummary;
      try {
        summary = await importMrt(services, {
          vantagePoint,
          source: createReadStream(file),
          fileName: file,
          onProgress: (p) => {
            if (Date.now() - lastReport < 2000) return;
            lastReport = Date.now();
            process.stderr.write(
              `${path.basename(file)}: ${number(p.records)} records, ${number(p.rows)} rows, ${(p.bytesDecoded / 1e6).toFixed(0)} MB decoded\n`,
            );
          },
        });
      } catch (error) {
        // Not MRT at all: this file fails, the others are still imported.
        if (!(error instanceof MrtFormatError)) throw error;
        console.error(`${path.basename(file)}: ${error.message}`);
        failed = true;
        continue;
      }
      console.log(summaryLine(summary));
      if (summary.errors) {
        failed = true;
        for (const message of summary.errorMessages) console.error(`${path.basename(file)}: ${message}`);
        if (summary.stoppedEarly)
          console.error(`${path.basename(file)}: the ${number(summary.records)} complete records before it were imported`);
      }
    }
  } finally {
    await services.close();
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof StoreUnavailableError && /in use by process/.test(error.message)) {
      // The embedded stores belong to one process: the running server holds them.
      console.error(`${error.message}. Stop the server (npm start) first, then import; or run both on PostgreSQL and ClickHouse servers.`);
    } else if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      error instanceof StoreUnavailableError ||
      error instanceof UnknownVantagePointError ||
      error instanceof MrtFormatError
    ) {
      console.error(error.message);
    } else {
      console.error(error);
    }
    process.exit(1);
  },
);
