/**
 * npm run peeringdb:import -- FILE [FILE …]
 * Replaces the stored PeeringDB data with that of the files: one file holding PeeringDB's objects
 * under their types' keys ({"net": {"data": [...]}, "ix": {...}, …}, a full dump), or PeeringDB's
 * per-object API answers ({"data": [...]}), each named after its type (net.json, ix.json,
 * netixlan.json …). The files are read as streams; one bad object, or a truncated file, and
 * nothing is replaced (the problems name their objects, on stderr). Uses the configured stores
 * (embedded or servers); exit code 1 on any error.
 */
import { createReadStream, statSync } from "node:fs";
import path from "node:path";
import { importPeeringDb, PeeringDbFileError } from "~/features/routing/peeringdb/import.server";
import { StoreUnavailableError } from "~/server/clickhouse.server";
import { ConfigError } from "~/server/env.server";
import { startScriptServices } from "~/server/script-services.server";
import { wireApp } from "~/wiring.server";

const USAGE =
  "usage: npm run peeringdb:import -- FILE [FILE …]   (PeeringDB JSON: a dump, or per-object API answers named net.json, ix.json …)";

class UsageError extends Error {}

function parseArguments(argv: string[]): string[] {
  if (argv.includes("--help") || argv.includes("-h")) throw new UsageError(USAGE);
  const options = argv.filter((a) => a.startsWith("--"));
  if (options.length) throw new UsageError(`unknown option ${options[0]}; ${USAGE}`);
  if (argv.length === 0) throw new UsageError(`no file given; ${USAGE}`);
  for (const file of argv) {
    let isFile = false;
    try {
      isFile = statSync(file).isFile();
    } catch {
      throw new UsageError(`${file}: no such file`);
    }
    if (!isFile) throw new UsageError(`${file}: not a file`);
  }
  return argv;
}

const number = (n: number) => n.toLocaleString("en-US");

async function main(): Promise<number> {
  const files = parseArguments(process.argv.slice(2));
  wireApp();
  const { services } = await startScriptServices();
  try {
    const s = await importPeeringDb(services, {
      sources: files.map((file) => ({ name: path.basename(file), chunks: createReadStream(file, { highWaterMark: 1 << 20 }) })),
      actor: null,
    });
    const counts = Object.entries(s.counts)
      .map(([kind, n]) => `${number(n)} ${kind}`)
      .join(", ");
    console.log(
      `${s.source}: ${counts} stored (${number(s.skipped)} deleted or of other types skipped), replacing ${number(s.replaced)} objects ` +
        `of the previous import; dump of ${s.dumpDate ? s.dumpDate.toISOString() : "an unknown date"}, in ${s.seconds.toFixed(1)} s`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof PeeringDbFileError)) throw error;
    console.error(`${files.map((f) => path.basename(f)).join(", ")} not imported: nothing was changed.`);
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
      console.error(`${error.message}. Stop the server (npm start) first, or run both on PostgreSQL and ClickHouse servers.`);
    } else if (error instanceof UsageError || error instanceof ConfigError || error instanceof StoreUnavailableError) {
      console.error(error.message);
    } else {
      console.error(error);
    }
    process.exit(1);
  },
);
