import { randomBytes, timingSafeEqual } from "node:crypto";
import { MESSAGES } from "~/lib/messages";
import { isHttps } from "./session.server";

/** Double-submit token: a readable cookie whose value JSON calls echo in X-CSRFToken and forms in a field. */
export const CSRF_COOKIE = "csrftoken";
export const CSRF_HEADER = "X-CSRFToken";
export const CSRF_FIELD = "csrfmiddlewaretoken";

export function readCsrfCookie(request: Request): string | null {
  const header = request.headers.get("Cookie") ?? "";
  const match = new RegExp(`(?:^|;\\s*)${CSRF_COOKIE}=([A-Za-z0-9_-]{20,})`).exec(header);
  return match ? match[1] : null;
}

export function newCsrfToken(): string {
  return randomBytes(24).toString("base64url");
}

/** The cookie carrying `token` to the browser of `request`: Secure over HTTPS, like the session cookie. */
export function csrfCookieHeader(token: string, request: { headers: { get(name: string): string | null }; url: string }): string {
  return `${CSRF_COOKIE}=${token}; Path=/; SameSite=Lax; Max-Age=31536000${isHttps(request) ? "; Secure" : ""}`;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class CsrfError extends Error {}

/** JSON mutations: the header must repeat the cookie. */
export function verifyCsrf(request: Request): void {
  const cookie = readCsrfCookie(request);
  const header = request.headers.get(CSRF_HEADER);
  if (!cookie || !header || !same(cookie, header)) {
    throw Response.json(
      { detail: `CSRF check failed: send the ${CSRF_COOKIE} cookie value in the ${CSRF_HEADER} header.`, exception_code: "csrf_failed" },
      { status: 403 },
    );
  }
}

/** Form posts: the hidden field must repeat the cookie. */
export function verifyCsrfForm(request: Request, form: FormData): void {
  const cookie = readCsrfCookie(request);
  const field = form.get(CSRF_FIELD);
  if (!cookie || typeof field !== "string" || !same(cookie, field)) {
    throw Response.json({ detail: MESSAGES.permissionDenied, exception_code: "csrf_failed" }, { status: 403 });
  }
}
