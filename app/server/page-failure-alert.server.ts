/**
 * Unexpected failures of the pages' loaders and actions (an exception, not an answer such as a
 * redirect, a 403 or the limiter's 429/503) are posted to the staff's team-chat alert, like the
 * 500s of endpoint(): the same debounce, cap, redaction and outbox (alerts.server.ts). Remix hands
 * them to entry.server.tsx's handleError, which calls reportPageFailure. A request the browser
 * abandoned (a navigation that moved on) is no failure and is not posted.
 */
import { isRouteErrorResponse } from "@remix-run/react";
import { raiseAlert } from "./alerts.server";
import { getServices } from "./services.server";

/** The page a document or data request is for: /flow-explorer.data (single fetch) is /flow-explorer, /_root.data is /. */
export function pagePathOf(url: URL): string {
  if (url.pathname === "/_root.data") return "/";
  return url.pathname.replace(/\.data$/, "") || "/";
}

/** Whether Remix passed an answer rather than a failure: a thrown Response, data() or an error response (404, 405, a 4xx). */
function isAnswer(error: unknown): boolean {
  if (error instanceof Response || isRouteErrorResponse(error)) return true;
  return typeof error === "object" && error !== null && (error as { type?: unknown }).type === "DataWithResponseInit";
}

/** Whether reportPageFailure posts this error of this request. */
export function isPageFailure(error: unknown, request: Request): boolean {
  return !request.signal.aborted && !isAnswer(error);
}

/** Raises the team-chat alert for a failed page loader or action; never throws, never waits. */
export function reportPageFailure(error: unknown, request: Request): Promise<void> {
  if (!isPageFailure(error, request)) return Promise.resolve();
  const url = new URL(request.url);
  const path = pagePathOf(url);
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return getServices()
    .then((services) =>
      raiseAlert(services.pg.db, services.config, {
        kind: "server error",
        message: `${request.method} ${path}: ${what}`,
        url: path,
        host: url.host,
      }),
    )
    .catch(() => {});
}
