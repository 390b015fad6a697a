import { eq, sql } from "drizzle-orm";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { users } from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import { verifyPassword } from "../password.server";
import { getServices } from "../services.server";

export class InvalidCredentialsError extends Error {
  constructor() {
    super(MESSAGES.wrongCredentials);
    this.name = "InvalidCredentialsError";
  }
}

// A hash of a random password: unknown accounts cost the same scrypt time as known ones,
// so response times do not reveal which e-mail addresses exist.
const DUMMY_HASH = "scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==";

export const authenticator = new Authenticator<{ id: number }>();

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const email = String(form.get("email") ?? "").trim().toLowerCase();
    const password = String(form.get("password") ?? "");
    const { pg } = await getServices();
    const [user] = email
      ? await pg.db.select().from(users).where(eq(sql`lower(${users.email})`, email))
      : [];
    const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !valid || !user.isActive) throw new InvalidCredentialsError();
    await pg.db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, user.id));
    return { id: user.id };
  }),
  "password",
);
