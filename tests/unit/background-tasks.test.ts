// Where background tasks run: by default in every app process, never in the worker; a task `where: "component host"`
// (the collector's health check) only in the process that runs the ingest components — the app on embedded stores,
// `npm run worker` on server stores — so it runs exactly once. Stopping stops only what this process started.
import { describe, expect, it } from "vitest";
import { runInBackground, startBackgroundTasks, stopBackgroundTasks, type BackgroundTask } from "~/server/lifecycle.server";
import type { Services } from "~/server/services.server";

const events: string[] = [];
const task = (name: string, where?: BackgroundTask["where"]): BackgroundTask => ({
  where,
  start: () => void events.push(`start ${name}`),
  stop: async () => void events.push(`stop ${name}`),
});
runInBackground("every", task("every"));
runInBackground("host", task("host", "component host"));

const stores = (embedded: boolean) => ({ config: { embeddedPostgres: embedded, embeddedClickhouse: embedded } }) as unknown as Services;

async function run(services: Services, here: "app" | "worker") {
  events.length = 0;
  startBackgroundTasks(services, here);
  startBackgroundTasks(services, here); // a second call starts nothing twice
  await stopBackgroundTasks();
  return [...events];
}

describe("background tasks", () => {
  it("embedded stores: the app runs both, the worker none", async () => {
    expect(await run(stores(true), "app")).toEqual(["start every", "start host", "stop every", "stop host"]);
    expect(await run(stores(true), "worker")).toEqual([]);
  });

  it("server stores: each web replica runs the every-process task, the worker the component host's", async () => {
    expect(await run(stores(false), "app")).toEqual(["start every", "stop every"]);
    expect(await run(stores(false), "worker")).toEqual(["start host", "stop host"]);
  });
});
