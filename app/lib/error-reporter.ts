/**
 * Client errors to the operators: uncaught errors (window "error") and unhandled rejections are
 * posted to api/error_report/ as { message, stacktrace, url } (shell §7), debounced 1000 ms
 * (ERROR_ALERT_DEBOUNCE_MS, shell §9 "error alert debounce").
 *
 * Not reported (shell §8, looking glass §8): network-level errors (the user's connection, not a
 * bug), chunk-load failures (a reload fixes them; they get their own notice, chunk-load.ts) and
 * the browser's 'ResizeObserver loop' message (harmless, fired by layout code of the browser);
 * nor aborted calls, which the app cancels on purpose.
 *
 * Debounce: the first error of a burst is kept and sent once the page has been quiet for the
 * debounce time (the first is usually the cause, the rest its consequences); a page that keeps
 * failing is still reported after at most MAX_WAIT_FACTOR debounce periods, so a loop is not
 * silenced for ever. The server throttles reports per user as well (error-report-limit.server).
 *
 * Never loops: a report that fails (network, 4xx, 5xx) is dropped silently — its rejection is
 * caught here, so it cannot become an unhandled rejection that is reported in turn.
 */
import { csrfHeader, isAbortError } from "./api-client";
import { isChunkLoadError } from "./chunk-load";
import { ERROR_ALERT_DEBOUNCE_MS } from "./constants";
import { classifyStartupError } from "./startup-error";

export type ClientErrorReport = { message: string; stacktrace: string; url: string };

/** The limits of api/error_report/'s body (errorReportBodySchema): a longer text would be refused. */
const LIMITS = { message: 2000, stacktrace: 20_000, url: 2000 } as const;
const MAX_WAIT_FACTOR = 5;
const RESIZE_OBSERVER_LOOP = /ResizeObserver loop/i;

const textOf = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : typeof error === "string" ? error : "";

/** Whether an error belongs in a report (see the module's comment for what does not). */
export function isReportable(error: unknown, message: string = textOf(error)): boolean {
  // Network failures are told by their text: a TypeError alone is as often a bug ("Cannot read
  // properties of undefined") as a failed fetch.
  if (isAbortError(error)) return false;
  const text = `${textOf(error)} ${message}`;
  if (RESIZE_OBSERVER_LOOP.test(text)) return false;
  if (isChunkLoadError(error) || isChunkLoadError(message)) return false;
  if (classifyStartupError(message) === "network" || classifyStartupError(error) === "network") return false;
  return true;
}

// Line breaks and tabs stay; other control characters are refused by the endpoint.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const clip = (text: string, max: number) => text.replace(CONTROL, " ").slice(0, max);

/** The report's body for an error, within the endpoint's limits. */
export function reportOf(error: unknown, message: string, url: string): ClientErrorReport {
  const stack = error instanceof Error && typeof error.stack === "string" ? error.stack : "";
  let text = message || textOf(error);
  if (!text && error !== undefined) {
    try {
      text = JSON.stringify(error) ?? String(error);
    } catch {
      text = String(error);
    }
  }
  return {
    // Trimmed after the control characters became spaces: the endpoint trims the message too.
    message: clip(text, LIMITS.message).trim() || "Unknown error",
    stacktrace: clip(stack, LIMITS.stacktrace),
    url: clip(url, LIMITS.url),
  };
}

type Timers = { set: (fn: () => void, ms: number) => unknown; clear: (handle: unknown) => void };
const realTimers: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };

export function createErrorReporter(options: {
  send: (report: ClientErrorReport) => Promise<unknown>;
  pageUrl: () => string;
  debounceMs?: number;
  timers?: Timers;
  now?: () => number;
}) {
  const debounceMs = options.debounceMs ?? ERROR_ALERT_DEBOUNCE_MS;
  const timers = options.timers ?? realTimers;
  const now = options.now ?? Date.now;
  let kept: ClientErrorReport | null = null;
  let burstStart = 0;
  let timer: unknown = null;

  function flush() {
    timer = null;
    const report = kept;
    kept = null;
    if (!report) return;
    try {
      // A failing report is dropped: reporting it would loop.
      options.send(report).catch(() => {});
    } catch {
      // send threw synchronously: same rule.
    }
  }

  return {
    /** Takes an error; returns whether it counts for a report. */
    capture(error: unknown, message?: string): boolean {
      const text = message ?? textOf(error);
      if (!isReportable(error, text)) return false;
      if (!kept) {
        kept = reportOf(error, text, options.pageUrl());
        burstStart = now();
      }
      if (timer !== null) timers.clear(timer);
      const left = burstStart + debounceMs * MAX_WAIT_FACTOR - now();
      timer = timers.set(flush, Math.max(0, Math.min(debounceMs, left)));
      return true;
    },
    flush,
  };
}

/** POST api/error_report/ with the headers every JSON call of the client sends (CSRF, version). */
export async function sendErrorReport(report: ClientErrorReport): Promise<void> {
  // Plain fetch, not the api-client: no retries and no network-error toast for a report.
  const response = await fetch("/api/error_report/", {
    method: "POST",
    headers: { Accept: "application/json; version=17", "Content-Type": "application/json", ...csrfHeader() },
    body: JSON.stringify(report),
    credentials: "same-origin",
  });
  // Read the short answer to the end, so the connection is free for the page's next call.
  await response.text();
  if (!response.ok) throw new Error(`error report refused: ${response.status}`);
}

/**
 * Listens to the window's uncaught errors and unhandled rejections. `onChunkFailure` gets the
 * chunk-load errors instead (they are shown, not reported). Returns the function that stops.
 */
export function installErrorReporting(
  target: Window,
  options: { send?: (report: ClientErrorReport) => Promise<unknown>; onChunkError?: (error: unknown) => void } = {},
): () => void {
  const reporter = createErrorReporter({ send: options.send ?? sendErrorReport, pageUrl: () => target.location.href });
  const onError = (event: ErrorEvent) => {
    if (isChunkLoadError(event.error) || isChunkLoadError(event.message)) options.onChunkError?.(event.error ?? event.message);
    else reporter.capture(event.error ?? event.message, event.message || undefined);
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    if (isChunkLoadError(event.reason)) options.onChunkError?.(event.reason);
    else reporter.capture(event.reason);
  };
  target.addEventListener("error", onError);
  target.addEventListener("unhandledrejection", onRejection);
  return () => {
    target.removeEventListener("error", onError);
    target.removeEventListener("unhandledrejection", onRejection);
  };
}
