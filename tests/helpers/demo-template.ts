/**
 * The demo network, built once per test run for each period that files ask for, and copied into every
 * file's own stores. Loading it takes the better part of a minute on a busy machine; a copy takes a few
 * seconds: a chDB data folder copied, and a PostgreSQL database made from a template (CREATE DATABASE …
 * TEMPLATE, on the run's DATABASE_URL) or an in-memory PGlite started from a data-directory image.
 *
 * The first file that asks for a period builds it under a lock in the run's folder (made by
 * tests/helpers/demo-templates.global.ts, which drops and removes what was built when the run ends);
 * files asking for it meanwhile, in other workers, wait for it. A period is its end and its length in
 * days: the demo is generated relative to its end, so a file whose clock reads another day than the
 * builder's (a run across midnight UTC) gets a template of its own, never a stale one.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { loadDemoNetwork } from "~db/demo/load";
import { startServices } from "~/server/services.server";
import { TEMPLATE_DATABASES } from "./demo-templates.global";
import { createThrowawayDatabase, openTestStores, testConfig, type StoresTemplate, type TestStores } from "./stores";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's folder of demo templates (tests/helpers/demo-templates.global.ts). */
    demoTemplates: string;
  }
}

/** A template, and the rows its stores held per table when it was built (the loader's count), for checking a copy. */
export type DemoTemplate = StoresTemplate & { rows: Record<string, number> };

const WAIT_STEP_MS = 250;
/** Longer than any build seen (about a minute under load); a holder that died is noticed at once instead. */
const WAIT_LIMIT_MS = 10 * 60_000;

/**
 * Stores of the file's own holding the demo network for the period ending at `now` (unix seconds), `days`
 * long, as `loadDemoNetwork(stores, { now, days })` leaves them. `env` adds configuration variables.
 */
export async function openDemoStores(options: { now: number; days: number; env?: Record<string, string> }): Promise<TestStores> {
  const template = await demoTemplate(options.now, options.days);
  return openTestStores({ env: options.env, from: template });
}

/** The template of the period, built now if no file has built it yet in this run. */
export async function demoTemplate(now: number, days: number): Promise<DemoTemplate> {
  const root = inject("demoTemplates");
  if (!root) throw new Error("demoTemplate: no template folder (tests/helpers/demo-templates.global.ts is vite.config.ts's globalSetup)");
  const serverUrl = process.env.DATABASE_URL;
  const dir = path.join(root, `demo-${serverUrl ? "postgres" : "pglite"}-${now}-${days}`);
  const lock = `${dir}.lock`;
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    const ready = readReady(dir);
    if (ready) return ready;
    if (takeLock(lock)) {
      try {
        // Another file may have finished between the look and the lock.
        return readReady(dir) ?? (await buildTemplate(root, dir, now, days, serverUrl));
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
    }
    if (!holderAlive(lock)) {
      // Its builder died half-way: what it left is removed and the next to take the lock builds again.
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`demoTemplate: waited ${WAIT_LIMIT_MS / 1000} s for ${path.basename(dir)}`);
    await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
  }
}

function readReady(dir: string): DemoTemplate | null {
  try {
    return JSON.parse(readFileSync(path.join(dir, "ready.json"), "utf8")) as DemoTemplate;
  } catch {
    return null;
  }
}

/** mkdir is atomic: whoever creates the folder holds the lock, and writes its process id into it. */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  writeFileSync(path.join(lock, "pid"), String(process.pid));
  return true;
}

function holderAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(lock, "pid"), "utf8"));
  } catch {
    return true; // the holder has made the folder and not yet written its id: give it a moment
  }
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function buildTemplate(root: string, dir: string, now: number, days: number, serverUrl: string | undefined): Promise<DemoTemplate> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let pgDatabase: string | undefined;
  let databaseUrl: string | undefined;
  if (serverUrl) {
    const database = await createThrowawayDatabase(serverUrl);
    // Listed before it is filled, so the run's end drops it even if the build fails.
    writeFileSync(path.join(root, TEMPLATE_DATABASES), `${database.name}\n`, { flag: "a" });
    pgDatabase = database.name;
    databaseUrl = database.url;
  }
  // The stores' own data folder: chDB writes DATA_DIR/ch, which is what the copies start from.
  const services = await startServices(testConfig(dir, databaseUrl), { pglitePath: serverUrl ? undefined : ":memory:", loadDemo: false });
  let pgliteImage: string | undefined;
  let rows: Record<string, number>;
  try {
    ({ rows } = await loadDemoNetwork(services, { now, days }));
    if (!serverUrl) {
      const client = (services.pg.db as unknown as { $client?: { dumpDataDir?: (c: "none") => Promise<Blob> } }).$client;
      if (!client?.dumpDataDir) throw new Error("demoTemplate: the PGlite client cannot dump its data directory");
      pgliteImage = path.join(dir, "pg.tar");
      writeFileSync(pgliteImage, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
    }
  } finally {
    // Closed before anything is copied: chDB's files complete, and nobody connected to the template database.
    await services.close();
    await chdbIdle();
  }
  const template: DemoTemplate = { chDir: path.join(dir, "ch"), pgDatabase, pgliteImage, rows };
  // Written whole, then renamed: a waiting file reads either nothing or the complete answer.
  writeFileSync(path.join(dir, "ready.json.tmp"), JSON.stringify(template));
  renameSync(path.join(dir, "ready.json.tmp"), path.join(dir, "ready.json"));
  return template;
}

/**
 * chDB's engine is one per process and opens one data folder at a time: after a close it may still be
 * finishing work, and the file's own stores (another folder) may only open once it is free.
 */
async function chdbIdle(): Promise<void> {
  const { drainPending } = await import("chdb");
  await drainPending();
}
