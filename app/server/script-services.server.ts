/**
 * The stores as a command-line script opens them (npm run demo:load, npm run rib:import): the
 * environment plus an optional .env file, validated like the app's, and no demo load of its own.
 */
import { parseConfig, type AppConfig } from "./env.server";
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
