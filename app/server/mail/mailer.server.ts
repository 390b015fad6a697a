import { eq } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import { outboxEmails } from "~db/postgres/schema";
import { log } from "../log.server";
import { nextAttemptAfter } from "../outbox.server";
import type { Db } from "../postgres.server";

export type Mail = { to: string; subject: string; text: string };

/** What became of a message: always in the outbox; sent, failed (error recorded) or only queued. */
export type MailResult = { id: number; status: "sent" | "failed" | "queued"; error?: string };

// The same default as SMTP_FROM in the configuration schema (app/server/env.server.ts).
const DEFAULT_FROM = "flowlens <noreply@flowlens.invalid>";

/**
 * SMTP delivery settings, read on every call (the environment may change between tests); the
 * values were validated by the configuration schema at start-up.
 */
function smtpSettings(): { url: string | null; from: string } {
  const url = process.env.SMTP_URL?.trim() || null;
  const from = process.env.SMTP_FROM?.trim() || DEFAULT_FROM;
  return { url, from };
}

const transports = new Map<string, Transporter>();

function transportFor(url: string): Transporter {
  let transport = transports.get(url);
  if (!transport) {
    // Bounded waits: a mail server that does not answer must not hold a request for minutes.
    // Options given in the URL's query (e.g. ?connectionTimeout=) take precedence.
    transport = nodemailer.createTransport({ url, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 });
    transports.set(url, transport);
  }
  return transport;
}

/** The SMTP URL without its password, for log lines. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable SMTP_URL)";
  }
}

async function deliver(db: Db, id: number, mail: Mail, previousAttempts = 0, now = new Date()): Promise<MailResult> {
  const { url, from } = smtpSettings();
  if (!url) {
    log.info(`mail to ${mail.to} queued in outbox (no SMTP_URL)`);
    return { id, status: "queued" };
  }
  try {
    await transportFor(url).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    await db
      .update(outboxEmails)
      .set({ sentAt: new Date(), error: null, attempts: previousAttempts + 1, nextAttemptAt: null })
      .where(eq(outboxEmails.id, id));
    log.info(`mail to ${mail.to} sent (outbox #${id})`);
    return { id, status: "sent" };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
    const attempts = previousAttempts + 1;
    const next = nextAttemptAfter(attempts, now);
    log.warn(
      `mail to ${mail.to} could not be sent through ${redact(url)}: ${message} (kept in outbox #${id}; ` +
        (next ? `next attempt ${next.toISOString()})` : "given up)"),
    );
    await db
      .update(outboxEmails)
      .set({ error: message, attempts, nextAttemptAt: next })
      .where(eq(outboxEmails.id, id))
      .catch((dbError: unknown) => log.error(`outbox #${id}: recording the SMTP error failed: ${String(dbError)}`));
    return { id, status: "failed", error: message };
  }
}

/**
 * Writes the message to outbox_emails, then sends it when SMTP_URL is set and records sent_at or
 * the error. SMTP failures never reach the caller (only a failing outbox insert does).
 *
 * `background: true` returns once the message is in the outbox and delivers afterwards, so a
 * response's timing does not depend on the mail server (password reset: whether an account
 * exists must not show in how long the answer takes).
 */
export async function sendMail(db: Db, mail: Mail, options: { background?: boolean } = {}): Promise<MailResult> {
  const [row] = await db
    .insert(outboxEmails)
    .values({ to: mail.to, subject: mail.subject, body: mail.text })
    .returning({ id: outboxEmails.id });
  const delivery = deliver(db, row.id, mail);
  if (options.background) {
    void delivery.catch(() => {});
    return { id: row.id, status: "queued" };
  }
  return delivery;
}

/** Tries a mail of the outbox once more (the outbox sweeper, after its SMTP server failed). */
export function retryMail(db: Db, row: typeof outboxEmails.$inferSelect, now = new Date()): Promise<MailResult> {
  return deliver(db, row.id, { to: row.to, subject: row.subject, text: row.body }, row.attempts, now);
}
