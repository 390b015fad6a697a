/**
 * Which notifications pop up, and where. Pure and isomorphic: the app frame's poller
 * (components/NotificationPoller.tsx) shows what this decides.
 *
 * Once: a notification flagged do_pop_up pops up once, not on every page. The poller tells the
 * server which ones it showed (auth/notifications/ with `do_pop_up: false`), so the next page, tab,
 * browser or device does not show them again; they stay in the list, unread, until the user marks
 * them. Until that call has gone through, the tab remembers what it showed (sessionStorage).
 *
 * Where: at the bottom right. At the top they covered the header's buttons (Notifications,
 * Settings, Log out) and, below 48em, the phone menu's button, i.e. the way to the notification
 * itself; the header holds every control at the top of every page. They lie below the header
 * (AppShell's z-index 100), so the phone menu, which opens from the header down to the bottom of a
 * small screen, is drawn over a pop-up and not covered by it.
 */
export const NOTIFICATION_POSITION = "bottom-right" as const;
export const NOTIFICATION_Z_INDEX = 99;

/**
 * At most this many pop-ups per poll, the rest summed up in one: a burst (several links crossing
 * their build-out threshold at once) would otherwise queue toasts for minutes.
 */
export const MAX_POPUPS_PER_POLL = 3;

type PopUpCandidate = { id: number; is_read: boolean; do_pop_up: boolean };

/** The new pop-ups of a poll: the first MAX_POPUPS_PER_POLL to show, and how many more there are. */
export function newPopUps<T extends PopUpCandidate>(items: readonly T[], shown: ReadonlySet<number>) {
  const fresh = items.filter((item) => !item.is_read && item.do_pop_up && !shown.has(item.id));
  return { show: fresh.slice(0, MAX_POPUPS_PER_POLL), more: fresh.slice(MAX_POPUPS_PER_POLL) };
}

/** The body of auth/notifications/ that marks notifications as popped up (shown, or summed up in "n more"). */
export function poppedUpUpdates(ids: readonly number[]): { id: number; do_pop_up: false }[] {
  return ids.map((id) => ({ id, do_pop_up: false }));
}
