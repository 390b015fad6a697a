/**
 * A generated TABLE_DUMP_V2 RIB dump for bench:routing, bzip2-compressed as route collectors publish
 * them: BENCH_MRT_PREFIXES prefixes (default 1,000,000) × BENCH_MRT_PEERS peers (default 8) with
 * 4-byte ASNs, communities and large communities (syntheticRibSlice of tests/fixtures/mrt.ts, the
 * tests' own MRT encoders). Written once to <BENCH_DATA_DIR>/mrt/ and reused while its name (the
 * sizes) matches; never part of the repository.
 *
 *   npx tsx bench/mrt-generator.ts   # writes the file and prints its path
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { syntheticRibSlice, type SyntheticRibOptions } from "../tests/fixtures/mrt";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Prefixes encoded per write: a few MB, so bzip2 keeps working while the next slice is made. */
const SLICE = 5_000;

export function generatedDumpOptions(): Omit<SyntheticRibOptions, "from"> {
  return { prefixes: Number(process.env.BENCH_MRT_PREFIXES ?? 1_000_000), peers: Number(process.env.BENCH_MRT_PEERS ?? 8) };
}

/** The path of the generated dump, made first when it is not there yet (minutes for the default size). */
export async function generatedDump(options = generatedDumpOptions(), log: (line: string) => void = console.log): Promise<string> {
  const dir = path.resolve(ROOT, process.env.BENCH_DATA_DIR?.trim() || "data-bench", "mrt");
  const file = path.join(dir, `synthetic-rib.${options.prefixes}x${options.peers}.bz2`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const partial = `${file}.partial`;
  log(`  generating ${options.prefixes.toLocaleString("en-US")} prefixes × ${options.peers} peers → ${file} …`);
  const started = performance.now();
  const bzip2 = spawn("bzip2", ["-c"], { stdio: ["pipe", openSync(partial, "w"), "inherit"] });
  const exited = new Promise<number | null>((resolve, reject) => {
    bzip2.on("error", reject);
    bzip2.on("close", resolve);
  });
  for (let from = 0; from < options.prefixes; from += SLICE) {
    const slice = syntheticRibSlice({ ...options, from }, SLICE);
    if (!bzip2.stdin.write(slice)) await new Promise((resolve) => bzip2.stdin.once("drain", resolve));
  }
  bzip2.stdin.end();
  const code = await exited;
  if (code !== 0) throw new Error(`bzip2 exited with ${code} while writing ${partial}`);
  renameSync(partial, file);
  log(`  generated in ${((performance.now() - started) / 1000).toFixed(0)} s (${statSync(file).size.toLocaleString("en-US")} B)`);
  return file;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  generatedDump().then(
    (file) => console.log(file),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
