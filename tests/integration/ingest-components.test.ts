// The ingest component kernel with a test component (a TCP listener): in the app process on embedded stores, never in a
// web process on server stores, in `npm run worker` there; health on /healthz's check, metrics, graceful stops.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startComponentsIfHost } from "~/server/components/placement.server";
import { ComponentStartError, componentHealth, stopRunningComponents } from "~/server/components/supervisor.server";
import { EXIT_NOT_THE_HOST, runWorker } from "~/server/components/worker.server";
import { checkHealth } from "~/server/health.server";
import { metricsSnapshot } from "~/server/metrics.server";
import type { Services } from "~/server/services.server";
import { openTestStores, type TestStores } from "../helpers/stores";
import { GREETING, greetingAt, testComponent } from "../helpers/test-component";

const LISTEN = { TEST_LISTENER_LISTEN: "127.0.0.1:0" };
const TOKEN = "scrape-token-0123456789abcdef";
/** Variables of a deployment on server stores (the worker's case); the stores themselves are the test's. */
const SERVER_STORES = {
  DATABASE_URL: "postgres://flowlens@127.0.0.1:1/flowlens",
  CLICKHOUSE_URL: "http://127.0.0.1:1",
  SESSION_SECRET: "test-secret-test-secret-test-secret-0123456789",
};

let stores: TestStores;
beforeAll(async () => {
  stores = await openTestStores();
});
afterAll(async () => {
  await stopRunningComponents();
  await stores?.dispose();
});

/** The test's stores as a process on server stores sees its configuration. */
const onServerStores = (): Services => ({ ...stores, config: { ...stores.config, embeddedPostgres: false, embeddedClickhouse: false } });

describe("on embedded stores the app process runs the components", () => {
  it("starts a configured component, reports its health and metrics, and stops it gracefully", async () => {
    const test = testComponent();
    const running = await startComponentsIfHost("app", stores, { env: LISTEN, components: [test.component] });
    expect(running?.names).toEqual(["test-listener"]);
    expect(await greetingAt(test.port())).toBe(GREETING);

    const health = await checkHealth(stores);
    expect(health.status).toBe("ok");
    expect(health.components).toEqual({ "test-listener": { ok: true, detail: `listening on port ${test.port()}` } });
    const metrics = metricsSnapshot();
    expect(metrics.counters["component.test-listener.connections"]).toBeGreaterThanOrEqual(1);
    expect(metrics.counters["component.test-listener.starts"]).toBeGreaterThanOrEqual(1);

    await stopRunningComponents();
    expect(test.events).toEqual(["started", "stopped"]);
    expect((await checkHealth(stores)).components).toBeUndefined();
    expect(metricsSnapshot().durations["component.test-listener.stop_ms"]?.count).toBeGreaterThanOrEqual(1);
  });

  it("leaves a component without its variables off", async () => {
    const test = testComponent();
    const running = await startComponentsIfHost("app", stores, { env: { TEST_LISTENER_LISTEN: "" }, components: [test.component] });
    expect(running?.names).toEqual([]);
    expect(test.events).toEqual([]);
    expect(componentHealth()).toEqual({});
    await running?.stop();
  });

  it("does not start at all when a configured component cannot start, and stops the ones already started", async () => {
    const first = testComponent("first-listener");
    const second = testComponent("second-listener");
    await startComponentsIfHost("app", stores, { env: { FIRST_LISTENER_LISTEN: "127.0.0.1:0" }, components: [first.component] });
    const taken = `127.0.0.1:${first.port()}`;
    const again = testComponent("first-listener-again");
    const attempt = startComponentsIfHost("app", stores, {
      env: { SECOND_LISTENER_LISTEN: "127.0.0.1:0", FIRST_LISTENER_AGAIN_LISTEN: taken },
      components: [second.component, again.component],
    });
    await expect(attempt).rejects.toThrow(ComponentStartError);
    await expect(attempt).rejects.toThrow(/first-listener-again could not start: .*EADDRINUSE/);
    expect(second.events).toEqual(["started", "stopped"]);
    await stopRunningComponents();
    expect(first.events).toEqual(["started", "stopped"]);
  });
});

describe("on server stores only the worker runs them", () => {
  it("a web process neither listens nor polls", async () => {
    const test = testComponent();
    expect(await startComponentsIfHost("app", onServerStores(), { env: LISTEN, components: [test.component] })).toBeNull();
    expect(test.events).toEqual([]);
    expect((await checkHealth(onServerStores())).components).toBeUndefined();
  });

  it("the worker starts them, and stops them gracefully before it closes the stores", async () => {
    const test = testComponent("test-listener", { stopDelayMs: 50 });
    let stop!: (reason: string) => void;
    const stopRequested = new Promise<string>((resolve) => (stop = resolve));
    const order: string[] = [];
    const open = async () => ({ ...onServerStores(), close: async () => void order.push(`closed after ${test.events.join(", ")}`) });
    const exit = runWorker({
      env: { ...SERVER_STORES, DATA_DIR: stores.dataDir, ...LISTEN },
      components: [test.component],
      open,
      stopRequested,
    });
    await expect.poll(() => test.events).toEqual(["started"]);
    expect(await greetingAt(test.port())).toBe(GREETING);
    expect(componentHealth()["test-listener"]).toMatchObject({ ok: true });
    stop("SIGTERM");
    expect(await exit).toBe(0);
    expect(order).toEqual(["closed after started, stopped"]);
    expect(componentHealth()).toEqual({});
  });

  it("the worker serves the components' metrics on WORKER_METRICS_LISTEN, with the app's token rule", async () => {
    const test = testComponent();
    let stop!: (reason: string) => void;
    const stopRequested = new Promise<string>((resolve) => (stop = resolve));
    let port = 0;
    const exit = runWorker({
      env: { ...SERVER_STORES, DATA_DIR: stores.dataDir, ...LISTEN, WORKER_METRICS_LISTEN: "127.0.0.1:0", METRICS_TOKEN: TOKEN },
      components: [test.component],
      open: async () => ({ ...onServerStores(), close: async () => {} }),
      stopRequested,
      onMetricsListening: (_address, p) => (port = p),
    });
    await expect.poll(() => port).toBeGreaterThan(0);
    expect(await greetingAt(test.port())).toBe(GREETING);
    const scrape = (url: string, headers: Record<string, string> = {}) => fetch(`http://127.0.0.1:${port}${url}`, { headers });
    const ok = await scrape("/metrics", { Authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Content-Type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await ok.text();
    expect(text).toMatch(/^flowlens_component_connections_total\{component="test-listener"\} [1-9]\d*$/m);
    expect(text).toContain('flowlens_component_up{component="test-listener"} 1');
    expect((await scrape("/metrics")).status).toBe(401);
    expect((await scrape("/metrics", { Authorization: "Bearer wrong-token-0123456789" })).status).toBe(403);
    expect((await scrape("/healthz", { Authorization: `Bearer ${TOKEN}` })).status).toBe(404);
    stop("SIGTERM");
    expect(await exit).toBe(0);
    await expect(scrape("/metrics")).rejects.toThrow();
  });

  it("a malformed WORKER_METRICS_LISTEN stops the worker before it opens anything", async () => {
    let opened = false;
    const attempt = runWorker({
      env: { ...SERVER_STORES, DATA_DIR: stores.dataDir, ...LISTEN, WORKER_METRICS_LISTEN: "9464" },
      components: [testComponent().component],
      open: async () => {
        opened = true;
        return stores;
      },
    });
    await expect(attempt).rejects.toThrow(/WORKER_METRICS_LISTEN: expected host:port/);
    expect(opened).toBe(false);
  });

  it("the worker refuses to run on embedded stores and opens nothing", async () => {
    let opened = false;
    const code = await runWorker({
      env: { DATA_DIR: stores.dataDir, ...LISTEN },
      components: [testComponent().component],
      open: async () => {
        opened = true;
        return stores;
      },
    });
    expect(code).toBe(EXIT_NOT_THE_HOST);
    expect(opened).toBe(false);
  });

  it("a worker with no component configured says so and ends", async () => {
    let opened = false;
    const code = await runWorker({
      env: { ...SERVER_STORES, DATA_DIR: stores.dataDir },
      components: [testComponent().component],
      open: async () => {
        opened = true;
        return stores;
      },
    });
    expect(code).toBe(0);
    expect(opened).toBe(false);
  });
});

describe("npm run worker", () => {
  const ROOT = path.resolve(__dirname, "../..");

  function run(script: string, env: Record<string, string>) {
    const child = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    return { child, exited, output: () => output };
  }

  it("explains that on embedded stores the app runs the components, and exits with 2", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-worker-"));
    try {
      const worker = run("scripts/worker.ts", { DATA_DIR: dataDir });
      expect(await worker.exited).toBe(EXIT_NOT_THE_HOST);
      expect(worker.output()).toContain("With an embedded store the app runs them itself");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  // A worker process of its own (tsx, both stores) starts in seconds, but in minutes on a loaded 2-core machine: the start
  // alone may take the poll's 60 s, so the test gets room for the start, the greeting and the stop.
  it("runs a component until SIGTERM, then stops it gracefully and exits with 0", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-worker-"));
    try {
      const worker = run("tests/fixtures/worker-with-test-component.ts", { DATA_DIR: dataDir, ...SERVER_STORES, ...LISTEN });
      await expect.poll(() => worker.output(), { timeout: 60_000, interval: 200 }).toMatch(/worker running: test-listener/);
      const port = Number(/listening on port (\d+)/.exec(worker.output())?.[1]);
      expect(await greetingAt(port)).toBe(GREETING);
      worker.child.kill("SIGTERM");
      expect(await worker.exited).toBe(0);
      expect(worker.output()).toMatch(/SIGTERM: stopping the components[\s\S]*\[test-listener\] stopped/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
