/**
 * npm run rib:import -- --vantage-point KEY FILE…
 * npm run rib:import -- --new-vantage-point KEY --router NAME [--city C --country C --ip IP --public --description T] FILE…
 * Imports MRT files (TABLE_DUMP_V2 RIB dumps, BGP4MP updates; plain, .gz or .bz2) into the
 * routing tables of the configured stores (embedded or servers) under one vantage point, which the
 * second form adds to the inventory first.
 * Progress goes to stderr, one summary line per file to stdout; exit code 1 on any error.
 */
import { createReadStream, statSync } from "node:fs";
import path from "node:path";
import { importMrt, UnknownVantagePointError, type MrtImportSummary } from "~/features/routing/rib-import.server";
import { MrtFormatError } from "~/features/routing/mrt/errors";
import { createVantagePointOfRouter, InventoryInputError } from "~/features/inventory/inventory.server";
import { StoreUnavailableError } from "~/server/clickhouse.server";
import { ConfigError } from "~/server/env.server";
import { startScriptServices } from "~/server/script-services.server";
import { wireApp } from "~/wiring.server";

const USAGE =
  "usage: npm run rib:import -- --vantage-point KEY FILE…\n" +
  "       npm run rib:import -- --new-vantage-point KEY --router NAME [--city CITY --country COUNTRY --ip ADDRESS --public --description TEXT] FILE…";

class UsageError extends Error {}

/** The options of a vantage point created by the command, in the inventory's field names. */
const NEW_POINT_OPTIONS = {
  "--router": "router",
  "--city": "city",
  "--country": "country",
  "--ip": "ip",
  "--description": "description",
} as const;
type NewPoint = { key: string; router: string; public: boolean } & Partial<Record<"city" | "country" | "ip" | "description", string>>;

function parseArguments(argv: string[]): { vantagePoint: string; newPoint: NewPoint | null; files: string[] } {
  const values: Record<string, string> = {};
  let isPublic = false;
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] =
      arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    if (name === "--help" || name === "-h") throw new UsageError(USAGE);
    else if (name === "--public") isPublic = true;
    else if (name === "--vantage-point" || name === "--new-vantage-point" || name in NEW_POINT_OPTIONS) {
      const value = inline ?? argv[++i];
      if (value === undefined || value.startsWith("--")) throw new UsageError(`${name} needs a value; ${USAGE}`);
      values[name] = value;
    } else if (name.startsWith("--")) throw new UsageError(`unknown option ${name}; ${USAGE}`);
    else files.push(arg);
  }
  const existing = values["--vantage-point"];
  const created = values["--new-vantage-point"];
  if (existing && created) throw new UsageError(`give --vantage-point or --new-vantage-point, not both; ${USAGE}`);
  if (!existing && !created) throw new UsageError(`--vantage-point is required; ${USAGE}`);
  const pointOptions = Object.keys(NEW_POINT_OPTIONS).filter((o) => values[o] !== undefined);
  if (existing && (pointOptions.length || isPublic))
    throw new UsageError(`${pointOptions[0] ?? "--public"} is for --new-vantage-point only; ${USAGE}`);
  if (created && !values["--router"]) throw new UsageError(`--new-vantage-point needs --router NAME; ${USAGE}`);
  if (!files.length) throw new UsageError(`no MRT file given; ${USAGE}`);
  const newPoint: NewPoint | null = created
    ? {
        key: created,
        router: values["--router"],
        public: isPublic,
        ...Object.fromEntries(
          Object.entries(NEW_POINT_OPTIONS).flatMap(([o, field]) => (values[o] !== undefined ? [[field, values[o]]] : [])),
        ),
      }
    : null;
  return { vantagePoint: existing ?? created, newPoint, files };
}

/** Inventory refusals in the command's own terms: `--city: must not be empty`. */
function optionErrors(error: InventoryInputError): string {
  const option = (field: string) =>
    field === "key" ? "--new-vantage-point" : (Object.entries(NEW_POINT_OPTIONS).find(([, f]) => f === field)?.[0] ?? `--${field}`);
  return error.issues.map((i) => `${option(i.path)}: ${i.message}`).join("\n");
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
  const { vantagePoint, newPoint, files } = parseArguments(process.argv.slice(2));
  checkFiles(files);
  wireApp();
  const { services } = await startScriptServices();
  let failed = false;
  try {
    if (newPoint) {
      try {
        await createVantagePointOfRouter(services, newPoint);
      } catch (error) {
        if (error instanceof InventoryInputError) throw new UsageError(optionErrors(error));
        throw error;
      }
      console.log(`vantage point ${newPoint.key} added to the inventory`);
    }
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
