/**
 * PostgreSQL migration installation_reports (team-chat alert outbox, mail retries, error reports'
 * release and handled state, support messages' answer and done state) upgrades a data directory of the previous release: the test writes that
 * release's schema with error reports and mail in the outbox (one sent, one that failed, one kept
 * without SMTP_URL), starts the services on the same directory as the app does, and reads them back:
 * every report is unhandled with an empty release, no old mail is due for a retry (the sweeper does
 * not send mail the old release kept), and the webhook outbox is empty. A second start changes nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorReports, outboxEmails, outboxWebhooks, supportMessages } from "~db/postgres/schema";
import type { AppConfig } from "~/server/env.server";
import { sweepOutbox } from "~/server/outbox.server";
import { startServices, type Services } from "~/server/services.server";
import { pgMigrationsBefore, pgTablesCreatedFrom, expectRowsKept } from "../helpers/migrations";
import { openPreviousPostgres, pgSnapshot, rawPgOf, upgradeTestConfig } from "../helpers/previous-postgres";
import type { createThrowawayDatabase } from "../helpers/stores";

const MARKER = 'CREATE TABLE "outbox_webhooks"';

const PREVIOUS_ROWS = `
  INSERT INTO users (id, email, first_name, last_name, password_hash) VALUES (901, 'analyst@example.org', 'Ana', 'Lyst', 'scrypt$kept');
  INSERT INTO error_reports (user_id, message, stacktrace, url, created_at) VALUES
    (901, 'TypeError: x is undefined', 'at f (a.js:1:2)', '/flow-explorer', '2026-01-02T03:04:05Z'),
    (NULL, 'ReferenceError: y', '', '/rna', '2026-01-03T03:04:05Z');
  INSERT INTO outbox_emails ("to", subject, body, created_at, sent_at, error) VALUES
    ('a@example.org', 'Sent', 'Body', '2026-01-01T00:00:00Z', '2026-01-01T00:00:01Z', NULL),
    ('b@example.org', 'Failed', 'Body', '2026-01-01T00:00:00Z', NULL, 'connect ECONNREFUSED'),
    ('c@example.org', 'Kept', 'Body', '2026-01-01T00:00:00Z', NULL, NULL);
  INSERT INTO support_messages (user_id, type, message, created_at) VALUES (901, 'HELP', 'How do I export?', '2026-01-04T00:00:00Z');
`;

describe("upgrade of a data directory of the previous release (installation reports)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-upgrade-installation-reports-"));
  const previousPg = pgMigrationsBefore(MARKER);
  let database: Awaited<ReturnType<typeof createThrowawayDatabase>> | null = null;
  let config: AppConfig;
  let before: Record<string, string[]>;
  let services: Services;

  beforeAll(async () => {
    ({ config, database } = await upgradeTestConfig(dataDir));
    const pg = await openPreviousPostgres(config, previousPg);
    try {
      await pg.exec(PREVIOUS_ROWS);
      before = await pgSnapshot(pg);
    } finally {
      await pg.close();
    }
    expect(Object.keys(before)).not.toContain("outbox_webhooks");
    expect(before.error_reports).toHaveLength(2);
    services = await startServices(config);
  }, 180_000);

  afterAll(async () => {
    await services?.close();
    await database?.drop();
    for (const dir of [dataDir, previousPg]) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps the rows of the tables it does not change and adds the webhook outbox, empty", async () => {
    const after = await pgSnapshot(rawPgOf(services));
    expectRowsKept(before, after, ["error_reports", "outbox_emails", "support_messages"]);
    const added = pgTablesCreatedFrom(MARKER);
    expect(added).toContain("outbox_webhooks");
    expect(Object.keys(after).filter((t) => !(t in before))).toEqual(added);
    for (const table of added) expect([table, after[table]]).toEqual([table, []]);
  });

  it("keeps every error report, unhandled and without a release", async () => {
    const rows = await services.pg.db.select().from(errorReports).orderBy(asc(errorReports.id));
    expect(
      rows.map((r) => [r.userId, r.message, r.stacktrace, r.url, r.createdAt.toISOString(), r.release, r.handledAt, r.handledBy]),
    ).toEqual([
      [901, "TypeError: x is undefined", "at f (a.js:1:2)", "/flow-explorer", "2026-01-02T03:04:05.000Z", "", null, null],
      [null, "ReferenceError: y", "", "/rna", "2026-01-03T03:04:05.000Z", "", null, null],
    ]);
  });

  it("keeps every support message, open (not answered, not done)", async () => {
    const rows = await services.pg.db.select().from(supportMessages);
    expect(
      rows.map((r) => [r.userId, r.type, r.message, r.createdAt.toISOString(), r.answer, r.answeredAt, r.answeredBy, r.doneAt, r.doneBy]),
    ).toEqual([[901, "HELP", "How do I export?", "2026-01-04T00:00:00.000Z", null, null, null, null, null]]);
  });

  it("keeps the old mail as it was and retries none of it", async () => {
    const rows = await services.pg.db.select().from(outboxEmails).orderBy(asc(outboxEmails.id));
    expect(rows.map((r) => [r.to, r.subject, r.sentAt?.toISOString() ?? null, r.error, r.attempts, r.nextAttemptAt])).toEqual([
      ["a@example.org", "Sent", "2026-01-01T00:00:01.000Z", null, 0, null],
      ["b@example.org", "Failed", null, "connect ECONNREFUSED", 0, null],
      ["c@example.org", "Kept", null, null, 0, null],
    ]);
    const previous = process.env.SMTP_URL;
    process.env.SMTP_URL = "smtp://127.0.0.1:9";
    try {
      expect(await sweepOutbox(services.pg.db, services.config, new Date("2030-01-01T00:00:00Z"))).toEqual({ webhooks: 0, mails: 0 });
    } finally {
      if (previous === undefined) delete process.env.SMTP_URL;
      else process.env.SMTP_URL = previous;
    }
    expect(await services.pg.db.select().from(outboxWebhooks)).toEqual([]);
  });

  it("changes nothing when the upgraded directory starts again", async () => {
    const settled = await pgSnapshot(rawPgOf(services));
    await services.close();
    services = await startServices(config);
    expect(await pgSnapshot(rawPgOf(services))).toEqual(settled);
  }, 120_000);
});
