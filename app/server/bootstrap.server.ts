import { ConfigError } from "./env.server";
import { StoreUnavailableError } from "./clickhouse.server";
import { startComponentsIfHost } from "./components/placement.server";
import { ComponentStartError, stopRunningComponents } from "./components/supervisor.server";
import { log } from "./log.server";
import { warnIfMailLinksUnconfigured } from "./mail/links.server";
import { demoNetwork, startBackgroundTasks, stopBackgroundTasks } from "./lifecycle.server";
import { getServices } from "./services.server";

/**
 * Starts the services at process start. Expected failures (bad configuration, a store that
 * cannot be reached) end the process with one clear message instead of a stack trace.
 */
export async function bootstrapOrExit(): Promise<void> {
  const started = performance.now();
  try {
    const services = await getServices();
    log.info(
      `flowlens ready: PostgreSQL ${services.pg.kind === "pglite" ? `embedded (PGlite, ${services.config.dataDir}/pg)` : "server"}, ` +
        `ClickHouse ${services.ch.kind === "chdb" ? `embedded (chDB, ${services.config.dataDir}/ch)` : "server"}, ` +
        `variant ${services.config.APP_VARIANT}, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    warnIfMailLinksUnconfigured();
    await demoNetwork()?.printCredentials(services);
    // Background work (ping and traceroute jobs) runs in every app process; replicas share it through PostgreSQL.
    // Tasks that belong with the ingest components (the collector's health check) start here on embedded stores only.
    startBackgroundTasks(services, "app");
    closeStoresOnShutdown(services);
    // On embedded stores only; on server stores `npm run worker` runs them, so replicas never listen or poll.
    await startComponentsIfHost("app", services);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StoreUnavailableError || error instanceof ComponentStartError) {
      console.error(`flowlens cannot start.\n${error.message}`);
    } else {
      console.error("flowlens cannot start: unexpected error while opening the stores.");
      console.error(error);
    }
    process.exit(1);
  }
}

const SHUTDOWN_GRACE_MS = 2_000;

/**
 * server.mjs stops listening on SIGTERM/SIGINT but the open stores keep the process alive:
 * let in-flight requests finish briefly, close PGlite/chDB (or the server pools) cleanly, exit.
 */
function closeStoresOnShutdown(services: Awaited<ReturnType<typeof getServices>>) {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`${signal}: closing the stores`);
    setTimeout(() => {
      // Components write what they hold before the stores close (each bounded by its own stop timeout).
      // Running commands end within their hard time limit; jobs cut off are reset by another replica.
      stopRunningComponents()
        .then(() => Promise.race([stopBackgroundTasks(), new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS))]))
        .then(() => services.close())
        .catch((error) => log.error(`closing the stores failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => process.exit(0));
    }, SHUTDOWN_GRACE_MS).unref();
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
}
