// The public /imprint and /privacy-policy pages: texts staff write in /site-settings, a notice until then, no login needed;
// and the migration that added their columns keeps an existing site_settings row.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groups, userGroups, users } from "~db/postgres/schema";
import { LEGAL_PAGES } from "~/lib/legal-pages";
import { MODERATORS_GROUP } from "~/lib/permissions";
import { PG_MIGRATIONS_DIR } from "~/server/postgres.server";
import { useServicesForTests } from "~/server/services.server";
import * as imprintPage from "~/routes/imprint";
import * as privacyPage from "~/routes/privacy-policy";
import * as siteSettingsPage from "~/routes/_app.site-settings";
import { formRequest, getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
let admin: string;
let moderator: string;

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const db = stores.pg.db;
  const [a] = await db
    .insert(users)
    .values({ email: "staff@legal.test", firstName: "S", isStaff: true, hasConsented: true })
    .returning({ id: users.id });
  const [m] = await db.insert(users).values({ email: "mod@legal.test", firstName: "M", hasConsented: true }).returning({ id: users.id });
  const moderators = (await db.select().from(groups)).find((g) => g.name === MODERATORS_GROUP)!;
  await db.insert(userGroups).values({ userId: m.id, groupId: moderators.id });
  admin = await sessionCookie(stores, a.id);
  moderator = await sessionCookie(stores, m.id);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

describe("public legal pages", () => {
  it("answer without a login and say the operator has not filled them in yet", async () => {
    const imprint = await runRoute(imprintPage.loader, getRequest("/imprint"));
    expect(imprint.status).toBe(200);
    expect(imprint.data).toEqual({ text: LEGAL_PAGES.imprint.placeholder, filledIn: false });
    const privacy = await runRoute(privacyPage.loader, getRequest("/privacy-policy"));
    expect(privacy.data).toEqual({ text: LEGAL_PAGES["privacy-policy"].placeholder, filledIn: false });
  });

  it("show the texts staff save in the site settings", async () => {
    const saved = await runRoute(
      siteSettingsPage.action,
      formRequest(
        "/site-settings",
        {
          intent: "legal",
          imprint_text: "# Operator\nflowlens Demo Carrier\n\n<script>alert(1)</script>",
          privacy_policy_text: "We keep logs 7 days.",
        },
        admin,
      ),
    );
    expect(saved.status).toBe(302);
    expect(saved.location).toBe("/site-settings?saved=legal");
    const imprint = await runRoute(imprintPage.loader, getRequest("/imprint"));
    expect(imprint.data).toEqual({ text: "# Operator\nflowlens Demo Carrier\n\n<script>alert(1)</script>", filledIn: true });
    const privacy = await runRoute(privacyPage.loader, getRequest("/privacy-policy"));
    expect(privacy.data).toEqual({ text: "We keep logs 7 days.", filledIn: true });
    const form = await runRoute(siteSettingsPage.loader, getRequest("/site-settings", admin));
    expect(form.data.legal).toEqual({
      imprint_text: "# Operator\nflowlens Demo Carrier\n\n<script>alert(1)</script>",
      privacy_policy_text: "We keep logs 7 days.",
    });
  });

  it("refuse moderators, NUL bytes and over-long texts", async () => {
    const byModerator = await runRoute(
      siteSettingsPage.action,
      formRequest("/site-settings", { intent: "legal", imprint_text: "x", privacy_policy_text: "y" }, moderator),
    );
    expect(byModerator.status).toBe(403);
    const nul = await runRoute(
      siteSettingsPage.action,
      formRequest("/site-settings", { intent: "legal", imprint_text: "a\u0000b", privacy_policy_text: "" }, admin),
    );
    // The form reader refuses NUL in any field before the action looks at it, naming the field.
    expect(nul.status).toBe(400);
    expect(nul.data.errors.map((e: { field: string }) => e.field)).toEqual(["imprint_text"]);
    const long = await runRoute(
      siteSettingsPage.action,
      formRequest("/site-settings", { intent: "legal", imprint_text: "", privacy_policy_text: "x".repeat(20_001) }, admin),
    );
    expect(long.status).toBe(400);
    expect(Object.keys(long.data.errors)).toEqual(["privacy_policy_text"]);
    const unchanged = await runRoute(privacyPage.loader, getRequest("/privacy-policy"));
    expect(unchanged.data.text).toBe("We keep logs 7 days.");
  });
});

describe("migration of the legal texts' columns", () => {
  it("keeps an existing site_settings row and gives it empty texts", async () => {
    // The migrations up to the one before the columns were added, in a folder of their own.
    const journalPath = path.join(PG_MIGRATIONS_DIR, "meta/_journal.json");
    const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
    const adding = journal.entries.findIndex((e) =>
      readFileSync(path.join(PG_MIGRATIONS_DIR, `${e.tag}.sql`), "utf8").includes('ADD COLUMN "imprint_text"'),
    );
    expect(adding).toBeGreaterThan(0);
    const previous = mkdtempSync(path.join(tmpdir(), "flowlens-migrations-"));
    try {
      cpSync(PG_MIGRATIONS_DIR, previous, { recursive: true });
      for (const file of readdirSync(previous))
        if (file.endsWith(".sql") && !journal.entries.slice(0, adding).some((e) => `${e.tag}.sql` === file))
          rmSync(path.join(previous, file));
      writeFileSync(path.join(previous, "meta/_journal.json"), JSON.stringify({ ...journal, entries: journal.entries.slice(0, adding) }));

      const client = new PGlite();
      const db = drizzle(client);
      await migrate(db, { migrationsFolder: previous });
      await client.query(
        `INSERT INTO site_settings (id, mandatory_2fa, welcome_page_enabled, as_name_of_deployment, enable_user_self_signup, public_looking_glass_enabled)
         VALUES (1, true, true, 'Example Carrier', true, true)`,
      );
      const before = await client.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'site_settings'`,
      );
      expect(before.rows.map((r) => r.column_name)).not.toContain("imprint_text");

      await migrate(db, { migrationsFolder: PG_MIGRATIONS_DIR });
      const after = await client.query(`SELECT * FROM site_settings`);
      expect(after.rows).toHaveLength(1);
      expect(after.rows[0]).toMatchObject({
        id: 1,
        mandatory_2fa: true,
        welcome_page_enabled: true,
        as_name_of_deployment: "Example Carrier",
        enable_user_self_signup: true,
        public_looking_glass_enabled: true,
        imprint_text: "",
        privacy_policy_text: "",
      });
      await client.close();
    } finally {
      rmSync(previous, { recursive: true, force: true });
    }
  }, 120_000);
});
