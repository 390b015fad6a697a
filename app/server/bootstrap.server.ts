import { ConfigError } from "./env.server";
import { StoreUnavailableError } from "./clickhouse.server";
import { log } from "./log.server";
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
    await printCredentialsIfDemo(services);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StoreUnavailableError) {
      console.error(`flowlens cannot start.\n${error.message}`);
    } else {
      console.error("flowlens cannot start: unexpected error while opening the stores.");
      console.error(error);
    }
    process.exit(1);
  }
}

async function printCredentialsIfDemo(services: Awaited<ReturnType<typeof getServices>>) {
  const { isDemoLoaded } = await import("./demo-state.server");
  if (!(await isDemoLoaded(services.pg.db))) return;
  const { demoCredentials } = await import("./demo-state.server");
  const { printDemoCredentials } = await import("~db/demo/load");
  printDemoCredentials(await demoCredentials(services.pg.db));
}
