import { isRouteErrorResponse } from "@remix-run/react";
import { isChunkLoadError } from "./chunk-load";

/** The three variants of the startup-failure page (shell §2). */
export type StartupErrorKind = "application" | "network" | "chunk";

const NETWORK_PATTERNS = [/Failed to fetch/i, /NetworkError/i, /Network request failed/i, /Load failed/i, /ECONNREFUSED/i];

export function classifyStartupError(error: unknown): StartupErrorKind {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : typeof error === "string" ? error : "";
  if (isChunkLoadError(message)) return "chunk";
  if (NETWORK_PATTERNS.some((p) => p.test(message))) return "network";
  return "application";
}

/**
 * A call of the running app that got no answer: fetch's TypeError in the browser ("Failed to
 * fetch", "NetworkError when attempting to fetch resource.", "Load failed"). Unlike a store the
 * server could not reach at start-up (ECONNREFUSED), the page was served, so the connection was
 * interrupted: shell §8's 'Network error' with its 'interrupted unexpectedly' text.
 */
export function isInterruptedConnection(error: unknown): boolean {
  return error instanceof TypeError && classifyStartupError(error) === "network";
}

/** A request the server refused (a 4xx answer with a `detail`, such as a NUL in a parameter): its status and reason, else null. */
export function requestRefusal(error: unknown): { status: number; detail: string } | null {
  if (!isRouteErrorResponse(error) || error.status < 400 || error.status >= 500) return null;
  const detail = (error.data as { detail?: unknown } | null)?.detail;
  return typeof detail === "string" ? { status: error.status, detail } : null;
}
