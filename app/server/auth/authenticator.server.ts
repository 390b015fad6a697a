import { eq, sql } from "drizzle-orm";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { users } from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import { verifyPassword } from "../password.server";
import { getServices } from "../services.server";
import { clientAddress } from "./session.server";
import { loginThrottle, recordLoginAttempt } from "./throttle.server";

export class InvalidCredentialsError extends Error {
  readonly status: number = 401;
  constructor(message: string = MESSAGES.wrongCredentials) {
    super(message);
    this.name = "InvalidCredentialsError";
  }
}

/** Too many failures for the account or the address: refused before the password is checked. */
export class LoginThrottledError extends InvalidCredentialsError {
  readonly status = 429;
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many failed login attempts. Please wait ${Math.ceil(retryAfterSeconds / 60)} minutes and try again.`);
    this.name = "LoginThrottledError";
  }
}

// A hash of a random password: unknown accounts cost the same scrypt time as known ones,
// so response times do not reveal which e-mail addresses exist.
const DUMMY_HASH = "scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==";

/** Checks e-mail and password (throttled per account and address); returns the user id. */
export async function checkCredentials(request: Request, emailInput: string, password: string): Promise<{ id: number }> {
  const email = emailInput.trim().toLowerCase();
  const address = clientAddress(request);
  const { pg } = await getServices();
  const throttle = await loginThrottle(pg.db, email, address);
  if (throttle.blocked) throw new LoginThrottledError(throttle.retryAfterSeconds);
  const [user] = email ? await pg.db.select().from(users).where(eq(sql`lower(${users.email})`, email)) : [];
  const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  const succeeded = Boolean(user && valid && user.isActive);
  await recordLoginAttempt(pg.db, email, address, succeeded);
  if (!succeeded || !user) throw new InvalidCredentialsError();
  await pg.db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, user.id));
  return { id: user.id };
}

export const authenticator = new Authenticator<{ id: number }>();

authenticator.use(
  new FormStrategy(({ form, request }) => checkCredentials(request, String(form.get("email") ?? ""), String(form.get("password") ?? ""))),
  "password",
);
