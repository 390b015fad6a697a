/**
 * The progress bar of a Looking Glass run (spec §4, §9): it starts at 0 and advances every 100 ms;
 * the first step is 1/timeout-seconds of the bar (100 / timeout seconds, in percent), and every
 * tick the step shrinks by 1 percent of itself. The bar therefore slows down the longer a query
 * takes and never claims to be done: it is held below 100 % and stops as soon as the status
 * leaves Pending (the finished run then shows the full bar).
 */
export const PROGRESS_TICK_MS = 100;
/**
 * The time-out when the page does not name one. The screens pass the server's own limit per query
 * type (page.server.ts progressTimeouts): the query door's for routing queries, the tools' and SSH's
 * for ping and traceroute.
 */
export const PROGRESS_TIMEOUT_SECONDS = 30;
export const STEP_SHRINK = 0.01;
/** The bar never reaches 100 % while the query runs. */
export const PROGRESS_CAP_PERCENT = 99;

export type Progress = { percent: number; stepPercent: number; running: boolean };

export function startProgress(timeoutSeconds: number = PROGRESS_TIMEOUT_SECONDS): Progress {
  const seconds = Number.isFinite(timeoutSeconds) && timeoutSeconds > 0 ? timeoutSeconds : PROGRESS_TIMEOUT_SECONDS;
  return { percent: 0, stepPercent: 100 / seconds, running: true };
}

/** The next tick, or the same progress once stopped. */
export function tickProgress(progress: Progress): Progress {
  if (!progress.running) return progress;
  return {
    percent: Math.min(PROGRESS_CAP_PERCENT, progress.percent + progress.stepPercent),
    stepPercent: progress.stepPercent * (1 - STEP_SHRINK),
    running: true,
  };
}

/** The status left Pending: the bar stops where it is (the screen resets it to 0 for an aborted or failed run). */
export function stopProgress(progress: Progress, options: { reset?: boolean } = {}): Progress {
  return { ...progress, percent: options.reset ? 0 : progress.percent, running: false };
}

/** The ends that reset the bar (spec §4): an abort (by the user, or a lost connection: NO_RESPONSE), or ping/traceroute jobs that could not be created (FAILED). */
const RESETTING_ENDS = new Set(["ABORTED", "NO_RESPONSE", "FAILED"]);

/** The bar once the status left Pending: reset to 0 for the ends above; any other end fills it. */
export function finishProgress(progress: Progress, status: string): Progress {
  if (!progress.running) return progress;
  return stopProgress({ ...progress, percent: RESETTING_ENDS.has(status) ? 0 : 100 });
}

export const IDLE_PROGRESS: Progress = { percent: 0, stepPercent: 0, running: false };
