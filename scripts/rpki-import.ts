/**
 * npm run rpki:import -- FILE
 * Replaces the VRPs of route origin validation's file source with those of FILE: the JSON of
 * rpki-client (-j) or Routinator (--format json/jsonext), or the CSV of Routinator or the RIPE
 * validator (ASN,IP Prefix,Max Length,Trust Anchor). The whole file is checked first; one bad
 * entry and nothing is replaced (the problems name their entries or lines, on stderr). The RTR
 * cache's VRPs are not touched. Uses the configured stores (embedded or servers); exit code 1 on
 * any error.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { importRoaFile, MAX_ROA_FILE_BYTES, RoaFileError } from "~/features/routing/rpki/roa-import.server";
import { StoreUnavailableError } from "~/server/clickhouse.server";
import { ConfigError } from "~/server/env.server";
import { startScriptServices } from "~/server/script-services.server";
import { wireApp } from "~/wiring.server";

const USAGE = "usage: npm run rpki:import -- FILE   (rpki-client or Routinator JSON, Routinator or RIPE validator CSV)";

class UsageError extends Error {}

function parseArguments(argv: string[]): string {
  if (argv.includes("--help") || argv.includes("-h")) throw new UsageError(USAGE);
  const options = argv.filter((a) => a.startsWith("--"));
  if (options.length) throw new UsageError(`unknown option ${options[0]}; ${USAGE}`);
  if (argv.length !== 1) throw new UsageError(argv.length ? `one file at a time; ${USAGE}` : `no file given; ${USAGE}`);
  const file = argv[0];
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new UsageError(`${file}: not a file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${file}: no such file`);
  }
  if (size > MAX_ROA_FILE_BYTES) throw new UsageError(`${file}: larger than ${MAX_ROA_FILE_BYTES / 1024 / 1024} MB`);
  return file;
}

const number = (n: number) => n.toLocaleString("en-US");

async function main(): Promise<number> {
  const file = parseArguments(process.argv.slice(2));
  const bytes = readFileSync(file);
  wireApp();
  const { services } = await startScriptServices();
  try {
    const s = await importRoaFile(services, { bytes, fileName: path.basename(file), actor: null });
    console.log(
      `${s.fileName}: ${s.formatLabel}, ${number(s.entries)} entries, ${number(s.vrps)} VRPs stored ` +
        `(${number(s.ipv4)} IPv4, ${number(s.ipv6)} IPv6; ${number(s.duplicates)} repeated entries), ` +
        `replacing ${number(s.replaced)} of the previous file, in ${s.seconds.toFixed(1)} s`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof RoaFileError)) throw error;
    console.error(`${path.basename(file)} was not imported: nothing was changed.`);
    for (const problem of error.problems) console.error(problem);
    const more = error.problemCount - error.problems.length;
    if (more > 0) console.error(`… and ${number(more)} more.`);
    return 1;
  } finally {
    await services.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof StoreUnavailableError && /in use by process/.test(error.message)) {
      // The embedded stores belong to one process: the running server holds them.
      console.error(
        `${error.message}. Stop the server (npm start) first, or upload the file at Site settings › Routing data; or run both on PostgreSQL and ClickHouse servers.`,
      );
    } else if (error instanceof UsageError || error instanceof ConfigError || error instanceof StoreUnavailableError) {
      console.error(error.message);
    } else {
      console.error(error);
    }
    process.exit(1);
  },
);
