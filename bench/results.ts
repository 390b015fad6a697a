/**
 * bench/RESULTS.md: one section per bench, replaced by that bench's next run, so any change can be
 * compared with the figures of the commit before it. Each section says the commit, the machine and
 * its load average; the bench writes its figures below.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { format } from "node:util";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const RESULTS_FILE = path.join(ROOT, "bench", "RESULTS.md");

const HEADER = [
  "# Bench results",
  "",
  "Written by the benches (one section each, replaced by the bench's next run); the method of each is in",
  "[README.md](README.md). Figures of a shared machine: compare runs of the same machine and load.",
  "",
].join("\n");

/** The checkout's commit, "+ changes" when the work tree differs from it. */
export function commitOf(dir = ROOT): string {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return dirty ? `${commit} + uncommitted changes` : commit;
  } catch {
    return "unknown (not a git checkout)";
  }
}

export function machineOf(): string {
  const model = (os.cpus()[0]?.model ?? "unknown CPU")
    .replace(/\((R|TM)\)/gi, "")
    .replace(/\s+/g, " ")
    .trim();
  return `${os.cpus().length} × ${model}, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");

/**
 * Writes the section `title` (a "## " heading) of RESULTS.md: the date, commit, machine, the load
 * averages given (e.g. before and after the run) and `body`. Other sections stay as they are.
 */
export function writeResultsSection(title: string, meta: { commit: string; load: string }, body: string): void {
  const heading = `## ${title}`;
  const section = [
    heading,
    "",
    `- date: ${new Date().toISOString().slice(0, 16).replace("T", " ")}Z`,
    `- commit: ${meta.commit}`,
    `- machine: ${machineOf()}`,
    `- load average (1 / 5 / 15 min): ${meta.load}`,
    "",
    body.trimEnd(),
    "",
  ].join("\n");
  const text = existsSync(RESULTS_FILE) ? readFileSync(RESULTS_FILE, "utf8") : HEADER;
  const start = text.indexOf(`\n${heading}\n`);
  let next: string;
  if (start < 0) next = `${text.trimEnd()}\n\n${section}`;
  else {
    const after = text.indexOf("\n## ", start + 1);
    next = `${text.slice(0, start + 1)}${section}${after < 0 ? "" : `\n${text.slice(after + 1)}`}`;
  }
  writeFileSync(RESULTS_FILE, next.endsWith("\n") ? next : `${next}\n`);
}

/**
 * For a bench that prints its figures as it goes: everything it prints with console.log from now on
 * is also kept, and `finish()` writes it as the section `title`, verbatim in a code block (the
 * benches print aligned text tables). A bench that fails calls no `finish()`, so the last good figures
 * stay in RESULTS.md.
 */
export function recordBenchOutput(title: string, dir = ROOT): { finish: () => void } {
  const loadBefore = loadAverage();
  const lines: string[] = [];
  const print = console.log;
  console.log = (...args: unknown[]) => {
    print(...args);
    lines.push(...format(...args).split("\n"));
  };
  return {
    finish() {
      console.log = print;
      const body = ["```", ...lines.map((line) => line.replace(/\s+$/, "")), "```"].join("\n");
      writeResultsSection(title, { commit: commitOf(dir), load: `${loadBefore} before, ${loadAverage()} after` }, body);
    },
  };
}
