/** The three variants of the startup-failure page (shell §2). */
export type StartupErrorKind = "application" | "network" | "chunk";

const CHUNK_PATTERNS = [
  /Loading (CSS )?chunk [\w-]+ failed/i,
  /Failed to fetch dynamically imported module/i,
  /Importing a module script failed/i,
  /error loading dynamically imported module/i,
  /Unable to preload CSS/i,
];
const NETWORK_PATTERNS = [/Failed to fetch/i, /NetworkError/i, /Network request failed/i, /Load failed/i, /ECONNREFUSED/i];

export function classifyStartupError(error: unknown): StartupErrorKind {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : typeof error === "string" ? error : "";
  if (CHUNK_PATTERNS.some((p) => p.test(message))) return "chunk";
  if (NETWORK_PATTERNS.some((p) => p.test(message))) return "network";
  return "application";
}
