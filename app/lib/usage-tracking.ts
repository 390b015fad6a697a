import { csrfHeader } from "./api-client";

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
    return { status: response.ok ? "ok" : "error" };
  } catch {
    return { status: "error" };
  }
}
