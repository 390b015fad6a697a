// Timings of `npm test` (scripts/test.mjs): how long each phase took, which test files are the slowest, and how the
// browser test files are split between the e2e shards so that the shards take about as long as each other.
// Plain Node ESM, like test.mjs; the vitest reporter scripts/test-timings-reporter.mjs writes the per-file timings it reads.

/**
 * @typedef {{ file: string, ms: number, failed?: boolean }} FileTiming   one test file: path relative to the repository
 * @typedef {{ phase: string, files: FileTiming[] }} PhaseTimings         the files one vitest run (or shard) ran
 * @typedef {{ name: string, ms: number, note?: string }} PhaseTime      one step of `npm test`, wall-clock time
 * @typedef {{ total: number, passed: number, failed: number, skipped: number }} Counts
 * @typedef {{ file: string, name: string, state: "failed" | "passed on a retry", retries: number }} NotableTest
 */

/** Milliseconds as "850 ms", "12.3 s" or "4 min 05 s". */
export function formatDuration(ms) {
  if (!Number.isFinite(ms) || ms < 0) return "?";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}

/** A test file's path relative to the repository root (as given when it lies elsewhere). */
function relativePath(filepath, root) {
  const prefix = root.endsWith("/") ? root : `${root}/`;
  return filepath.startsWith(prefix) ? filepath.slice(prefix.length) : filepath;
}

/**
 * Wall-clock time of each vitest file task: importing it (collect), its setup files, and running its tests with their
 * hooks. vitest's JSON report leaves the hooks out (a file's time there is from its first test's start to its last
 * test's end), yet a beforeAll that builds stores or loads the demo is often most of a file's time.
 * @param {Array<{ filepath: string, collectDuration?: number, setupDuration?: number, prepareDuration?: number,
 *   environmentLoad?: number, result?: { duration?: number, state?: string } }>} files
 * @param {string} root  repository root, for relative paths
 * @returns {FileTiming[]}
 */
export function fileTimings(files, root) {
  return files.map((f) => ({
    file: relativePath(f.filepath, root),
    ms: Math.round(
      (f.prepareDuration ?? 0) + (f.environmentLoad ?? 0) + (f.setupDuration ?? 0) + (f.collectDuration ?? 0) + (f.result?.duration ?? 0),
    ),
    ...(f.result?.state === "fail" ? { failed: true } : {}),
  }));
}

/**
 * The tests worth naming after a run: those that failed, and those that passed only on a retry (vitest's `retry`, which
 * the browser tests use under CI: a test that needed one is printed, so a flaky test is seen, not hidden).
 * @param {Array<{ filepath: string, tasks?: any[] }>} files  vitest file tasks
 * @param {string} root  repository root, for relative paths
 * @returns {NotableTest[]}
 */
export function notableTests(files, root) {
  /** @type {NotableTest[]} */
  const out = [];
  const walk = (file, tasks, names) => {
    for (const t of tasks ?? []) {
      const path = [...names, t.name];
      if (t.type === "test") {
        const retries = t.result?.retryCount ?? 0;
        const state = t.result?.state;
        if (state === "fail" || (state === "pass" && retries > 0)) {
          out.push({ file, name: path.join(" > "), state: state === "fail" ? "failed" : "passed on a retry", retries });
        }
      } else walk(file, t.tasks, path);
    }
  };
  for (const f of files) walk(relativePath(f.filepath, root), f.tasks, []);
  return out;
}

/**
 * The lines naming the failed tests and those that passed only on a retry, printed just before the summary line.
 * @param {NotableTest[]} tests
 * @returns {string[]}
 */
export function notableTestLines(tests) {
  const lines = [];
  for (const [state, heading] of [
    ["failed", "Failed tests:"],
    ["passed on a retry", "Tests that passed only on a retry (flaky: they failed once in this run):"],
  ]) {
    const some = tests.filter((t) => t.state === state);
    if (!some.length) continue;
    lines.push(heading);
    for (const t of some)
      lines.push(`  ${t.file} > ${t.name}${t.retries ? ` (${t.retries} ${t.retries === 1 ? "retry" : "retries"})` : ""}`);
  }
  return lines;
}

/**
 * The `limit` slowest files over all phases, slowest first (ties by path, so the list is stable).
 * @param {PhaseTimings[]} phases
 * @returns {Array<FileTiming & { phase: string }>}
 */
export function slowestFiles(phases, limit = 10) {
  return phases
    .flatMap((p) => p.files.map((f) => ({ ...f, phase: p.phase })))
    .sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file))
    .slice(0, limit);
}

/**
 * Test counts of several vitest runs added up (the e2e shards), or null when none reported.
 * @param {Array<Counts | null>} reports
 * @returns {Counts | null}
 */
export function addCounts(reports) {
  const present = reports.filter((r) => r !== null);
  if (!present.length) return null;
  return present.reduce(
    (sum, r) => ({
      total: sum.total + r.total,
      passed: sum.passed + r.passed,
      failed: sum.failed + r.failed,
      skipped: sum.skipped + r.skipped,
    }),
    { total: 0, passed: 0, failed: 0, skipped: 0 },
  );
}

/**
 * The lines `npm test` prints before its summary: each phase's time, then the slowest test files.
 * @param {{ phases: PhaseTime[], files: PhaseTimings[], totalMs: number, limit?: number }} report
 * @returns {string[]}
 */
export function timingReport({ phases, files, totalMs, limit = 10 }) {
  const lines = ["Time by phase (wall clock; a phase run beside another says so):"];
  const width = Math.max(0, ...phases.map((p) => p.name.length));
  for (const p of phases) lines.push(`  ${p.name.padEnd(width)}  ${formatDuration(p.ms).padStart(12)}${p.note ? `  ${p.note}` : ""}`);
  lines.push(`  ${"total".padEnd(width)}  ${formatDuration(totalMs).padStart(12)}`);
  const slowest = slowestFiles(files, limit);
  if (slowest.length) {
    lines.push(`The ${slowest.length} slowest test files (import, hooks and tests):`);
    for (const f of slowest) lines.push(`  ${formatDuration(f.ms).padStart(12)}  ${f.file} (${f.phase})${f.failed ? " FAILED" : ""}`);
  }
  return lines;
}

/**
 * Splits test files into `shards` lists of about equal expected time: the slowest first, each to the list with the least
 * time so far (longest-processing-time first). `weightOf(file)` is the expected time: the file's time in the previous
 * run, or a stand-in such as its size for a file that has none. Lists keep the files' given order, and empty lists are
 * dropped (fewer files than shards).
 * @param {string[]} files
 * @param {number} shards
 * @param {(file: string) => number} weightOf
 * @returns {string[][]}
 */
export function partitionFiles(files, shards, weightOf) {
  const n = Math.max(1, Math.floor(shards));
  const lists = Array.from({ length: n }, () => ({ load: 0, files: /** @type {string[]} */ ([]) }));
  const bySize = files
    .map((file, index) => ({ file, index, weight: weightOf(file) }))
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  const placed = new Map();
  for (const f of bySize) {
    const lightest = lists.reduce((min, l) => (l.load < min.load ? l : min));
    lightest.load += f.weight;
    placed.set(f.file, lightest);
  }
  return lists.map((l) => files.filter((f) => placed.get(f) === l)).filter((l) => l.length);
}

/**
 * Expected time of each file from earlier timings (the last run's), by path; files missing there get `fallback(file)`
 * scaled to the earlier files' time per unit of fallback, so a new file weighs about what its siblings of its size do.
 * @param {FileTiming[]} previous
 * @param {(file: string) => number} fallback
 * @returns {(file: string) => number}
 */
export function expectedTimes(previous, fallback) {
  const known = new Map(previous.map((t) => [t.file, t.ms]));
  const fallbackSum = previous.reduce((s, t) => s + fallback(t.file), 0);
  const knownSum = previous.reduce((s, t) => s + t.ms, 0);
  const scale = fallbackSum > 0 && knownSum > 0 ? knownSum / fallbackSum : 1;
  return (file) => known.get(file) ?? fallback(file) * scale;
}
