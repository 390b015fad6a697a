import { log } from "../log.server";

/**
 * Links in mail (password reset, the link an accepted applicant gets, future invitations) point at
 * the origin from the configuration only: PUBLIC_URL when set, otherwise http://localhost:PORT.
 * Never the request's Host or X-Forwarded-Host: those are chosen by the client, and a reset link
 * built from them would hand a victim's token to a server of the attacker's choice.
 *
 * Read on every call (the values were validated by the configuration schema at start-up; tests
 * change them between cases).
 */
export function mailLinkOrigin(env: Record<string, string | undefined> = process.env): string {
  const configured = env.PUBLIC_URL?.trim();
  if (configured) return new URL(configured).origin;
  return `http://localhost:${env.PORT?.trim() || "3000"}`;
}

/** An absolute link for a mail: the configured origin, the path, and the query parameters. */
export function mailLink(path: string, params: Record<string, string> = {}, env: Record<string, string | undefined> = process.env): string {
  const url = new URL(path, mailLinkOrigin(env));
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

/** Said once at start-up: without PUBLIC_URL, mailed links only work on the server itself. */
export function warnIfMailLinksUnconfigured(env: Record<string, string | undefined> = process.env): void {
  if (env.PUBLIC_URL?.trim()) return;
  log.warn(
    `PUBLIC_URL is not set: links in mail (password reset, new accounts) point at ${mailLinkOrigin(env)}, ` +
      "which works only on this machine. Set PUBLIC_URL to the address users open, e.g. https://flowlens.example.net",
  );
}
