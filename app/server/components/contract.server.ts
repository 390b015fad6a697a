/**
 * What a long-running ingest component (a flow collector, an SNMP poller, a BMP station) is to the
 * kernel. Each reads only the environment variables of its own prefix (`<COMPONENT>_…`, listen
 * addresses as `<COMPONENT>_LISTEN`), is off when they leave it unconfigured, and is started,
 * asked for its health and stopped by the supervisor (supervisor.server.ts), in the app process on
 * embedded stores or in `npm run worker` on server stores (placement.server.ts).
 */
import { ConfigError } from "../env.server";
import type { Services } from "../services.server";

export type ComponentHealth = { ok: boolean; detail: string };

/** The component's own variables, the prefix taken off: for `flows-netflow`, FLOWS_NETFLOW_LISTEN is `get("LISTEN")`. */
export type ComponentEnv = {
  /** e.g. "FLOWS_NETFLOW_": for messages that name a variable. */
  readonly prefix: string;
  get(suffix: string): string | undefined;
  /** `<PREFIX>LISTEN` (or another suffix) as an address to bind, null when unset; a malformed value is a ConfigError. */
  listen(suffix?: string): ListenAddress | null;
};

export type ComponentLog = Record<"debug" | "info" | "warn" | "error", (message: string) => void>;

/** Figures under `component.<name>.` in app/server/metrics.server.ts. */
export type ComponentMetrics = {
  increment(name: string, by?: number): void;
  duration(name: string, ms: number): void;
};

export type ComponentContext<Settings> = {
  settings: Settings;
  log: ComponentLog;
  metrics: ComponentMetrics;
};

export interface IngestComponent<Settings = unknown> {
  /** Lower-case words joined by "-": names the variables' prefix, the log lines, the metrics and the health entry. */
  readonly name: string;
  /** Its settings from its variables, or null when they leave it off (no variable set). */
  configure(env: ComponentEnv): Settings | null;
  /** Resolves once it listens or polls; a rejection stops the process start with the reason. */
  start(services: Services, context: ComponentContext<Settings>): Promise<void>;
  /** Graceful: stops accepting, writes what it holds, resolves when done. Awaited at shutdown. */
  stop(): Promise<void>;
  health(): ComponentHealth;
}

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

export function assertComponentName(name: string): void {
  if (!NAME.test(name)) throw new Error(`component name "${name}": lower-case words joined by "-" (e.g. flows-netflow)`);
}

/** `flows-netflow` → `FLOWS_NETFLOW_`. */
export function envPrefix(name: string): string {
  return `${name.toUpperCase().replace(/-/g, "_")}_`;
}

export type ListenAddress = { host: string; port: number };

/**
 * `host:port`, `[v6-address]:port` or `:port` (every IPv4 interface). Port 0 lets the system pick
 * one, which tests use; the component reports the port it got in its health detail.
 */
export function parseListenAddress(variable: string, value: string): ListenAddress {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]*)):(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[3]) : NaN;
  if (!match || port > 65535) {
    throw new ConfigError(`Invalid configuration:\n  ${variable}: expected host:port, [IPv6]:port or :port (got "${value}")`);
  }
  return { host: match[1] ?? (match[2] || "0.0.0.0"), port };
}

export function componentEnv(name: string, env: Record<string, string | undefined>): ComponentEnv {
  const prefix = envPrefix(name);
  // Empty values count as unset, as everywhere in the configuration (.env.example keeps empty lines).
  const get = (suffix: string) => {
    const value = env[`${prefix}${suffix}`];
    return value === undefined || value.trim() === "" ? undefined : value;
  };
  return {
    prefix,
    get,
    listen(suffix = "LISTEN") {
      const value = get(suffix);
      return value === undefined ? null : parseListenAddress(`${prefix}${suffix}`, value);
    },
  };
}
