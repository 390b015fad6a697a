// Vitest globalSetup for the end-to-end tests (vitest.e2e.config.ts).
//
// Starts the *built* app once for the whole e2e run (`npm test` makes several runs at the same time, its shards, each
// with its own E2E_TMPDIR and DATABASE_URL, so each shard has a server of its own):
//   node server.mjs ./build/server/index.js
// with a fresh temporary DATA_DIR, a free PORT, NODE_ENV=production and, when set, DATABASE_URL (scripts/test.mjs
// points it at a throwaway PostgreSQL database) plus a random SESSION_SECRET. Waits for GET /healthz to return 200
// and provides the base URL to the test files: `inject("baseURL")` from "vitest".
// The server's flow collector (flows-netflow) listens on a free UDP port of 127.0.0.1, provided as inject("netflowTarget")
// ("127.0.0.1:<port>"); nothing sends to it unless a test does (tests/e2e/collector.e2e.ts). FLOWS_SILENT_AFTER is a
// day, so the exporters a test used and left are not told to staff as silent while later files run; FLOWS_STALE_AFTER and
// ROUTING_STALE_AFTER are their longest, so the demo network's data, which stops at the start, is not told as stale.
// Teardown: SIGTERM, SIGKILL after 15 s, then removes the temporary DATA_DIR.
//
// Env knobs: E2E_TMPDIR = parent of the temporary DATA_DIR (default os.tmpdir()). E2E_BASE_URL=http://host:port skips starting a server and tests that URL instead (handy against
// `npm run dev` or an already running instance); E2E_NETFLOW_TARGET=host:port then names its NetFlow listener (unset: the
// collector tests are skipped). E2E_APP_LOG=0 hides the server's request log after startup.

import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import dgram from "node:dgram";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    /** host:port of the app server's NetFlow/IPFIX listener; "" when unknown (E2E_BASE_URL without E2E_NETFLOW_TARGET). */
    netflowTarget: string;
  }
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SERVE_CLI = path.join(ROOT, "server.mjs");
const SERVER_BUILD = path.join(ROOT, "build/server/index.js");
const STARTUP_TIMEOUT_MS = 10 * 60_000;
const POLL_MS = 500;
const KILL_AFTER_MS = 15_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => (port ? resolve(port) : reject(new Error("could not determine a free port"))));
    });
  });
}

/** A UDP port free on 127.0.0.1 right now (the app server binds it a moment later). */
function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket("udp4");
    socket.unref();
    socket.on("error", reject);
    socket.bind(0, "127.0.0.1", () => {
      const port = socket.address().port;
      socket.close(() => (port ? resolve(port) : reject(new Error("could not determine a free UDP port"))));
    });
  });
}

function pipeLines(stream: NodeJS.ReadableStream | null, write: (line: string) => void) {
  if (!stream) return;
  let buf = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    buf += chunk;
    let i: number;
    while ((i = buf.indexOf("\n")) >= 0) {
      write(buf.slice(0, i).replace(/\r$/, ""));
      buf = buf.slice(i + 1);
    }
  });
  stream.on("end", () => {
    if (buf) write(buf);
    buf = "";
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function healthz(baseURL: string): Promise<{ status: number; body: string } | null> {
  try {
    const res = await fetch(`${baseURL}/healthz`, { signal: AbortSignal.timeout(10_000), redirect: "manual" });
    return { status: res.status, body: await res.text() };
  } catch {
    return null; // not listening yet
  }
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  if (await waitForExit(child, KILL_AFTER_MS)) return;
  console.warn(`[e2e] app server did not exit ${KILL_AFTER_MS / 1000} s after SIGTERM: SIGKILL`);
  child.kill("SIGKILL");
  await waitForExit(child, 5_000);
}

export default async function setup(project: TestProject) {
  const external = process.env.E2E_BASE_URL?.replace(/\/+$/, "");
  if (external) {
    console.log(`[e2e] E2E_BASE_URL is set: testing ${external} (no server started)`);
    project.provide("baseURL", external);
    project.provide("netflowTarget", process.env.E2E_NETFLOW_TARGET?.trim() ?? "");
    return;
  }

  if (!fs.existsSync(SERVE_CLI)) throw new Error(`[e2e] ${SERVE_CLI} is missing`);
  if (!fs.existsSync(SERVER_BUILD)) {
    throw new Error(`[e2e] ${SERVER_BUILD} is missing: build the app first (npm run build, or npm test without --skip-build)`);
  }

  // scripts/test.mjs sets E2E_TMPDIR to a directory of its own and removes it at the end, even after a Ctrl-C.
  const tmpRoot = process.env.E2E_TMPDIR || os.tmpdir();
  const dataDir = await fs.promises.mkdtemp(path.join(tmpRoot, "flowlens-e2e-"));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const netflowTarget = `127.0.0.1:${await freeUdpPort()}`;

  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) {
    // Do not leak vitest's own markers (VITEST, VITEST_POOL_ID, TEST, NODE_ENV=test ...) into the app server.
    if (k.startsWith("VITEST") || k === "TEST") delete env[k];
  }
  // The demo network is loaded on every store kind (also a throwaway PostgreSQL), over a short
  // period to keep the start quick.
  Object.assign(env, {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    NODE_ENV: "production",
    DEMO_DATA: "on",
    DEMO_DAYS: env.DEMO_DAYS ?? "3",
    FLOWS_NETFLOW_LISTEN: netflowTarget,
    FLOWS_SILENT_AFTER: "1440",
    FLOWS_STALE_AFTER: "10080",
    ROUTING_STALE_AFTER: "43200",
  });
  if (process.env.DATABASE_URL) {
    env.DATABASE_URL = process.env.DATABASE_URL;
    env.SESSION_SECRET = process.env.SESSION_SECRET || randomBytes(32).toString("hex");
  } else {
    delete env.DATABASE_URL;
  }

  const dbInfo = env.DATABASE_URL ? `PostgreSQL database ${new URL(env.DATABASE_URL).pathname.slice(1)}` : "PGlite";
  console.log(`[e2e] starting the app: ${baseURL}, NetFlow on udp ${netflowTarget}, DATA_DIR=${dataDir}, ${dbInfo}`);
  const started = Date.now();
  const child = spawn(process.execPath, [SERVE_CLI, SERVER_BUILD], {
    cwd: ROOT, // server.mjs serves ./public relative to the cwd
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });

  let ready = false;
  const quietAfterStart = process.env.E2E_APP_LOG === "0";
  const print = (line: string) => {
    if (!line.trim()) return;
    if (!ready || !quietAfterStart) process.stdout.write(`[app] ${line}\n`);
  };
  pipeLines(child.stdout, print);
  pipeLines(child.stderr, print);
  let spawnError: Error | undefined;
  child.on("error", (err) => (spawnError = err));

  // Last resort if vitest exits without running the teardown (Ctrl-C, crash): kill the server, remove DATA_DIR.
  const onExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    try {
      fs.rmSync(dataDir, { recursive: true, force: true });
    } catch {
      /* ignore */
    }
  };
  // prepend: vitest's own exit listener calls process.exit() again, which skips listeners registered after it.
  process.prependListener("exit", onExit);

  const cleanup = async () => {
    await stopServer(child);
    process.off("exit", onExit);
    await fs.promises.rm(dataDir, { recursive: true, force: true }).catch(() => {});
  };

  try {
    let last: { status: number; body: string } | null = null;
    for (;;) {
      if (spawnError) throw new Error(`[e2e] could not start the app server: ${spawnError.message}`);
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(
          `[e2e] the app server exited during startup (code ${child.exitCode}, signal ${child.signalCode}); see the [app] lines above`,
        );
      }
      last = await healthz(baseURL);
      if (last?.status === 200) break;
      if (Date.now() - started > STARTUP_TIMEOUT_MS) {
        throw new Error(
          `[e2e] ${baseURL}/healthz did not return 200 within ${STARTUP_TIMEOUT_MS / 60_000} minutes` +
            (last ? ` (last: HTTP ${last.status} ${last.body.slice(0, 500)})` : " (never answered)"),
        );
      }
      await sleep(POLL_MS);
    }
    ready = true;
    console.log(`[e2e] app ready after ${((Date.now() - started) / 1000).toFixed(1)} s: /healthz ${last.body.slice(0, 300)}`);
  } catch (err) {
    await cleanup();
    throw err;
  }

  project.provide("baseURL", baseURL);
  project.provide("netflowTarget", netflowTarget);

  return async () => {
    console.log("[e2e] stopping the app server");
    await cleanup();
  };
}
