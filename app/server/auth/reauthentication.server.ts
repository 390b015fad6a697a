import { eq } from "drizzle-orm";
import { users } from "~db/postgres/schema";
import { REAUTH_HEADERS, REAUTH_MESSAGES } from "~/lib/reauthentication";
import { apiError } from "../api/contract.server";
import { verifyPassword } from "../password.server";
import type { Db } from "../postgres.server";
import { LoginThrottledError } from "./authenticator.server";
import { clientAddress } from "./session.server";
import { finishLoginAttempt, reserveLoginAttempt } from "./throttle.server";
import { FAILED_ATTEMPT_WINDOW_MS, secondFactorError, verifySecondFactor } from "./two-factor.server";

/**
 * Re-authentication for the changes that weaken an account's second factor (turning 2FA off,
 * replacing the recovery codes): a session alone is not enough, the user proves again who they are
 * with the current password or a current code (TOTP, or an unused recovery code, used up by this).
 * Wrong passwords count in the login throttle and wrong codes in the two-factor one, so a stolen
 * session cannot be used to guess either faster than the login screen allows.
 */

/** What the user typed: either may be empty. */
export type IdentityProof = { password: string; code: string };

export class ReauthenticationError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: "reauthentication_required" | "reauthentication_failed" | "reauthentication_throttled",
    /** Which of the two the message is about: the password, the code, or (missing) both. */
    readonly field: "password" | "code" | "both",
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "ReauthenticationError";
  }
}

/**
 * Checks the proof for the user; throws ReauthenticationError when it is missing (400), wrong (403)
 * or refused by a throttle (429). A password is checked when one is given, otherwise the code.
 */
export async function confirmIdentity(db: Db, request: Request, userId: number, proof: IdentityProof): Promise<void> {
  if (proof.password) return confirmPassword(db, request, userId, proof.password);
  if (proof.code.trim()) return confirmCode(db, request, userId, proof.code);
  throw new ReauthenticationError(REAUTH_MESSAGES.missing, 400, "reauthentication_required", "both");
}

async function confirmPassword(db: Db, request: Request, userId: number, password: string): Promise<void> {
  const [user] = await db.select({ email: users.email, passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  const email = (user?.email ?? "").trim().toLowerCase();
  const address = clientAddress(request);
  // Counted as a login attempt of this account from this client, before the password is checked.
  const reservation = await reserveLoginAttempt(db, email, address);
  if (!reservation.allowed) {
    const { message } = new LoginThrottledError(reservation.retryAfterSeconds);
    throw new ReauthenticationError(message, 429, "reauthentication_throttled", "password", reservation.retryAfterSeconds);
  }
  const valid = await verifyPassword(password, user?.passwordHash);
  await finishLoginAttempt(db, reservation.attemptId, valid, email, address);
  if (!valid) throw new ReauthenticationError(REAUTH_MESSAGES.wrong, 403, "reauthentication_failed", "password");
}

async function confirmCode(db: Db, request: Request, userId: number, code: string): Promise<void> {
  const result = await verifySecondFactor(db, userId, code, { clientAddress: clientAddress(request) });
  if (result.ok) return;
  if (result.reason === "throttled") {
    const { message } = secondFactorError(result);
    throw new ReauthenticationError(message, 429, "reauthentication_throttled", "code", FAILED_ATTEMPT_WINDOW_MS / 1000);
  }
  throw new ReauthenticationError(REAUTH_MESSAGES.wrong, 403, "reauthentication_failed", "code");
}

/** The proof an API call carries in its headers (never in the query string, which ends up in logs). */
export function identityProofFromHeaders(request: Request): IdentityProof {
  const encoded = request.headers.get(REAUTH_HEADERS.password) ?? "";
  let password: string;
  try {
    password = decodeURIComponent(encoded);
  } catch {
    throw new ReauthenticationError(REAUTH_MESSAGES.badEncoding, 400, "reauthentication_required", "password");
  }
  return { password, code: request.headers.get(REAUTH_HEADERS.code) ?? "" };
}

/** For JSON endpoints: the error as the contract's JSON answer, naming the header(s) concerned. */
export function reauthenticationResponse(error: ReauthenticationError): Response {
  const fields = error.field === "both" ? [REAUTH_HEADERS.password, REAUTH_HEADERS.code] : [REAUTH_HEADERS[error.field]];
  const response = apiError(error.status, error.message, {
    exception_code: error.code,
    errors: fields.map((field) => ({ field, message: error.message })),
  });
  if (error.retryAfterSeconds !== undefined) response.headers.set("Retry-After", String(Math.ceil(error.retryAfterSeconds)));
  return response;
}

/** Runs an API handler's re-authentication: the proof from the headers checked, or the error's JSON answer thrown. */
export async function requireIdentityForApi(db: Db, request: Request, userId: number): Promise<void> {
  try {
    await confirmIdentity(db, request, userId, identityProofFromHeaders(request));
  } catch (error) {
    if (error instanceof ReauthenticationError) throw reauthenticationResponse(error);
    throw error;
  }
}
