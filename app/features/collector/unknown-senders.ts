/**
 * The one rule of the lists of senders the inventory does not know — the flow exporters and the
 * BMP sources the Data sources page offers to adopt: a sender stays listed while it was heard
 * within UNKNOWN_SENDERS_MAX_AGE_MS, and at most UNKNOWN_SENDERS_MAX of them, the most recently
 * heard. A scan or a flood of spoofed addresses would otherwise grow the page (and, for BMP, the
 * table behind it) without end, while a sender that keeps trying stays on top. Pure and isomorphic.
 */

/** Senders listed at most. */
export const UNKNOWN_SENDERS_MAX = 100;
/** How long after it was last heard a sender is still listed: a week, so one seen on Friday is there on Monday. */
export const UNKNOWN_SENDERS_MAX_AGE_MS = 7 * 24 * 3_600_000;

/** The last moment a sender may have been heard to be still listed at `now`. */
export const unknownSendersCutoff = (now: Date) => new Date(now.getTime() - UNKNOWN_SENDERS_MAX_AGE_MS);

/** The senders listed at `now`: heard since the cutoff, the most recently heard first, at most UNKNOWN_SENDERS_MAX. */
export function listedUnknownSenders<T extends { lastSeen: Date }>(senders: readonly T[], keyOf: (sender: T) => string, now: Date): T[] {
  const cutoff = unknownSendersCutoff(now).getTime();
  return senders
    .filter((s) => s.lastSeen.getTime() >= cutoff)
    .sort((a, b) => b.lastSeen.getTime() - a.lastSeen.getTime() || keyOf(a).localeCompare(keyOf(b)))
    .slice(0, UNKNOWN_SENDERS_MAX);
}
