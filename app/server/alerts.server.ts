/**
 * The team-chat alert: client error reports (api/error_report/) and unexpected server failures (the
 * 500s of endpoint()) are posted to an incoming webhook — ALERT_WEBHOOK_URL, or ALERT_WEBHOOK_TEST_URL
 * for requests made to ALERT_WEBHOOK_TEST_HOST — by the server, so the webhook's credentials never
 * reach a browser. Alerts of the same kind, message and path within one second are one post with
 * their count (the first post leaves about a second after the first event); at most
 * ALERT_WEBHOOK_HOURLY_CAP posts an hour. Posts go through the outbox (outbox.server.ts): a webhook
 * that is down is tried again. Raising an alert never blocks or fails a request.
 *
 * What a post carries: the message (credentials-looking parts and query strings removed), the URL
 * path without its query, the release and the count — never cookies, tokens, headers or bodies.
 */
import { and, count, gte } from "drizzle-orm";
import { outboxWebhooks } from "~db/postgres/schema";
import packageJson from "../../package.json";
import type { AppConfig } from "./env.server";
import { log, logValue } from "./log.server";
import { deliverWebhook } from "./outbox.server";
import type { Db } from "./postgres.server";

/** How long events are gathered into one post. */
export const ALERT_DEBOUNCE_MS = 1000;
/** Longest message in a post (characters). */
const MESSAGE_MAX = 500;

export type AlertKind = "client error" | "server error";

export type AlertEvent = {
  kind: AlertKind;
  message: string;
  /** The page or call the event happened on: a path or a full URL (only its path is kept). */
  url: string;
  /** Host the request was made to (decides between the main and the test webhook). */
  host: string;
};

export type WebhookTarget = "main" | "test";

/** What a post says: Slack- and Mattermost-compatible (`text`), the same facts as fields for other receivers. */
export type AlertPayload = {
  text: string;
  username: string;
  flowlens: { kind: AlertKind; message: string; path: string; release: string; count: number; first_seen: string; last_seen: string };
};

const SECRET_PATTERNS: [RegExp, string][] = [
  // Authorization headers and their schemes, wherever they appear in a message.
  [/\b(authorization|proxy-authorization)\s*[:=]\s*\S+(\s+\S+)?/gi, "$1: [redacted]"],
  [/\b(bearer|token|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, "$1 [redacted]"],
  // Cookies and credential-looking key=value pairs.
  [/\b(cookie|set-cookie)\s*[:=]\s*[^\n]*/gi, "$1: [redacted]"],
  [
    /\b(sessionid|csrftoken|csrf|x-csrftoken|password|passwd|secret|api[_-]?key|access[_-]?token|token)\s*[:=]\s*("[^"]*"|'[^']*'|[^\s&;,]+)/gi,
    "$1=[redacted]",
  ],
  // Query strings and fragments of URLs in the text.
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#"'<>]*|(?<![\w/])\/[^\s?#"'<>]*)[?#][^\s"'<>]*/gi, "$1"],
];

/** The message as it may be posted: credentials and query strings removed, one line per line, bounded. */
export function redactMessage(message: string): string {
  let text = message;
  for (const [pattern, replacement] of SECRET_PATTERNS) text = text.replace(pattern, replacement);
  text = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "").trim();
  return text.length > MESSAGE_MAX ? `${text.slice(0, MESSAGE_MAX - 1)}…` : text;
}

/** The path of a URL (absolute or relative), without query string and fragment. */
export function pathOf(url: string): string {
  try {
    return new URL(url, "http://path.invalid").pathname.slice(0, 300);
  } catch {
    return "";
  }
}

/** Which webhook an event on `host` goes to, or null when that webhook is not configured. */
export function webhookTargetFor(config: AppConfig, host: string): WebhookTarget | null {
  const testHost = config.ALERT_WEBHOOK_TEST_HOST;
  if (testHost && (host.toLowerCase() === testHost || host.toLowerCase().split(":")[0] === testHost)) {
    return config.ALERT_WEBHOOK_TEST_URL ? "test" : null;
  }
  return config.ALERT_WEBHOOK_URL ? "main" : null;
}

export function alertPayload(group: {
  kind: AlertKind;
  message: string;
  path: string;
  count: number;
  first: Date;
  last: Date;
}): AlertPayload {
  const release = packageJson.version;
  const times = group.count > 1 ? ` (${group.count} times)` : "";
  const title = group.kind === "server error" ? "Server error" : "Client error";
  return {
    text: `**${title}**${times} on \`${group.path || "/"}\` (release ${release}): ${group.message}`,
    username: "flowlens",
    flowlens: {
      kind: group.kind,
      message: group.message,
      path: group.path,
      release,
      count: group.count,
      first_seen: group.first.toISOString(),
      last_seen: group.last.toISOString(),
    },
  };
}

type Group = { target: WebhookTarget; kind: AlertKind; message: string; path: string; count: number; first: Date; last: Date };
type Batch = {
  db: Db;
  config: AppConfig;
  groups: Map<string, Group>;
  timer: ReturnType<typeof setTimeout>;
  done: Promise<void>;
  resolve: () => void;
};

// One batch per database (tests run several stores in one process); a batch is written one second after its first event.
const batches = new Map<Db, Batch>();
// Batches gathered or being written, for alertsSettled().
const unsettled = new Set<Promise<void>>();
let capWarnedAt = 0;

/**
 * Counts the event towards the next post of its webhook. Synchronous and never throws: the request
 * that raised it goes on at once.
 */
export function raiseAlert(db: Db, config: AppConfig, event: AlertEvent, now = new Date()): void {
  try {
    const target = webhookTargetFor(config, event.host);
    if (!target) return;
    const message = redactMessage(event.message);
    const path = pathOf(event.url);
    let batch = batches.get(db);
    if (!batch) {
      let resolve = () => {};
      const done = new Promise<void>((r) => (resolve = r));
      const created: Batch = {
        db,
        config,
        groups: new Map(),
        timer: setTimeout(() => void flush(created), ALERT_DEBOUNCE_MS),
        done,
        resolve,
      };
      created.timer.unref?.();
      batches.set(db, created);
      unsettled.add(done);
      void done.then(() => unsettled.delete(done));
      batch = created;
    }
    const key = JSON.stringify([target, event.kind, message, path]);
    const group = batch.groups.get(key);
    if (group) {
      group.count += 1;
      group.last = now;
    } else {
      batch.groups.set(key, { target, kind: event.kind, message, path, count: 1, first: now, last: now });
    }
  } catch (error) {
    log.error(`team-chat alert not raised: ${String(error)}`);
  }
}

async function flush(batch: Batch): Promise<void> {
  if (batches.get(batch.db) === batch) batches.delete(batch.db);
  try {
    const hourAgo = new Date(Date.now() - 3600_000);
    const [{ n }] = await batch.db
      .select({ n: count() })
      .from(outboxWebhooks)
      .where(and(gte(outboxWebhooks.createdAt, hourAgo)));
    let room = batch.config.ALERT_WEBHOOK_HOURLY_CAP - Number(n);
    for (const group of batch.groups.values()) {
      if (room <= 0) {
        if (Date.now() - capWarnedAt > 60_000) {
          capWarnedAt = Date.now();
          log.warn(
            `team-chat alert not posted (ALERT_WEBHOOK_HOURLY_CAP of ${batch.config.ALERT_WEBHOOK_HOURLY_CAP} reached): ${logValue(group.message)}`,
          );
        }
        continue;
      }
      room -= 1;
      const [row] = await batch.db
        .insert(outboxWebhooks)
        .values({ target: group.target, payload: alertPayload(group), attempts: 0, nextAttemptAt: null })
        .returning();
      await deliverWebhook(batch.db, batch.config, row);
    }
  } catch (error) {
    log.error(`team-chat alert could not be queued: ${String(error)}`);
  } finally {
    batch.resolve();
  }
}

/** Resolves when every alert raised so far is written to the outbox and tried once (tests; a clean shutdown). */
export async function alertsSettled(): Promise<void> {
  await Promise.all([...unsettled]);
}

/** Drops the alerts gathered for stores that close (nothing is written to a closed store). */
export function forgetAlerts(db: Db): void {
  const batch = batches.get(db);
  if (!batch) return;
  clearTimeout(batch.timer);
  batches.delete(db);
  batch.resolve();
}
