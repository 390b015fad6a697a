/**
 * The worker that runs network command jobs, inside every app process: it claims waiting jobs
 * from PostgreSQL one at a time (several replicas never take the same job), runs at most
 * `concurrency` at once, and stores each outcome. It looks for work every `pollIntervalMs`, and
 * at once when this process created a job. Now and then it resets jobs whose replica died and
 * removes old finished ones.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { AppConfig } from "~/server/env.server";
import { log } from "~/server/log.server";
import type { Services } from "~/server/services.server";
import { inventorySshRouter, runInventorySshCommand } from "./inventory-ssh.server";
import { claimNextJob, deleteOldJobs, finishJob, jobCreated, resetStaleJobs, type NetcommandJobRow } from "./jobs.server";
import { runLocalCommand } from "./local.server";
import type { CommandOutcome } from "./outcome";
import type { SpawnFn } from "./process.server";
import { runSshCommand } from "./ssh.server";

export type RunnerOptions = {
  /** Jobs this process runs at the same time. */
  concurrency?: number;
  pollIntervalMs?: number;
  /** How often stale jobs are reset and old ones removed. */
  maintenanceIntervalMs?: number;
  spawn?: SpawnFn;
  workerId?: string;
};

export const RUNNER_DEFAULTS = { concurrency: 4, pollIntervalMs: 1_000, maintenanceIntervalMs: 30_000 } as const;

/** Runs a job's command as NETCOMMAND_SSH says: over SSH when it names the vantage point, else on this server. */
export function executeJob(
  config: Pick<AppConfig, "NETCOMMAND_SSH">,
  job: Pick<NetcommandJobRow, "vantagePoint" | "queryType" | "targetAddress">,
  spawn?: SpawnFn,
): Promise<CommandOutcome> {
  const ssh = config.NETCOMMAND_SSH[job.vantagePoint];
  return ssh
    ? runSshCommand(ssh, job.queryType, job.targetAddress, { spawn })
    : runLocalCommand(job.queryType, job.targetAddress, { spawn });
}

/**
 * Runs a job's command from its vantage point: over SSH with the inventory's settings when the
 * vantage point's router has some (they win over NETCOMMAND_SSH, whose vendor is only used when
 * the inventory's vendor text names none), else as NETCOMMAND_SSH says.
 */
export async function executeJobFromInventory(
  stores: Pick<Services, "pg" | "config">,
  job: Pick<NetcommandJobRow, "vantagePoint" | "queryType" | "targetAddress">,
  spawn?: SpawnFn,
): Promise<CommandOutcome> {
  const router = await inventorySshRouter(stores, job.vantagePoint);
  if (!router) return executeJob(stores.config, job, spawn);
  return runInventorySshCommand(stores, router, job, { spawn, fallbackVendor: stores.config.NETCOMMAND_SSH[job.vantagePoint]?.vendor });
}

export class NetcommandRunner {
  readonly workerId: string;
  private readonly options: Required<Omit<RunnerOptions, "spawn" | "workerId">> & { spawn?: SpawnFn };
  private running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private claiming = false;
  private stopped = true;
  private lastMaintenance = 0;
  private readonly onJob = () => void this.fill();

  constructor(
    private readonly services: Pick<Services, "pg" | "config">,
    options: RunnerOptions = {},
  ) {
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.options = { ...RUNNER_DEFAULTS, ...options };
  }

  start(): this {
    if (!this.stopped) return this;
    this.stopped = false;
    jobCreated.on("job", this.onJob);
    this.timer = setInterval(() => void this.fill(), this.options.pollIntervalMs);
    // The runner must not keep a process alive that is otherwise done (tests, shutdown).
    this.timer.unref();
    void this.fill();
    return this;
  }

  /** Stops claiming new jobs and waits for the running ones (each ends within its hard time limit). */
  async stop(): Promise<void> {
    this.stopped = true;
    jobCreated.off("job", this.onJob);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.running]);
  }

  /** Claims waiting jobs while there is room; one claim at a time. */
  async fill(): Promise<void> {
    if (this.stopped || this.claiming) return;
    this.claiming = true;
    try {
      await this.maintain();
      while (!this.stopped && this.running.size < this.options.concurrency) {
        const job = await claimNextJob(this.services.pg.db, this.workerId);
        if (!job) break;
        const run = this.run(job).finally(() => {
          this.running.delete(run);
          void this.fill();
        });
        this.running.add(run);
      }
    } catch (error) {
      if (!this.stopped) log.error(`network command runner: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.claiming = false;
    }
  }

  private async maintain(): Promise<void> {
    const now = Date.now();
    if (now - this.lastMaintenance < this.options.maintenanceIntervalMs) return;
    this.lastMaintenance = now;
    const reset = await resetStaleJobs(this.services.pg.db);
    if (reset) log.warn(`network command runner: ${reset} job(s) of a stopped server reset`);
    await deleteOldJobs(this.services.pg.db);
  }

  private async run(job: NetcommandJobRow): Promise<void> {
    let outcome: CommandOutcome;
    try {
      outcome = await executeJobFromInventory(this.services, job, this.options.spawn);
    } catch (error) {
      outcome = {
        ok: false,
        message: `The command could not be run: ${error instanceof Error ? error.message : String(error)}`,
        transient: false,
      };
    }
    try {
      await finishJob(this.services.pg.db, job, outcome);
    } catch (error) {
      // The stores may be closing; the job is then reset as stale by whichever replica lives on.
      log.error(`network command runner: storing job ${job.id} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

const holder = globalThis as unknown as { __flowlensNetcommandRunner?: NetcommandRunner };

/** The process's runner, started once (Vite's module reloads in development reuse it). */
export function startNetcommandRunner(services: Pick<Services, "pg" | "config">, options: RunnerOptions = {}): NetcommandRunner {
  holder.__flowlensNetcommandRunner ??= new NetcommandRunner(services, options);
  return holder.__flowlensNetcommandRunner.start();
}

export async function stopNetcommandRunner(): Promise<void> {
  const runner = holder.__flowlensNetcommandRunner;
  holder.__flowlensNetcommandRunner = undefined;
  await runner?.stop();
}
