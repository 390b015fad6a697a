/**
 * The demo logins printed at every start of an installation that holds the demo network, so whoever
 * started it can log in (README, "Demo users").
 */
import { eq, inArray } from "drizzle-orm";
import { systemState, users } from "~db/postgres/schema";
import type { Db } from "~/server/postgres.server";
import { printDemoCredentials } from "./load";
import { demoUsers } from "./users";

export async function isDemoLoaded(db: Db): Promise<boolean> {
  const [row] = await db.select().from(systemState).where(eq(systemState.key, "demo"));
  return Boolean(row && (row.value as { loaded?: boolean }).loaded);
}

/** The demo accounts that still exist (an operator may have removed them). */
export async function demoCredentials(db: Db) {
  const accounts = demoUsers(0);
  const existing = await db
    .select({ email: users.email })
    .from(users)
    .where(
      inArray(
        users.email,
        accounts.map((a) => a.email),
      ),
    );
  const present = new Set(existing.map((e) => e.email));
  return accounts.filter((a) => present.has(a.email)).map(({ kind, email, password }) => ({ kind, email, password }));
}

export async function printDemoCredentialsIfLoaded(db: Db): Promise<void> {
  if (await isDemoLoaded(db)) printDemoCredentials(await demoCredentials(db));
}
