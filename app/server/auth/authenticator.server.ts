import { setTimeout as sleep } from "node:timers/promises";
import { eq, sql } from "drizzle-orm";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { users } from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import { HASHING, HashingBusyError, verifyPassword } from "../password.server";
import { getServices } from "../services.server";
import { clientAddress } from "./session.server";
import { finishLoginAttempt, releaseLoginAttempt, reserveLoginAttempt } from "./throttle.server";

export class InvalidCredentialsError extends Error {
  readonly status: number = 401;
  constructor(message: string = MESSAGES.wrongCredentials) {
    super(message);
    this.name = "InvalidCredentialsError";
  }
}

/**
 * The right password for a deactivated account: its own message (with a contact link) instead of
 * the wrong-credentials text. Only the right password tells, so the account's state is no oracle.
 */
export class AccountDeactivatedError extends Error {
  readonly status = 403;
  constructor(readonly userId: number) {
    super(MESSAGES.accountDeactivated);
    this.name = "AccountDeactivatedError";
  }
}

/** Too many failures from this client (for the account, or at all): refused before the password is checked. */
export class LoginThrottledError extends InvalidCredentialsError {
  readonly status = 429;
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many failed login attempts. Please wait ${waitText(retryAfterSeconds)} and try again.`);
    this.name = "LoginThrottledError";
  }
}

/** The Retry-After header of a refused login (throttled, or the server busy hashing). */
export function retryAfterHeader(error: { retryAfterSeconds: number }): Record<string, string> {
  return { "Retry-After": String(error.retryAfterSeconds) };
}

function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

// A hash of a random password: unknown accounts cost the same scrypt time as known ones,
// so response times do not reveal which e-mail addresses exist.
export const DUMMY_HASH =
  "scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==";

/**
 * Checks e-mail and password; returns the user id. The attempt is counted before the password is
 * checked (reserveLoginAttempt: per account and client, per client, and an account-wide back-off),
 * and the check waits for a hashing slot — refused with HashingBusyError when too many anonymous
 * checks are already waiting. The same checks run for every account; only after them does the right
 * password for a deactivated account throw AccountDeactivatedError (counted as a failure: no login).
 */
export async function checkCredentials(request: Request, emailInput: string, password: string): Promise<{ id: number }> {
  const email = emailInput.trim().toLowerCase();
  const address = clientAddress(request);
  const { pg } = await getServices();
  const reservation = await reserveLoginAttempt(pg.db, email, address);
  if (!reservation.allowed) throw new LoginThrottledError(reservation.retryAfterSeconds);
  let succeeded = false;
  let deactivated = false;
  let userId: number | null = null;
  try {
    if (reservation.backoffMs > 0) await sleep(reservation.backoffMs);
    const [user] = email
      ? await pg.db
          .select()
          .from(users)
          .where(eq(sql`lower(${users.email})`, email))
      : [];
    const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH, { maxQueue: HASHING.anonymousQueue });
    succeeded = Boolean(user && valid && user.isActive);
    deactivated = Boolean(user && valid && !user.isActive);
    userId = user?.id ?? null;
  } catch (error) {
    // Not checked after all: the attempt does not count against the client.
    if (error instanceof HashingBusyError) await releaseLoginAttempt(pg.db, reservation.attemptId);
    throw error;
  }
  await finishLoginAttempt(pg.db, reservation.attemptId, succeeded, email, address);
  if (deactivated && userId !== null) throw new AccountDeactivatedError(userId);
  if (!succeeded || userId === null) throw new InvalidCredentialsError();
  await pg.db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, userId));
  return { id: userId };
}

export const authenticator = new Authenticator<{ id: number }>();

authenticator.use(
  new FormStrategy(({ form, request }) => checkCredentials(request, String(form.get("email") ?? ""), String(form.get("password") ?? ""))),
  "password",
);

/**
 * Runs the password strategy on a login form that was already read within the body limit
 * (readPageForm). The strategy reads the body itself, so it gets a fresh request with the same
 * headers (the client address travels in them) and the checked fields as its body.
 */
export function authenticateLoginForm(request: Request, form: FormData): Promise<{ id: number }> {
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  headers.delete("content-type");
  const body = new URLSearchParams();
  for (const [name, value] of form) if (typeof value === "string") body.append(name, value);
  return authenticator.authenticate("password", new Request(request.url, { method: "POST", headers, body }));
}
