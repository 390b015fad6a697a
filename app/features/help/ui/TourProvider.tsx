import { Button, Group, Popover, Portal, Text, Title, VisuallyHidden } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useLocation, useNavigate, useNavigation } from "@remix-run/react";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { csrfHeader } from "~/lib/api-client";
import type { Tour, TourStatus } from "../tours";

/**
 * The guided tours' overlay (with JavaScript; the same text is the help page /help/<id> without it).
 * Built from Mantine's Popover (its floating-ui positioning, focus trap, Escape and return of focus) and
 * Portal, so no library is added to the bundle: a zero-size target is laid over the step's anchor
 * (the element with data-tour="<anchor>") and the step's card is placed beside it.
 *
 * Each step shown is recorded (Started with the step: the tour resumes there), the last one's Finish as
 * Finished; a step whose anchor does not appear on its screen ends the tour with a polite notice and
 * is recorded as Failed with the anchor, for staff. Escape or "End tour" closes the card and keeps the
 * tour Started at that step, to resume from the help button.
 */

export type TourStateLite = { tourId: string; status: TourStatus; step: number };

type TourContextValue = {
  /** The tours this user may take (catalogue ids). */
  available: readonly string[];
  statusOf: (id: string) => TourStateLite | undefined;
  start: (id: string, options?: { fromStart?: boolean }) => void;
  active: string | null;
};

const TourContext = createContext<TourContextValue | null>(null);

/** The tours of the page: null outside the logged-in frame (nothing to start then). */
export function useTours(): TourContextValue | null {
  return useContext(TourContext);
}

/** How long a step's screen may take to show its anchor (a navigation and a loader) before the tour counts as Failed. */
export const ANCHOR_WAIT_MS = 10_000;
const POLL_MS = 100;

/**
 * The status calls of each tour, one after the other: a step's Started sent just before the Finish must not reach
 * the server after it (two requests in flight arrive in any order), or the tour would stay Started.
 */
const pending = new Map<string, Promise<void>>();

function recordStatus(tourId: string, body: { status: TourStatus; step?: number; failedAnchor?: string }): Promise<void> {
  const next = (pending.get(tourId) ?? Promise.resolve()).then(() => postStatus(tourId, body));
  pending.set(tourId, next);
  void next.then(() => {
    if (pending.get(tourId) === next) pending.delete(tourId);
  });
  return next;
}

async function postStatus(tourId: string, body: { status: TourStatus; step?: number; failedAnchor?: string }): Promise<void> {
  try {
    const res = await fetch(`/usertracking/tours/${encodeURIComponent(tourId)}/`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...csrfHeader() },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    // Read to the end, so the request is over when the next one starts.
    await res.text();
  } catch {
    // The status is a convenience (resuming, the staff's list of failures): the tour goes on without it.
  }
}

function anchorElement(anchor: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-tour="${anchor}"]`);
}

/** Whether the page shown is the step's screen: same path, and the step's own query parameters present. */
function onScreen(target: string, location: { pathname: string; search: string }): boolean {
  const [path, query = ""] = target.split("?");
  if ((location.pathname.replace(/\/+$/, "") || "/") !== path) return false;
  const here = new URLSearchParams(location.search);
  return [...new URLSearchParams(query)].every(([k, v]) => here.getAll(k).includes(v));
}

type Running = { tour: Tour; index: number };

export function TourProvider({
  available,
  states,
  children,
}: {
  available: readonly string[];
  states: readonly TourStateLite[];
  children: ReactNode;
}) {
  const [known, setKnown] = useState<Record<string, TourStateLite>>(() => Object.fromEntries(states.map((s) => [s.tourId, s])));
  const [running, setRunning] = useState<Running | null>(null);
  useEffect(() => {
    setKnown((k) => ({ ...k, ...Object.fromEntries(states.map((s) => [s.tourId, s])) }));
  }, [states]);

  const remember = useCallback((s: TourStateLite) => setKnown((k) => ({ ...k, [s.tourId]: s })), []);

  const start = useCallback(
    (id: string, options: { fromStart?: boolean } = {}) => {
      if (!available.includes(id)) return;
      const previous = known[id];
      // The catalogue (every step's text) is loaded when a tour starts, not with every page: the pages' script budget.
      void import("../tours").then(({ findTour }) => {
        const tour = findTour(id);
        if (!tour) return;
        const index = !options.fromStart && previous?.status === "Started" ? Math.min(previous.step, tour.steps.length - 1) : 0;
        setRunning({ tour, index });
      });
    },
    [available, known],
  );

  const value = useMemo<TourContextValue>(
    () => ({ available, statusOf: (id) => known[id], start, active: running?.tour.id ?? null }),
    [available, known, start, running],
  );

  return (
    <TourContext.Provider value={value}>
      {children}
      {running ? (
        <TourStepOverlay
          key={`${running.tour.id}:${running.index}`}
          tour={running.tour}
          index={running.index}
          onMove={(index) => setRunning({ tour: running.tour, index })}
          onShown={(step) => {
            remember({ tourId: running.tour.id, status: "Started", step });
            void recordStatus(running.tour.id, { status: "Started", step });
          }}
          onEnd={(how, anchor) => {
            const id = running.tour.id;
            setRunning(null);
            if (how === "finished") {
              remember({ tourId: id, status: "Finished", step: running.index });
              void recordStatus(id, { status: "Finished", step: running.index });
            } else if (how === "failed") {
              remember({ tourId: id, status: "Failed", step: running.index });
              void recordStatus(id, { status: "Failed", step: running.index, failedAnchor: anchor });
              notifications.show({
                color: "yellow",
                title: running.tour.title,
                message: `This step cannot be shown: the screen has changed since the tour was written. The tour has ended and the problem was reported. Its help page /help/${id} still has every step.`,
              });
            }
          }}
        />
      ) : null}
    </TourContext.Provider>
  );
}

type Rect = { top: number; left: number; width: number; height: number };

function TourStepOverlay({
  tour,
  index,
  onMove,
  onShown,
  onEnd,
}: {
  tour: Tour;
  index: number;
  onMove: (index: number) => void;
  onShown: (step: number) => void;
  onEnd: (how: "finished" | "failed" | "closed", anchor?: string) => void;
}) {
  const step = tour.steps[index];
  const target = step.path ?? tour.path;
  const location = useLocation();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const [rect, setRect] = useState<Rect | null>(null);
  const element = useRef<HTMLElement | null>(null);
  const navigated = useRef(false);
  const shown = useRef(false);
  const last = index === tour.steps.length - 1;
  // The callbacks of the latest render, so the timers below are not restarted by the provider's renders.
  const end = useRef(onEnd);
  end.current = onEnd;
  const shownCallback = useRef(onShown);
  shownCallback.current = onShown;
  const shownAt = useRef<string | null>(null);

  // Open the step's screen when the page shown is another one.
  useEffect(() => {
    if (!navigated.current && !onScreen(target, location)) {
      navigated.current = true;
      navigate(target);
    }
  }, [target, location, navigate]);

  // Wait for the anchor (after the navigation settles), then lay the target over it; none in time: Failed.
  useEffect(() => {
    if (rect) return;
    const started = Date.now();
    const timer = setInterval(() => {
      if (navigation.state !== "idle" || !onScreen(target, window.location)) {
        if (Date.now() - started > ANCHOR_WAIT_MS) {
          clearInterval(timer);
          end.current("failed", step.anchor);
        }
        return;
      }
      const found = anchorElement(step.anchor);
      if (found) {
        clearInterval(timer);
        element.current = found;
        found.scrollIntoView({ block: "center", behavior: "auto" });
        setRect(measure(found));
      } else if (Date.now() - started > ANCHOR_WAIT_MS) {
        clearInterval(timer);
        end.current("failed", step.anchor);
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [rect, navigation.state, target, step.anchor]);

  // Follow the anchor when the page scrolls or resizes.
  useEffect(() => {
    if (!rect) return;
    const update = () => element.current && setRect(measure(element.current));
    window.addEventListener("resize", update);
    window.addEventListener("scroll", update, true);
    return () => {
      window.removeEventListener("resize", update);
      window.removeEventListener("scroll", update, true);
    };
  }, [rect !== null]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (rect && !shown.current) {
      shown.current = true;
      shownAt.current = window.location.pathname + window.location.search;
      shownCallback.current(index);
    }
  }, [rect, index]);

  // Escape ends the tour wherever the focus is (the card's own handler sees only keys pressed inside it), and the focus
  // moves into the card when it is not there yet (a step that replaced the previous one's card).
  useEffect(() => {
    if (!rect) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") end.current("closed");
    };
    window.addEventListener("keydown", onKey);
    const focus = window.setTimeout(() => {
      const card = document.querySelector<HTMLElement>("[data-testid=tour-step]");
      if (card && !card.contains(document.activeElement)) card.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }, 50);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.clearTimeout(focus);
    };
  }, [rect !== null]); // eslint-disable-line react-hooks/exhaustive-deps

  // Another page opened while the step is shown (a link, Back): the card would point at nothing, so it closes.
  useEffect(() => {
    if (shownAt.current !== null && shownAt.current !== location.pathname + location.search) end.current("closed");
  }, [location.pathname, location.search]);

  const titleId = `tour-step-title-${tour.id}`;
  const announcement = rect ? `${tour.title}, step ${index + 1} of ${tour.steps.length}: ${step.title}. ${step.body}` : "";
  return (
    <Portal>
      <VisuallyHidden aria-live="polite" aria-atomic="true" data-testid="tour-announcement">
        {announcement}
      </VisuallyHidden>
      {rect ? (
        <>
          <div
            aria-hidden
            data-testid="tour-highlight"
            style={{
              position: "absolute",
              top: rect.top - 4,
              left: rect.left - 4,
              width: rect.width + 8,
              height: rect.height + 8,
              border: "3px solid var(--mantine-color-blue-6)",
              borderRadius: 6,
              pointerEvents: "none",
              zIndex: 1000,
            }}
          />
          <Popover
            opened
            onClose={() => end.current("closed")}
            trapFocus
            returnFocus
            closeOnEscape
            closeOnClickOutside={false}
            position="bottom"
            withArrow
            shadow="md"
            width={360}
            zIndex={1001}
          >
            <Popover.Target>
              <div
                style={{
                  position: "absolute",
                  top: rect.top,
                  left: rect.left,
                  width: rect.width,
                  height: rect.height,
                  pointerEvents: "none",
                }}
              />
            </Popover.Target>
            <Popover.Dropdown
              role="dialog"
              aria-labelledby={titleId}
              aria-modal={false}
              data-testid="tour-step"
              data-tour-id={tour.id}
              data-step={index}
            >
              <Text size="xs" c="dimmed">
                {tour.title} · step {index + 1} of {tour.steps.length}
              </Text>
              <Title order={2} size="h5" id={titleId} mt={4}>
                {step.title}
              </Title>
              <Text size="sm" mt={6}>
                {step.body}
              </Text>
              <Group justify="space-between" mt="md" gap="xs">
                <Button size="xs" variant="subtle" onClick={() => onEnd("closed")}>
                  End tour
                </Button>
                <Group gap="xs">
                  {index > 0 ? (
                    <Button size="xs" variant="default" onClick={() => onMove(index - 1)}>
                      Back
                    </Button>
                  ) : null}
                  <Button size="xs" data-autofocus onClick={() => (last ? onEnd("finished") : onMove(index + 1))}>
                    {last ? "Finish" : "Next"}
                  </Button>
                </Group>
              </Group>
            </Popover.Dropdown>
          </Popover>
        </>
      ) : null}
    </Portal>
  );
}

function measure(el: HTMLElement): Rect {
  const r = el.getBoundingClientRect();
  return { top: r.top + window.scrollY, left: r.left + window.scrollX, width: r.width, height: r.height };
}
