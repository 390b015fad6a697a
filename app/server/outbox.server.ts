/**
 * The outbox: mail (outbox_emails) and team-chat alerts (outbox_webhooks) are written to PostgreSQL
 * first and delivered afterwards. A delivery that fails is tried again by one sweeper for both,
 * after 30 s, 1, 2, 4 … minutes (at most an hour apart), OUTBOX_MAX_ATTEMPTS times in all. Replicas
 * share the rows: a row is claimed (its next attempt moved past the lease) before it is sent.
 */
import { and, asc, eq, isNotNull, isNull, lt, lte } from "drizzle-orm";
import { outboxEmails, outboxWebhooks } from "~db/postgres/schema";
import type { AppConfig } from "./env.server";
import type { BackgroundTask } from "./lifecycle.server";
import { log } from "./log.server";
import { retryMail } from "./mail/mailer.server";
import type { Db } from "./postgres.server";

export const OUTBOX_MAX_ATTEMPTS = 8;
/** How often the sweeper looks for deliveries due. */
export const OUTBOX_SWEEP_MS = 15_000;
/** How long a claimed row is left alone by other sweepers while it is being sent. */
const LEASE_MS = 120_000;
/** Longest wait for a webhook's answer. */
const WEBHOOK_TIMEOUT_MS = 10_000;
const ROWS_PER_SWEEP = 50;

/** When a delivery that failed for the `attempts`-th time is tried again; null: given up. */
export function nextAttemptAfter(attempts: number, now: Date): Date | null {
  if (attempts >= OUTBOX_MAX_ATTEMPTS) return null;
  const delay = Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3600_000);
  return new Date(now.getTime() + delay);
}

export type WebhookRow = typeof outboxWebhooks.$inferSelect;

function webhookSettings(config: AppConfig, target: WebhookRow["target"]): { url: string; authorization: string | null } | null {
  const url = target === "test" ? config.ALERT_WEBHOOK_TEST_URL : config.ALERT_WEBHOOK_URL;
  if (!url) return null;
  const user = config.ALERT_WEBHOOK_USER;
  const authorization = user ? `Basic ${Buffer.from(`${user}:${config.ALERT_WEBHOOK_PASSWORD ?? ""}`).toString("base64")}` : null;
  return { url, authorization };
}

/** The webhook's origin and path, for log lines (its path may hold a secret: only the host is named). */
function describeWebhook(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "(unparseable webhook URL)";
  }
}

/** Posts one alert and records the outcome (sent, or the error and the next attempt). Never throws. */
export async function deliverWebhook(db: Db, config: AppConfig, row: WebhookRow, now = new Date()): Promise<"sent" | "failed"> {
  const attempts = row.attempts + 1;
  const settings = webhookSettings(config, row.target);
  let error: string;
  if (!settings) {
    error = `the ${row.target === "test" ? "ALERT_WEBHOOK_TEST_URL" : "ALERT_WEBHOOK_URL"} is no longer configured`;
  } else {
    try {
      const headers: Record<string, string> = { "Content-Type": "application/json" };
      if (settings.authorization) headers.Authorization = settings.authorization;
      const response = await fetch(settings.url, {
        method: "POST",
        headers,
        body: JSON.stringify(row.payload),
        redirect: "error",
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      await response.body?.cancel().catch(() => {});
      if (response.ok) {
        await db
          .update(outboxWebhooks)
          .set({ sentAt: new Date(), error: null, attempts, nextAttemptAt: null })
          .where(eq(outboxWebhooks.id, row.id));
        return "sent";
      }
      error = `the webhook answered ${response.status}`;
    } catch (cause) {
      error = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    }
  }
  const next = settings ? nextAttemptAfter(attempts, now) : null;
  log.warn(
    `team-chat alert #${row.id} not posted${settings ? ` to ${describeWebhook(settings.url)}` : ""}: ${error}` +
      (next ? ` (next attempt ${next.toISOString()})` : " (given up)"),
  );
  await db
    .update(outboxWebhooks)
    .set({ error: error.slice(0, 2000), attempts, nextAttemptAt: next })
    .where(eq(outboxWebhooks.id, row.id))
    .catch((dbError: unknown) => log.error(`outbox webhook #${row.id}: recording the error failed: ${String(dbError)}`));
  return "failed";
}

/**
 * Tries once more every delivery that is due: alerts whose webhook failed, and mail whose SMTP server
 * failed (when SMTP_URL is set; mail kept because no SMTP_URL was set is not sent later). What was tried.
 */
export async function sweepOutbox(db: Db, config: AppConfig, now = new Date()): Promise<{ webhooks: number; mails: number }> {
  const lease = new Date(now.getTime() + LEASE_MS);
  const dueWebhooks = await db
    .select({ id: outboxWebhooks.id, nextAttemptAt: outboxWebhooks.nextAttemptAt })
    .from(outboxWebhooks)
    .where(and(isNull(outboxWebhooks.sentAt), isNotNull(outboxWebhooks.nextAttemptAt), lte(outboxWebhooks.nextAttemptAt, now)))
    .orderBy(asc(outboxWebhooks.id))
    .limit(ROWS_PER_SWEEP);
  let webhooks = 0;
  for (const due of dueWebhooks) {
    // Claimed only if no other sweeper moved its next attempt since it was read.
    const [row] = await db
      .update(outboxWebhooks)
      .set({ nextAttemptAt: lease })
      .where(and(eq(outboxWebhooks.id, due.id), eq(outboxWebhooks.nextAttemptAt, due.nextAttemptAt!), isNull(outboxWebhooks.sentAt)))
      .returning();
    if (!row) continue;
    webhooks += 1;
    await deliverWebhook(db, config, row, now);
  }
  let mails = 0;
  if (process.env.SMTP_URL?.trim()) {
    const dueMails = await db
      .select({ id: outboxEmails.id, nextAttemptAt: outboxEmails.nextAttemptAt })
      .from(outboxEmails)
      .where(
        and(
          isNull(outboxEmails.sentAt),
          isNotNull(outboxEmails.nextAttemptAt),
          lte(outboxEmails.nextAttemptAt, now),
          lt(outboxEmails.attempts, OUTBOX_MAX_ATTEMPTS),
        ),
      )
      .orderBy(asc(outboxEmails.id))
      .limit(ROWS_PER_SWEEP);
    for (const due of dueMails) {
      const [row] = await db
        .update(outboxEmails)
        .set({ nextAttemptAt: lease })
        .where(and(eq(outboxEmails.id, due.id), eq(outboxEmails.nextAttemptAt, due.nextAttemptAt!), isNull(outboxEmails.sentAt)))
        .returning();
      if (!row) continue;
      mails += 1;
      await retryMail(db, row, now);
    }
  }
  return { webhooks, mails };
}

let timer: ReturnType<typeof setInterval> | null = null;
let running: Promise<unknown> = Promise.resolve();

/** The sweeper, in every app process (replicas share the rows through their claims). */
export const outboxSweeperTask: BackgroundTask = {
  start: (services) => {
    if (timer) return;
    timer = setInterval(() => {
      running = running
        .then(() => sweepOutbox(services.pg.db, services.config))
        .catch((error: unknown) => log.error(`outbox sweep failed: ${String(error)}`));
    }, OUTBOX_SWEEP_MS);
    timer.unref?.();
  },
  stop: async () => {
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  },
};
