/**
 * Which process runs the ingest components. On an embedded store (PGlite or chDB under DATA_DIR,
 * which one process holds locked) there is no second process: the app runs them. With both
 * DATABASE_URL and CLICKHOUSE_URL the web processes may be replicas, and replicas must not fight
 * over a listen port or poll a router twice: then only `npm run worker` runs them.
 */
import type { AppConfig } from "../env.server";
import type { Services } from "../services.server";
import type { IngestComponent } from "./contract.server";
import { registeredComponents } from "./registry.server";
import { startComponents, type RunningComponents } from "./supervisor.server";

export type ComponentHost = "app" | "worker";

export function componentHost(config: Pick<AppConfig, "embeddedPostgres" | "embeddedClickhouse">): ComponentHost {
  return config.embeddedPostgres || config.embeddedClickhouse ? "app" : "worker";
}

/** Starts the configured components when this process (`here`) is their host; null when it is not. */
export async function startComponentsIfHost(
  here: ComponentHost,
  services: Services,
  options: { env?: Record<string, string | undefined>; components?: IngestComponent[] } = {},
): Promise<RunningComponents | null> {
  if (componentHost(services.config) !== here) return null;
  return startComponents(options.components ?? registeredComponents(), services, options.env ?? process.env);
}
