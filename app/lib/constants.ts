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
/**
 * The generic client's retries (looking glass §8): 3 more attempts of an idempotent call. The cap
 * on a Retry-After wait is ours: the query limits answer with a few seconds, and a longer wait
 * leaves the screen looking dead; past it the call fails and the screen says so.
 */
export const CLIENT_RETRY = { maxRetries: 3, maxRetryAfterMs: 30_000 } as const;
/** A script or stylesheet of the app that has not loaded after this long counts as failed (looking glass §9). */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const BROWSER_MINIMUMS = { chrome: 129, chromium: 129, firefox: 128 } as const;
