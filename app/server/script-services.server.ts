/**
 * The stores as a command-line script opens them (npm run demo:load, npm run rib:import, npm run inventory): the
 * environment plus an optional .env file, validated like the app's, and no demo load of its own.
 */
import { lockDataDir } from "./data-dir-lock.server";
import { parseConfig, type AppConfig } from "./env.server";
import { openPostgres, type PostgresHandle } from "./postgres.server";
import { startServices, type Services } from "./services.server";

/** Adds the variables of ./.env, if there is one, to process.env. */
export function loadDotEnvFile(): void {
  if (typeof process.loadEnvFile !== "function") return;
  try {
    process.loadEnvFile();
  } catch {
    // no .env file: the environment alone configures the app
  }
}

export async function startScriptServices(): Promise<{ config: AppConfig; services: Services }> {
  loadDotEnvFile();
  const config = parseConfig(process.env);
  return { config, services: await startServices(config, { loadDemo: false }) };
}

/**
 * PostgreSQL alone, for scripts that touch only its tables (npm run inventory): no chDB to load,
 * but the same lock on DATA_DIR when PGlite lives there.
 */
export async function startScriptPostgres(): Promise<{ config: AppConfig; pg: PostgresHandle; close: () => Promise<void> }> {
  loadDotEnvFile();
  const config = parseConfig(process.env);
  const unlock = config.embeddedPostgres ? lockDataDir(config.dataDir) : () => {};
  let pg: PostgresHandle;
  try {
    pg = await openPostgres(config);
  } catch (error) {
    unlock();
    throw error;
  }
  return {
    config,
    pg,
    close: async () => {
      await pg.close();
      unlock();
    },
  };
}
