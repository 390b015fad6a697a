/**
 * What features hand to the kernel for the life of the process: app/server imports no feature and
 * not db/demo, so the work that runs beside the requests, what a feature must forget when the
 * stores close, and the demo network reach it through here. app/wiring.server.ts registers them,
 * once, for everything that runs the app (entry.server.tsx, the scripts, the test helpers).
 * Registrations are keyed by name: wiring twice (a development reload) replaces, never doubles.
 */
import { componentHost, type ComponentHost } from "./components/placement.server";
import type { Services } from "./services.server";

/**
 * Work beside the requests while the process lives. By default it runs in every app process
 * (ping and traceroute jobs, shared by the replicas through PostgreSQL); `where: "component host"`
 * runs it only in the one process that runs the ingest components (placement.server.ts): the app
 * on embedded stores, `npm run worker` on server stores (the collector's health check).
 */
export type BackgroundTask = {
  start: (services: Services) => void;
  stop: () => Promise<unknown>;
  where?: "every app process" | "component host";
};

/** Memory of a feature about one set of stores, dropped when they close (no background read of a closed store). */
export type StoresClosing = (stores: Pick<Services, "pg" | "ch">) => void;

/** The demo network: fills fresh stores (printing what it loaded) and prints the demo logins that still exist. */
export type DemoNetwork = {
  load: (services: Services) => Promise<void>;
  printCredentials: (services: Services) => Promise<void>;
};

const tasks = new Map<string, BackgroundTask>();
const started = new Set<BackgroundTask>();
const closing = new Map<string, StoresClosing>();
let demo: DemoNetwork | null = null;

export function runInBackground(name: string, task: BackgroundTask): void {
  tasks.set(name, task);
}

export function onStoresClosing(name: string, forget: StoresClosing): void {
  closing.set(name, forget);
}

export function provideDemoNetwork(network: DemoNetwork): void {
  demo = network;
}

/** Starts the tasks that belong in this process: `here` is "app" for the web process, "worker" for `npm run worker`. */
export function startBackgroundTasks(services: Services, here: ComponentHost = "app"): void {
  const host = componentHost(services.config) === here;
  for (const task of tasks.values()) {
    if (started.has(task) || !(task.where === "component host" ? host : here === "app")) continue;
    started.add(task);
    task.start(services);
  }
}

/** Stops the tasks this process started. */
export function stopBackgroundTasks(): Promise<unknown> {
  const stopping = [...started].map((task) => task.stop());
  started.clear();
  return Promise.allSettled(stopping);
}

export function forgetStores(stores: Pick<Services, "pg" | "ch">): void {
  for (const forget of closing.values()) forget(stores);
}

/** The demo network, when the app was wired with one. */
export function demoNetwork(): DemoNetwork | null {
  return demo;
}
