#!/usr/bin/env node
// `npm test`: the whole flowlens test suite.
//
//   1. makes sure a Chromium for the browser tests exists (installs Debian's chromium when root + apt-get),
//   2. makes sure ping/traceroute exist (installs them when root + apt-get; only warns otherwise), and Debian's
//      snmpd for the SNMP poller's tests (installed likewise; without it those tests skip, and fail in CI),
//   3. chooses the stores: throwaway PostgreSQL databases when TEST_DATABASE_URL / DATABASE_URL / CI is set (one for
//      the unit tests, one per e2e shard), otherwise embedded PGlite; ClickHouse is always embedded chDB,
//   4. runs vitest (unit + integration, vite.config.ts, TEST_WORKERS worker processes) and, beside it,
//      the linter (`npm run lint`: eslint with the layering rules, prettier's check; offline), then the build
//      (remix vite:build, its output in test-results/build.log),
//   5. runs the end-to-end browser tests (vitest.e2e.config.ts) against the built app in E2E_SHARDS shards at the same
//      time (default 2), each with an app server, DATA_DIR and database of its own, files split by the last run's times,
//   6. drops the throwaway databases, prints each phase's time and the slowest test files, then a one-line summary.
//
// Flags: --unit-only (step 4 without the build: no e2e, no browser needed), --e2e-only (no unit tests, no lint),
// --skip-build.
// Plain Node ESM on purpose: it must run before anything is built or transpiled.

import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { addCounts, expectedTimes, formatDuration, notableTestLines, partitionFiles, timingReport } from "./test-timing.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);

const argv = process.argv.slice(2);
const flags = {
  unitOnly: argv.includes("--unit-only"),
  e2eOnly: argv.includes("--e2e-only"),
  skipBuild: argv.includes("--skip-build"),
};
const known = new Set(["--unit-only", "--e2e-only", "--skip-build"]);
for (const a of argv) {
  if (!known.has(a)) {
    console.error(`scripts/test.mjs: unknown argument ${a} (known: ${[...known].join(", ")})`);
    process.exit(2);
  }
}
if (flags.unitOnly && flags.e2eOnly) {
  console.error("scripts/test.mjs: --unit-only and --e2e-only exclude each other");
  process.exit(2);
}

const runUnit = !flags.e2eOnly;
const runE2e = !flags.unitOnly;
const runBuild = runE2e && !flags.skipBuild;

const VITEST = path.join(root, "node_modules/vitest/vitest.mjs");
const ESLINT = path.join(root, "node_modules/eslint/bin/eslint.js");
const PRETTIER = path.join(root, "node_modules/prettier/bin/prettier.cjs");
/** What prettier formats (package.json's "format" script names the same set). */
const PRETTIER_FILES = [
  "--log-level=warn",
  "app/**/*.{ts,tsx}",
  "db/**/*.ts",
  "scripts/**/*.{ts,mjs}",
  "tests/**/*.{ts,tsx}",
  "bench/**/*.ts",
  "*.{ts,mjs,js}",
];
const REMIX_CLI = path.join(root, "node_modules/@remix-run/dev/dist/cli.js");
const RESULTS_DIR = path.join(root, "test-results");
const UNIT_JSON = path.join(RESULTS_DIR, "unit.json");
const E2E_JSON = path.join(RESULTS_DIR, "e2e.json");
const UNIT_TIMINGS = path.join(RESULTS_DIR, "timings-unit.json");
const BUILD_LOG = path.join(RESULTS_DIR, "build.log");
const TIMINGS_REPORTER = path.join(root, "scripts/test-timings-reporter.mjs");

const log = (msg) => console.log(`[test] ${msg}`);
const warn = (msg) => console.warn(`[test] WARNING: ${msg}`);
const isTruthy = (v) => !!v && !["0", "false", "no", "off"].includes(String(v).trim().toLowerCase());
const isCI = isTruthy(process.env.CI);

// ---------------------------------------------------------------------------------------------------------------
// Child processes and cleanup (the throwaway databases must be dropped on failure and on Ctrl-C too)

const childEnv = { ...process.env };
/** The steps running right now (the build and the lint run beside the unit tests, the e2e shards beside each other). */
const runningChildren = new Set();
const cleanups = [];
let cleaningUp = null;

function runCleanups() {
  if (!cleaningUp) {
    cleaningUp = (async () => {
      for (const fn of cleanups.reverse()) {
        try {
          await fn();
        } catch (err) {
          warn(`cleanup failed: ${err?.message ?? err}`);
        }
      }
    })();
  }
  return cleaningUp;
}

let interrupted = false;

/** Signals a child's whole process group (each step runs in its own group: vitest, the app server it starts, Chromium). */
function killGroup(child, sig) {
  try {
    process.kill(-child.pid, sig);
    return true;
  } catch {
    return false; // ESRCH: the group is gone
  }
}

const groupAlive = (pid) => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => {
    if (interrupted) {
      // second Ctrl-C: stop waiting for a graceful shutdown
      for (const child of runningChildren) killGroup(child, "SIGKILL");
      return;
    }
    interrupted = true;
    console.error(`\n[test] ${sig} received: stopping and cleaning up...`);
    for (const child of runningChildren) {
      killGroup(child, sig);
      setTimeout(() => killGroup(child, "SIGKILL"), 20_000).unref();
    }
    // main() notices `interrupted` once the running steps have exited, then drops the throwaway databases.
    // Safety net should something hang:
    setTimeout(() => {
      console.error("[test] cleanup took too long: exiting");
      process.exit(130);
    }, 90_000).unref();
  });
}

/**
 * After a step: processes it left behind in its group (e.g. an app server whose vitest died) get SIGTERM, then SIGKILL.
 * Short-lived helpers (esbuild's service, vitest's fork workers) exit on their own within a moment: wait for them first.
 */
async function reapGroup(pid, what) {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  for (let i = 0; i < 25 && groupAlive(pid); i++) await sleep(200);
  if (!groupAlive(pid)) return;
  const ps = spawnSync("ps", ["-o", "pid=,args=", "-g", String(pid)], { encoding: "utf8" });
  const list =
    ps.status === 0
      ? ps.stdout
          .trim()
          .split("\n")
          .map((l) => `\n    ${l.trim().slice(0, 200)}`)
          .join("")
      : "";
  warn(`${what} left processes behind; stopping them:${list}`);
  killGroup({ pid }, "SIGTERM");
  for (let i = 0; i < 30 && groupAlive(pid); i++) await sleep(500);
  if (groupAlive(pid)) killGroup({ pid }, "SIGKILL");
}

/**
 * Copies a child's output line by line, each line prefixed (steps that run at the same time stay readable), or into a
 * log file when `logFile` is given (the build's hundreds of lines; its tail is printed when it fails).
 */
function forwardOutput(child, { prefix, logFile }) {
  const log = logFile ? fs.createWriteStream(logFile) : null;
  const ended = [];
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    let buf = "";
    stream.setEncoding("utf8");
    const write = (line) => (log ? log.write(line + "\n") : out.write(`${prefix}${line}\n`));
    stream.on("data", (chunk) => {
      buf += chunk;
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        write(buf.slice(0, i).replace(/\r$/, ""));
        buf = buf.slice(i + 1);
      }
    });
    ended.push(new Promise((resolve) => stream.on("close", resolve)).then(() => buf && write(buf)));
  }
  // After the exit: the rest of the output, unless a process the step left behind still holds the pipe.
  return async () => {
    await Promise.race([Promise.all(ended), new Promise((r) => setTimeout(r, 5_000).unref())]);
    if (log) await new Promise((resolve) => log.end(resolve));
  };
}

/** The last `lines` lines of a log file, indented, for the report of a failed step. */
function tailOf(file, lines = 40) {
  try {
    return fs
      .readFileSync(file, "utf8")
      .trimEnd()
      .split("\n")
      .slice(-lines)
      .map((l) => `    ${l}`)
      .join("\n");
  } catch {
    return "    (no log)";
  }
}

/**
 * Runs a command in its own process group (so a Ctrl-C or a crash never leaves its app server or browser running);
 * resolves to its exit code (killed by a signal => 1, interrupted => 130). Output: inherited, or with `prefix` each line
 * prefixed, or with `logFile` written there. `name` names the step in warnings.
 */
function run(cmd, args, { env = childEnv, name = path.basename(cmd), prefix, logFile } = {}) {
  return new Promise((resolve) => {
    if (interrupted) return resolve(130);
    const piped = prefix !== undefined || logFile !== undefined;
    const child = spawn(cmd, args, { stdio: piped ? ["ignore", "pipe", "pipe"] : "inherit", env, detached: true });
    const outputDone = piped ? forwardOutput(child, { prefix: prefix ?? "", logFile }) : () => Promise.resolve();
    runningChildren.add(child);
    child.on("error", (err) => {
      console.error(`[test] could not start ${cmd}: ${err.message}`);
      runningChildren.delete(child);
      resolve(127);
    });
    child.on("exit", async (code, signal) => {
      await reapGroup(child.pid, name);
      await outputDone();
      runningChildren.delete(child);
      resolve(interrupted ? 130 : (code ?? (signal ? 1 : 0)));
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// System tools (Chromium, ping, traceroute)

function isExecutable(p) {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function which(name) {
  const dirs = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  for (const extra of ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]) {
    if (!dirs.includes(extra)) dirs.push(extra);
  }
  for (const d of dirs) {
    const p = path.join(d, name);
    if (isExecutable(p)) return p;
  }
  return null;
}

const canApt = () => typeof process.getuid === "function" && process.getuid() === 0 && !!which("apt-get");
let aptUpdated = false;

/** apt-get install (as root), with one apt-get update per run. Returns true on success. */
function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  if (!aptUpdated) {
    log("apt-get update");
    const u = spawnSync("apt-get", ["update"], { stdio: "inherit", env });
    if (u.status !== 0) {
      warn(`apt-get update failed (exit ${u.status ?? u.signal})`);
      return false;
    }
    aptUpdated = true;
  }
  log(`apt-get install -y --no-install-recommends ${packages.join(" ")}`);
  const started = Date.now();
  const r = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", ...packages], { stdio: "inherit", env });
  log(`apt-get install ${packages.join(" ")} ${r.status === 0 ? "done" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return r.status === 0;
}

const CHROME_CANDIDATES = ["/usr/bin/chromium", "/usr/lib/chromium/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

function findChrome() {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (isExecutable(fromEnv)) return fromEnv;
    warn(`CHROME_PATH=${fromEnv} is not an executable file; looking elsewhere`);
  }
  return CHROME_CANDIDATES.find(isExecutable) ?? null;
}

function ensureChrome() {
  let chrome = findChrome();
  if (!chrome && canApt()) {
    log("Chromium not found: installing Debian's chromium (needed for the browser tests)");
    aptInstall(["chromium", "fonts-liberation"]);
    chrome = findChrome();
  }
  if (!chrome) {
    console.error(
      "[test] Browser tests need Chromium: install Debian's chromium (apt-get install chromium) or set CHROME_PATH" +
        " (looked at " +
        ["$CHROME_PATH", ...CHROME_CANDIDATES].join(", ") +
        ")",
    );
    return null;
  }
  return chrome;
}

function ensureNetTools() {
  const wanted = [
    { bin: "ping", pkg: "iputils-ping" },
    { bin: "traceroute", pkg: "traceroute" },
  ];
  let missing = wanted.filter((t) => !which(t.bin));
  if (missing.length && canApt()) {
    log(`${missing.map((t) => t.bin).join(" and ")} not found: installing ${missing.map((t) => t.pkg).join(" ")}`);
    aptInstall(missing.map((t) => t.pkg));
    missing = wanted.filter((t) => !which(t.bin));
  }
  for (const t of missing) {
    warn(`${t.bin} is not installed and could not be installed (Debian package ${t.pkg}); features that use it will not work in tests`);
  }
}

/** The SNMP poller's tests start a real snmpd (tests/helpers/snmpd.ts); they skip without it, except in CI. */
function ensureSnmpd() {
  const found = () => which("snmpd");
  if (!found() && canApt()) {
    log("snmpd not found: installing Debian's snmpd (needed for the SNMP poller tests)");
    aptInstall(["snmpd"]);
  }
  if (!found())
    warn("snmpd is not installed and could not be installed (Debian package snmpd): the SNMP poller tests skip (and fail in CI)");
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL throwaway databases

let postgresLib = null;
async function pg() {
  postgresLib ??= (await import("postgres")).default;
  return postgresLib;
}

function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "<unparseable URL>";
  }
}

function withDatabase(url, dbName) {
  const u = new URL(url);
  u.pathname = "/" + dbName;
  return u.toString();
}

function hostOf(url) {
  try {
    const u = new URL(url);
    return `${u.hostname || "localhost"}:${u.port || 5432}`;
  } catch {
    return "?";
  }
}

async function connectAdmin(url) {
  const postgres = await pg();
  const sql = postgres(url, { max: 1, connect_timeout: 10, idle_timeout: 5, onnotice: () => {} });
  try {
    await sql`select 1`;
    return sql;
  } catch (err) {
    await sql.end({ timeout: 1 }).catch(() => {});
    throw err;
  }
}

/** Returns { url, sql } for a reachable admin connection, or throws with a list of what was tried. */
async function chooseAdmin() {
  const explicit = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  const candidates = explicit ? [explicit] : isCI ? ["postgres://postgres@127.0.0.1:5432/test", "postgres://root@127.0.0.1:5432/test"] : [];
  if (!candidates.length) return null;
  const errors = [];
  for (const url of candidates) {
    try {
      return { url, sql: await connectAdmin(url) };
    } catch (err) {
      errors.push(`${redact(url)}: ${err?.message ?? err}`);
    }
  }
  const source = explicit ? (process.env.TEST_DATABASE_URL ? "TEST_DATABASE_URL" : "DATABASE_URL") : "CI is set";
  throw new Error(
    `PostgreSQL is unreachable (${source}${isCI ? "; CI must run the tests against a real PostgreSQL" : ""}).\n` +
      errors.map((e) => `  - ${e}`).join("\n"),
  );
}

const createdDbs = [];

async function createThrowawayDb(adminUrl, suffix = "") {
  const name = `flowlens_test_${Date.now()}_${randomBytes(4).toString("hex")}${suffix}`;
  const sql = await connectAdmin(adminUrl);
  try {
    await sql.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await sql.end({ timeout: 5 }).catch(() => {});
  }
  createdDbs.push(name);
  return { name, url: withDatabase(adminUrl, name) };
}

async function dropThrowawayDbs(adminUrl) {
  if (!createdDbs.length) return;
  const sql = await connectAdmin(adminUrl);
  try {
    for (const name of [...createdDbs]) {
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } catch (err) {
        // PostgreSQL < 13 has no WITH (FORCE): terminate the sessions, then drop.
        await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid()`;
        await sql.unsafe(`DROP DATABASE IF EXISTS "${name}"`);
      }
      createdDbs.splice(createdDbs.indexOf(name), 1);
      log(`dropped throwaway database ${name}`);
    }
  } finally {
    await sql.end({ timeout: 5 }).catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Vitest JSON reports

function readReport(file) {
  try {
    const r = JSON.parse(fs.readFileSync(file, "utf8"));
    return {
      total: r.numTotalTests ?? 0,
      passed: r.numPassedTests ?? 0,
      failed: r.numFailedTests ?? 0,
      skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
      success: r.success,
    };
  } catch {
    return null;
  }
}

const rmReport = (file) => fs.rmSync(file, { force: true });

// ---------------------------------------------------------------------------------------------------------------

/** Test files of the e2e config (vitest.e2e.config.ts includes every tests/e2e file ending in .e2e.ts), repository-relative. */
function e2eFiles() {
  return fs
    .readdirSync(path.join(root, "tests/e2e"), { recursive: true })
    .map((f) => path.join("tests/e2e", String(f)).split(path.sep).join("/"))
    .filter((f) => f.endsWith(".e2e.ts"))
    .sort();
}

const readTimingsField = (file, field) => {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"))[field] ?? [];
  } catch {
    return [];
  }
};
const readTimings = (file) => readTimingsField(file, "files");
/** The failed tests and those that passed only on a retry, as the timings reporter wrote them. */
const readNotableTests = (file) => readTimingsField(file, "tests");
const sizeOf = (file) => {
  try {
    return fs.statSync(path.join(root, file)).size;
  } catch {
    return 0;
  }
};
const e2eTimingFiles = () =>
  fs.existsSync(RESULTS_DIR)
    ? fs
        .readdirSync(RESULTS_DIR)
        .filter((f) => /^timings-e2e-\d+\.json$/.test(f))
        .map((f) => path.join(RESULTS_DIR, f))
    : [];

/** The e2e files split into `shards` lists of about equal time: the last run's timings, else the files' sizes. */
function planE2eShards(shards) {
  const previous = e2eTimingFiles().flatMap(readTimings);
  const lists = partitionFiles(e2eFiles(), shards, expectedTimes(previous, sizeOf));
  log(`e2e: ${lists.length} shard${lists.length > 1 ? "s" : ""} by ${previous.length ? "the last run's file times" : "file size"}`);
  return lists;
}

/** How many e2e shards (app server + browser each) run at the same time: E2E_SHARDS, default 2; 1 with E2E_BASE_URL. */
function e2eShardCount() {
  if (process.env.E2E_BASE_URL) {
    // One server for all: its files must run one after another, as in one shard.
    log("E2E_BASE_URL is set: the browser tests run in one shard against that server");
    return 1;
  }
  const raw = process.env.E2E_SHARDS;
  if (raw === undefined || raw === "") return 2;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    warn(`E2E_SHARDS=${raw} is not a whole number of 1 or more: using 2`);
    return 2;
  }
  return n;
}

/** Runs `fn` and records its wall-clock time as a phase of the timing report (listed in the order the phases started). */
async function timed(phases, name, fn, note) {
  const phase = { name, ms: 0 };
  phases.push(phase);
  const started = Date.now();
  try {
    return await fn();
  } finally {
    phase.ms = Date.now() - started;
    phase.note = typeof note === "function" ? note() : note;
  }
}

const filesCount = (n) => `${n} file${n === 1 ? "" : "s"}`;

async function main() {
  const startedAt = Date.now();
  const summary = { lint: "skipped", unit: "skipped", build: "skipped", e2e: "skipped" };
  const phases = [];
  let unitCounts = null;
  let e2eCounts = null;
  const shardCount = runE2e ? e2eShardCount() : 0;
  const shards = runE2e ? planE2eShards(shardCount) : [];

  const setupDone = await timed(phases, "setup", async () => {
    // a. Browser
    if (runE2e) {
      const chrome = ensureChrome();
      if (!chrome) return false;
      childEnv.CHROME_PATH = chrome;
      log(`browser: ${chrome}`);
    }
    // b. ping / traceroute (warn only), snmpd for the SNMP poller's tests
    ensureNetTools();
    if (runUnit) ensureSnmpd();
    return true;
  });
  if (!setupDone) return 1;

  // c. PostgreSQL
  let admin;
  try {
    admin = await chooseAdmin();
  } catch (err) {
    console.error(`[test] ${err.message}`);
    return 1;
  }
  let storesLine;
  if (admin) {
    await admin.sql.end({ timeout: 5 }).catch(() => {});
    cleanups.push(() => dropThrowawayDbs(admin.url));
    const dbs = [];
    try {
      if (runUnit) {
        const unitDb = await createThrowawayDb(admin.url);
        dbs.push({ purpose: "unit/integration", ...unitDb });
      }
      // Each e2e shard's server gets its own fresh database (like its fresh DATA_DIR): no leftovers from the unit tests
      // or from the other shard.
      for (let i = 1; i <= shards.length; i++) {
        const e2eDb = await createThrowawayDb(admin.url, `_e2e${i}`);
        dbs.push({ purpose: `e2e ${i}`, ...e2eDb });
      }
    } catch (err) {
      console.error(`[test] could not create a throwaway database on ${redact(admin.url)}: ${err?.message ?? err}`);
      return 1;
    }
    admin.dbs = dbs;
    storesLine =
      `PostgreSQL ${hostOf(admin.url)} throwaway database${dbs.length > 1 ? "s" : ""} ` +
      dbs.map((d) => `${d.name} (${d.purpose})`).join(", ");
  } else {
    delete childEnv.DATABASE_URL;
    log("no TEST_DATABASE_URL/DATABASE_URL and not CI: DATABASE_URL stays unset, tests use embedded PGlite");
    storesLine = "PostgreSQL: embedded PGlite";
  }
  // d. Stores
  log(`stores: ${storesLine}; ClickHouse: chDB embedded`);

  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const dbFor = (purpose) => admin?.dbs.find((d) => d.purpose === purpose)?.url;
  const vitestReports = (json) => ["--reporter=default", "--reporter=json", `--reporter=${TIMINGS_REPORTER}`, `--outputFile.json=${json}`];

  // The lint and the build need nothing from the unit tests: they run beside them, their output prefixed or logged, so
  // the unit tests' output stays readable. The unit phase is the longest, so this lane costs no wall-clock time.
  let unitRunning = runUnit;
  const sideLane = async () => {
    // 0. Lint: the layering rules are part of the suite (a failure is reported, the tests still run).
    if (runUnit) {
      log("lint (eslint . && prettier --check), beside the unit tests");
      await timed(
        phases,
        "lint",
        async () => {
          const lint = { prefix: "[lint] ", name: "the lint" };
          summary.lint =
            (await run(process.execPath, [ESLINT, "."], lint)) === 0 &&
            (await run(process.execPath, [PRETTIER, "--check", ...PRETTIER_FILES], lint)) === 0
              ? "PASS"
              : "FAIL";
          log(`lint ${summary.lint}`);
        },
        runUnit ? "beside the unit tests" : undefined,
      );
    }
    // f. Build
    if (runBuild) {
      log(`build (remix vite:build)${unitRunning ? ", beside the unit tests" : ""}: output in ${path.relative(root, BUILD_LOG)}`);
      await timed(
        phases,
        "build",
        async () => {
          const env = { ...childEnv, NODE_ENV: "production" };
          const code = await run(process.execPath, [REMIX_CLI, "vite:build"], { env, name: "the build", logFile: BUILD_LOG });
          summary.build = code === 0 ? "PASS" : "FAIL";
          if (code === 0) log("build PASS");
          else console.error(`[test] the build FAILED (exit ${code}); the end of ${path.relative(root, BUILD_LOG)}:\n${tailOf(BUILD_LOG)}`);
        },
        runUnit ? "beside the unit tests" : undefined,
      );
    }
  };

  // e. Unit + integration
  const unitLane = async () => {
    if (!runUnit) return;
    log("unit + integration tests (vitest, vite.config.ts)");
    rmReport(UNIT_JSON);
    rmReport(UNIT_TIMINGS);
    const env = { ...childEnv, TEST_TIMINGS_FILE: UNIT_TIMINGS };
    if (admin) env.DATABASE_URL = dbFor("unit/integration");
    await timed(phases, "unit + integration", async () => {
      const code = await run(process.execPath, [VITEST, "run", "--passWithNoTests", ...vitestReports(UNIT_JSON)], { env, name: "vitest" });
      unitRunning = false;
      unitCounts = readReport(UNIT_JSON);
      summary.unit = code === 0 ? "PASS" : "FAIL";
    });
  };

  await Promise.all([unitLane(), sideLane()]);
  if (interrupted) return 130;

  // g. End-to-end: the shards at the same time, each with an app server, a DATA_DIR and a database of its own.
  const shardRuns = [];
  if (runE2e) {
    if (summary.build === "FAIL") {
      log("e2e tests not run: the build failed");
      summary.e2e = "NOT RUN (build failed)";
    } else if (!fs.existsSync(path.join(root, "build/server/index.js"))) {
      console.error("[test] e2e tests need build/server/index.js: run without --skip-build (or `npm run build`) first");
      summary.e2e = "NOT RUN (no build)";
    } else {
      log(`end-to-end browser tests (vitest, vitest.e2e.config.ts) in ${shards.length} shard${shards.length > 1 ? "s" : ""}`);
      for (const f of e2eTimingFiles()) fs.rmSync(f, { force: true });
      rmReport(E2E_JSON);
      await timed(
        phases,
        "e2e",
        () =>
          Promise.all(
            shards.map(async (files, index) => {
              const n = index + 1;
              const json = shards.length > 1 ? path.join(RESULTS_DIR, `e2e-${n}.json`) : E2E_JSON;
              rmReport(json);
              // Parent of the app server's temporary DATA_DIR (tests/e2e/global-setup.ts): removed here even after a Ctrl-C.
              const e2eTmp = fs.mkdtempSync(path.join(os.tmpdir(), "flowlens-test-"));
              cleanups.push(() => fs.rmSync(e2eTmp, { recursive: true, force: true }));
              const env = { ...childEnv, E2E_TMPDIR: e2eTmp, TEST_TIMINGS_FILE: path.join(RESULTS_DIR, `timings-e2e-${n}.json`) };
              if (admin) env.DATABASE_URL = dbFor(`e2e ${n}`);
              const label = `e2e ${n}/${shards.length}`;
              log(`${label}: ${filesCount(files.length)}`);
              const started = Date.now();
              const code = await run(
                process.execPath,
                [VITEST, "run", "--config", "vitest.e2e.config.ts", ...vitestReports(json), ...files],
                {
                  env,
                  name: `the ${label} vitest run`,
                  prefix: shards.length > 1 ? `[${label}] ` : undefined,
                },
              );
              shardRuns.push({ label, code, counts: readReport(json), ms: Date.now() - started, files: files.length });
            }),
          ),
        () =>
          [...shardRuns]
            .sort((a, b) => a.label.localeCompare(b.label))
            .map((r) => `${r.label}: ${filesCount(r.files)} in ${formatDuration(r.ms)}`)
            .join(", "),
      );
      e2eCounts = addCounts(shardRuns.map((r) => r.counts));
      const ran = e2eCounts ? e2eCounts.passed + e2eCounts.failed : 0;
      if (shardRuns.every((r) => r.code === 0) && ran === 0) {
        console.error("[test] the e2e run executed 0 tests: that counts as a failure");
      }
      summary.e2e = shardRuns.every((r) => r.code === 0) && ran > 0 ? "PASS" : "FAIL";
    }
  }
  if (interrupted) return 130;

  // Cleanup now (not just at exit) so the summary is the last thing printed.
  await runCleanups();

  // h. Timings, then the summary
  const timings = [
    { phase: "unit/integration", files: readTimings(UNIT_TIMINGS) },
    ...shardRuns.map((r, i) => ({ phase: "e2e", files: readTimings(path.join(RESULTS_DIR, `timings-e2e-${i + 1}.json`)) })),
  ];
  console.log("");
  for (const line of timingReport({ phases, files: timings, totalMs: Date.now() - startedAt })) log(line);
  const notable = [UNIT_TIMINGS, ...shardRuns.map((_, i) => path.join(RESULTS_DIR, `timings-e2e-${i + 1}.json`))].flatMap(readNotableTests);
  for (const line of notableTestLines(notable)) log(line);
  const retried = notable.filter((t) => t.state === "passed on a retry").length;

  const parts = [];
  if (runUnit) parts.push(`lint ${summary.lint}`);
  if (runUnit) {
    const n = unitCounts
      ? ` (${unitCounts.passed}/${unitCounts.total} tests passed${unitCounts.skipped ? `, ${unitCounts.skipped} skipped` : ""})`
      : "";
    parts.push(`unit/integration ${summary.unit}${n}`);
  }
  if (runE2e) parts.push(`build ${runBuild ? summary.build : "skipped (--skip-build)"}`);
  if (runE2e) {
    const n = e2eCounts
      ? summary.e2e === "PASS"
        ? ` (${e2eCounts.passed} browser tests, JavaScript on and off${retried ? `, ${retried} passed only on a retry` : ""})`
        : ` (${e2eCounts.passed}/${e2eCounts.total} browser tests passed, ${e2eCounts.failed} failed)`
      : "";
    parts.push(`e2e ${summary.e2e}${n}`);
  }
  const all = addCounts([unitCounts, e2eCounts]);
  const totals = all ? `; ${all.passed} passed, ${all.failed} failed` : "";
  const failed = Object.values(summary).some((s) => s !== "PASS" && s !== "skipped");
  console.log(`\nflowlens tests: ${parts.join(", ")}${totals} in ${formatDuration(Date.now() - startedAt)}`);
  return failed ? 1 : 0;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (err) {
  console.error("[test] unexpected error:", err);
  exitCode = 1;
} finally {
  await runCleanups();
}
process.exit(interrupted ? 130 : exitCode);
