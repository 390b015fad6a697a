/**
 * `npm run worker`: the process that runs the ingest components when the stores are servers
 * (DATABASE_URL and CLICKHOUSE_URL). It opens the stores like the app, starts every configured
 * component, and on SIGTERM or SIGINT stops them gracefully before closing the stores.
 */
import { parseConfig, type AppConfig } from "../env.server";
import { startBackgroundTasks, stopBackgroundTasks } from "../lifecycle.server";
import { log } from "../log.server";
import { startServices, type Services } from "../services.server";
import { componentEnv, envPrefix, type IngestComponent } from "./contract.server";
import { componentHost } from "./placement.server";
import { registeredComponents } from "./registry.server";
import { startComponents } from "./supervisor.server";
import { checkWorkerMetricsListen, serveWorkerMetrics, type WorkerMetricsServer } from "./worker-metrics.server";

/** The worker was started where the app runs the components itself. */
export const EXIT_NOT_THE_HOST = 2;

export type WorkerOptions = {
  env?: Record<string, string | undefined>;
  components?: IngestComponent[];
  /** How the stores are opened (tests hand in their own). */
  open?: (config: AppConfig) => Promise<Services>;
  /** Resolves with a reason when the worker is to stop; SIGTERM or SIGINT by default. */
  stopRequested?: Promise<string>;
  /** Told the scrape listener's address once it listens (WORKER_METRICS_LISTEN; tests use port 0). */
  onMetricsListening?: (address: string, port: number) => void;
};

function terminationSignal(): Promise<string> {
  // once: a second signal during the graceful stop ends the process the default way, at once.
  return new Promise((resolve) => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => resolve(signal));
  });
}

/** Runs until asked to stop; resolves with the process's exit code. Configuration and store errors reject. */
export async function runWorker(options: WorkerOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const components = options.components ?? registeredComponents();
  const config = parseConfig(env);
  if (componentHost(config) !== "worker") {
    log.error(
      "npm run worker runs the ingest components when both stores are servers (DATABASE_URL and CLICKHOUSE_URL). " +
        "With an embedded store the app runs them itself: start the app instead.",
    );
    return EXIT_NOT_THE_HOST;
  }
  // A malformed scrape address stops the start before anything is opened.
  checkWorkerMetricsListen(env);
  // Checked before the stores are opened: a worker with nothing to do says so at once.
  if (!components.some((c) => c.configure(componentEnv(c.name, env)) !== null)) {
    const known = components.map((c) => `${c.name} (${envPrefix(c.name)}…)`).join(", ");
    log.info(`no ingest component is configured, nothing to run${known ? `; known components: ${known}` : ""}`);
    return 0;
  }
  const stopRequested = options.stopRequested ?? terminationSignal();
  const services = await (options.open ?? ((c) => startServices(c, { loadDemo: false })))(config);
  // A component may do its work on unref'd timers: the worker itself stays until it is asked to stop.
  const keepAlive = setInterval(() => {}, 60 * 60_000);
  let metrics: WorkerMetricsServer | null = null;
  try {
    const running = await startComponents(components, services, env);
    // The components' figures live in this process: scraped here (the web replicas do not have them).
    metrics = await serveWorkerMetrics(env, config.METRICS_TOKEN).catch(async (error) => {
      await running.stop();
      throw error;
    });
    if (metrics) options.onMetricsListening?.(metrics.address, metrics.port);
    // The work that belongs with the components (the collector's health check) runs here too, once.
    startBackgroundTasks(services, "worker");
    log.info(`worker running: ${running.names.join(", ")}`);
    const reason = await stopRequested;
    log.info(`${reason}: stopping the components`);
    await running.stop();
  } finally {
    await metrics?.close();
    await stopBackgroundTasks();
    clearInterval(keepAlive);
    await services.close();
  }
  return 0;
}
