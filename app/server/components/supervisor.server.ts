/**
 * Starts the configured components of a process, answers for their health and stops them
 * gracefully. What runs in this process is kept process-wide, so /healthz reports it without
 * being handed anything, and the shutdown stops it without knowing what it is.
 */
import { log, logValue } from "../log.server";
import { incrementCounter, recordDuration } from "../metrics.server";
import type { Services } from "../services.server";
import { componentEnv, type ComponentContext, type ComponentHealth, type IngestComponent } from "./contract.server";

/** A component that does not finish stopping within this is left behind: the process must still end. */
export const STOP_TIMEOUT_MS = 10_000;

export class ComponentStartError extends Error {
  constructor(
    readonly component: string,
    cause: unknown,
  ) {
    super(`component ${component} could not start: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "ComponentStartError";
  }
}

export type RunningComponents = {
  readonly names: string[];
  health(): Record<string, ComponentHealth>;
  /** Reverse start order, each bounded by STOP_TIMEOUT_MS; never rejects. */
  stop(): Promise<void>;
};

const holder = globalThis as unknown as { __flowlensRunningComponents?: Set<RunningComponents> };
const runningHere = (holder.__flowlensRunningComponents ??= new Set());

function contextFor<Settings>(name: string, settings: Settings): ComponentContext<Settings> {
  const line = (message: string) => `[${name}] ${message}`;
  return {
    settings,
    log: {
      debug: (message) => log.debug(line(message)),
      info: (message) => log.info(line(message)),
      warn: (message) => log.warn(line(message)),
      error: (message) => log.error(line(message)),
    },
    metrics: {
      increment: (metric, by) => incrementCounter(`component.${name}.${metric}`, by),
      duration: (metric, ms) => recordDuration(`component.${name}.${metric}`, ms),
    },
  };
}

function healthOf(component: IngestComponent): ComponentHealth {
  try {
    return component.health();
  } catch (error) {
    return { ok: false, detail: `health check failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

async function stopOne(component: IngestComponent): Promise<void> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), STOP_TIMEOUT_MS);
    timer.unref();
  });
  try {
    const outcome = await Promise.race([component.stop().then(() => "stopped" as const), timedOut]);
    if (outcome === "timeout") log.warn(`[${component.name}] did not stop within ${STOP_TIMEOUT_MS / 1000} s; left behind`);
    else log.info(`[${component.name}] stopped`);
  } catch (error) {
    log.error(`[${component.name}] stopping failed: ${logValue(error instanceof Error ? error.message : String(error))}`);
  } finally {
    clearTimeout(timer);
    recordDuration(`component.${component.name}.stop_ms`, performance.now() - started);
  }
}

/**
 * Configures every component from `env` and starts those configured, one after the other. A
 * configuration error or a failed start stops the ones already started and rejects: a collector
 * that was asked for and cannot listen is a reason not to start at all.
 */
export async function startComponents(
  components: IngestComponent[],
  services: Services,
  env: Record<string, string | undefined>,
): Promise<RunningComponents> {
  const configured = components.flatMap((component) => {
    const settings = component.configure(componentEnv(component.name, env));
    return settings === null ? [] : [{ component, settings }];
  });
  const started: IngestComponent[] = [];
  const running: RunningComponents = {
    get names() {
      return started.map((c) => c.name);
    },
    health: () => Object.fromEntries(started.map((c) => [c.name, healthOf(c)])),
    stop: async () => {
      runningHere.delete(running);
      for (const component of started.splice(0).reverse()) await stopOne(component);
    },
  };
  runningHere.add(running);
  for (const { component, settings } of configured) {
    const begun = performance.now();
    try {
      await component.start(services, contextFor(component.name, settings));
    } catch (error) {
      await running.stop();
      throw new ComponentStartError(component.name, error);
    }
    started.push(component);
    incrementCounter(`component.${component.name}.starts`);
    recordDuration(`component.${component.name}.start_ms`, performance.now() - begun);
    log.info(`[${component.name}] started: ${healthOf(component).detail}`);
  }
  return running;
}

/** Every component running in this process by name; empty where none runs (a web process on server stores). */
export function componentHealth(): Record<string, ComponentHealth> {
  return Object.assign({}, ...[...runningHere].map((r) => r.health()));
}

/** The shutdown's step: stops whatever runs in this process. */
export async function stopRunningComponents(): Promise<void> {
  await Promise.all([...runningHere].map((r) => r.stop()));
}
