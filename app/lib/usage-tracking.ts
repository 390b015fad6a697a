import { csrfHeader } from "./api-client";
import { findToolRoute } from "./routes";

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/**
 * The browser's tracking call (spec: POST usertracking/interaction/ {target}): resolves
 * `{status: "ok"}`, or `{status: "error"}` on any failure (refused, offline, not consented) — never
 * throws and never shows a notice. `target` is a route path or a named action, never a URL with its query.
 */
export async function trackInteraction(
  target: string,
  fetchImpl: Fetch = (input, init) => fetch(input, init),
): Promise<{ status: "ok" | "error" }> {
  try {
    const response = await fetchImpl("/usertracking/interaction/", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", ...csrfHeader() },
      body: JSON.stringify({ target }),
    });
    // Read the short answer to the end: a fetch whose body is left unread stays open in the browser
    // (Chromium reports the request as loading until the body is consumed), so a screen view that
    // only looked at the status kept every screen's network busy.
    await response.text();
    return { status: response.ok ? "ok" : "error" };
  } catch {
    return { status: "error" };
  }
}

/**
 * What a screen view is tracked as: the screen's route path — a tool through its aliases under its
 * own path (/links is /core-planner) — never the URL: no query, no fragment, and nothing for a
 * route with parameters in its path (an id in a path is data, not a screen). Null: not tracked.
 */
export function screenViewTarget(pathname: string, hasParams: boolean): string | null {
  if (hasParams) return null;
  const tool = findToolRoute(pathname);
  if (tool) return tool.path;
  const path = pathname.replace(/\/+$/, "") || "/";
  return /^\/[a-z0-9._/-]*$/i.test(path) && path.length <= 120 ? path : null;
}

/**
 * Tracks a screen view (a route change) when the user gave consent; without it nothing is sent and
 * null is returned. Like trackInteraction: never throws, never shows a notice.
 */
export function trackScreenView(
  consented: boolean,
  pathname: string,
  hasParams: boolean,
  fetchImpl?: Fetch,
): Promise<{ status: "ok" | "error" }> | null {
  if (!consented) return null;
  const target = screenViewTarget(pathname, hasParams);
  if (target === null) return null;
  return trackInteraction(target, fetchImpl);
}
