/** Business constants of the spec (shell §9, looking glass §9). */
export const NOTIFICATION_POLL_MS = 60_000;
export const THRESHOLD_DEBOUNCE_MS = 500;
export const METADATA_BATCH_DELAY_MS = 10;
export const HTTP_TIMEOUT_MS = 1_800_000;
export const REQUEST_HISTORY_SIZE = 30;
export const ERROR_ALERT_DEBOUNCE_MS = 1000;
export const TOP_TRACKED_ASES = 200;
export const PERCENT_DIFFERENCE_CUTOFF = 1000;
export const SECOND_CLIENT_RETRY = { initialDelayMs: 200, maxDelayMs: 3000 } as const;
export const BROWSER_MINIMUMS = { chrome: 129, chromium: 129, firefox: 128 } as const;
