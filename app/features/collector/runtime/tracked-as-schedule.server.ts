/**
 * The tracked ASes (the top-200 fold of the aggregates) follow the traffic the collector stores:
 * recomputed hourly in the process that hosts the collectors. Shared by the collector components
 * of a process: the first to start starts the schedule, the last to stop ends it.
 */
import { log, logValue } from "~/server/log.server";
import type { Services } from "~/server/services.server";
import { recomputeTrackedAs } from "../enrich/tracked-as.server";

export const TRACKED_AS_INTERVAL_MS = 60 * 60_000;
/** The first run waits a little: a fresh start has stored nothing yet. */
export const TRACKED_AS_FIRST_RUN_MS = 5 * 60_000;

let users = 0;
let timer: NodeJS.Timeout | null = null;

async function run(services: Services): Promise<void> {
  try {
    const tracked = await recomputeTrackedAs(services, new Date());
    log.info(`[collector] tracked ASes recomputed: ${tracked}`);
  } catch (error) {
    log.warn(`[collector] tracked ASes not recomputed: ${logValue(error instanceof Error ? error.message : String(error))}`);
  }
}

/** Returns the release of this user of the schedule. */
export function joinTrackedAsSchedule(services: Services): () => void {
  users++;
  if (!timer) {
    timer = setTimeout(function tick() {
      void run(services).finally(() => {
        if (timer) timer = setTimeout(tick, TRACKED_AS_INTERVAL_MS).unref();
      });
    }, TRACKED_AS_FIRST_RUN_MS).unref();
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--users === 0 && timer) {
      clearTimeout(timer);
      timer = null;
    }
  };
}
