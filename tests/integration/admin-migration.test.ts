/**
 * The migration that added the audit log and the delegated accounts' current restriction and
 * welcome text keeps the users and their restrictions of an existing installation.
 */
import { PGlite } from "@electric-sql/pglite";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { describe, expect, it } from "vitest";
import * as schema from "~db/postgres/schema";
import { listAudit, recordAudit } from "~/server/audit/audit-log.server";
import { PG_MIGRATIONS_DIR, type Db } from "~/server/postgres.server";
import { pgMigrationsBefore } from "../helpers/migrations";

describe("migration of users and delegation restrictions (audit log)", () => {
  it("keeps accounts and restrictions, starts each delegated account on its first restriction", async () => {
    const previous = pgMigrationsBefore('CREATE TABLE "audit_log"');
    const client = new PGlite();
    try {
      await migrate(drizzle(client), { migrationsFolder: previous });
      await client.exec(`
        INSERT INTO users (id, email, first_name, is_superuser, is_staff) VALUES (1, 'admin@example.net', 'Ada', true, true);
        INSERT INTO users (id, email, first_name, is_delegated, delegated_by_id) VALUES (2, 'noc@customer.example', 'Cy', true, 1);
        INSERT INTO delegation_restrictions (user_id, flows_views_restrictions, external_links_views_restrictions) VALUES
          (2, '[{"dimension":"AS_DST_INGRESS","constrained_values":["64501"],"output":"AS_SRC_INGRESS"}]',
              '{"ASNumberList":[64501],"routerList":["fra1-r1"],"interfaceList":[]}');
      `);
      const pglite = drizzle(client, { schema });
      await migrate(pglite, { migrationsFolder: PG_MIGRATIONS_DIR });
      const db = pglite as unknown as Db;

      const rows = await db.select().from(schema.delegationRestrictions).where(eq(schema.delegationRestrictions.userId, 2));
      expect(rows).toEqual([
        {
          userId: 2,
          flowsViewsRestrictions: [{ dimension: "AS_DST_INGRESS", constrained_values: ["64501"], output: "AS_SRC_INGRESS" }],
          externalLinksViewsRestrictions: { ASNumberList: [64501], routerList: ["fra1-r1"], interfaceList: [] },
          currentIndex: 0,
          welcomeText: "",
        },
      ]);
      expect((await db.select({ email: schema.users.email }).from(schema.users).orderBy(schema.users.id)).map((u) => u.email)).toEqual([
        "admin@example.net",
        "noc@customer.example",
      ]);

      await recordAudit(db, {
        actor: { id: 1, email: "admin@example.net" },
        action: "user.update",
        targetType: "user",
        targetId: 2,
        targetLabel: "noc@customer.example",
        before: { first_name: "Cy" },
        after: { first_name: "Cyd" },
      });
      // The entry outlives the actor's account.
      await db.delete(schema.users).where(eq(schema.users.id, 1));
      const { entries, total } = await listAudit(db, { targetType: "user", targetId: 2 });
      expect(total).toBe(1);
      expect(entries[0]).toMatchObject({
        actor_id: null,
        actor_email: "admin@example.net",
        action: "user.update",
        after: { first_name: "Cyd" },
      });
    } finally {
      await client.close();
    }
  });
});
