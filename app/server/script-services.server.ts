/**
 * The stores as a command-line script opens them (npm run demo:load, npm run rib:import): the
 * environment plus an optional .env file, validated like the app's, and no demo load of its own.
 */
import { parseConfig, type AppConfig } from "./env.server";
import { startServices, type Services } from "./services.server";

export async function startScriptServices(): Promise<{ config: AppConfig; services: Services }> {
  if (typeof process.loadEnvFile === "function") {
    try {
      process.loadEnvFile();
    } catch {
      // no .env file: the environment alone configures the app
    }
  }
  const config = parseConfig(process.env);
  return { config, services: await startServices(config, { loadDemo: false }) };
}
