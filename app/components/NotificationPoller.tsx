import { notifications as toasts } from "@mantine/notifications";
import { useEffect } from "react";
import { createApiClient } from "~/lib/api-client";
import { NOTIFICATION_POLL_MS } from "~/lib/constants";
import { formatDateLong } from "~/lib/date-format";
import { newPopUps, poppedUpUpdates } from "~/lib/notification-popups";

type Item = { id: number; title: string; message: string; is_read: boolean; do_pop_up: boolean; created_at: string };

const SHOWN_KEY = "flowlens.notifications.shown";
const api = createApiClient();

/**
 * Polls auth/notifications/ every 60 s while the page is open (only rendered for logged-in users)
 * and pops up unread notifications flagged do_pop_up once (lib/notification-popups.ts: the server
 * is told, so no later page shows them again). Network errors are ignored, as the spec says. A
 * pop-up gives the notification's time in the user's timezone.
 */
export function NotificationPoller({ paused = false, timezone }: { paused?: boolean; timezone: string }) {
  useEffect(() => {
    if (paused) return;
    let cancelled = false;
    const shown = new Set<number>(JSON.parse(sessionStorage.getItem(SHOWN_KEY) ?? "[]"));
    const poll = async () => {
      try {
        // A GET: retried by the client; every failure is dropped (throwErrors: no toast), the next poll tries again.
        const body = await api.request<{ notifications: Item[] }>("auth/notifications/", {
          throwErrors: true,
          ignoreNetworkErrors: true,
          requestId: "notifications poll",
        });
        if (cancelled || !Array.isArray(body?.notifications)) return;
        const { show, more } = newPopUps(body.notifications, shown);
        for (const item of show) {
          shown.add(item.id);
          toasts.show({
            title: item.title,
            message: [item.message, formatDateLong(item.created_at, timezone)].filter(Boolean).join(" · "),
            autoClose: 10_000,
          });
        }
        for (const item of more) shown.add(item.id);
        if (more.length)
          toasts.show({
            title: `${more.length} more ${more.length === 1 ? "notification" : "notifications"}`,
            message: "They are listed on the Notifications page.",
            autoClose: 10_000,
          });
        sessionStorage.setItem(SHOWN_KEY, JSON.stringify([...shown].slice(-200)));
        const popped = [...show, ...more].map((item) => item.id);
        if (popped.length)
          await api.request("auth/notifications/", {
            method: "POST",
            body: poppedUpUpdates(popped),
            throwErrors: true,
            ignoreNetworkErrors: true,
            requestId: "notifications popped up",
          });
      } catch {
        // Network errors while fetching notifications are ignored (spec §4); so is a failed poll.
      }
    };
    void poll();
    const timer = window.setInterval(poll, NOTIFICATION_POLL_MS);
    return () => {
      cancelled = true;
      window.clearInterval(timer);
    };
  }, [paused, timezone]);
  return null;
}
