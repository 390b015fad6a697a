import { users } from "~db/postgres/schema";
import type { Services } from "~/server/services.server";

/** A consented superuser (also staff) without a usable password: its id, for sessionCookie(). */
export async function insertSuperuser(services: Pick<Services, "pg">, email: string): Promise<number> {
  const [row] = await services.pg.db
    .insert(users)
    .values({
      email,
      firstName: "Admin",
      passwordHash: "unused",
      isSuperuser: true,
      isStaff: true,
      hasConsented: true,
      consentedAt: new Date(),
    })
    .returning({ id: users.id });
  return row.id;
}
