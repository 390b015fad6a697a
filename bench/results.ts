/**
 * bench/RESULTS.md: one section per bench (its heading, the commit, the machine and its load, the
 * figures), rewritten by that bench's run and left alone by the others, so any change can be
 * compared with the figures before it.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const RESULTS_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "RESULTS.md");

const HEADER = "# Bench results\n\nEach bench rewrites its own section when it runs (method: bench/README.md).\n";

/** Replaces (or appends) the section `## title` of bench/RESULTS.md. */
export function writeResultsSection(title: string, section: { commit: string; machine: string; body: string }, file = RESULTS_FILE) {
  const text = existsSync(file) ? readFileSync(file, "utf8") : HEADER;
  const heading = `## ${title}`;
  const block = `${heading}\n\nCommit ${section.commit}, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC; ${section.machine}.\n\n${section.body.trim()}\n`;
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) {
    writeFileSync(file, `${text.trimEnd()}\n\n${block}`);
    return;
  }
  const next = text.indexOf("\n## ", start + heading.length);
  writeFileSync(file, `${text.slice(0, start)}${block}${next < 0 ? "" : text.slice(next)}`);
}
