/**
 * The team-chat alert against a local HTTP receiver: basic authentication, one post per burst with
 * its count, redaction (no query string, token, cookie or session in the post), a 500 of endpoint()
 * posted and the limiter's 429 not, the test host's own webhook, the hourly cap, and the outbox
 * sweeper posting an alert (and retrying a mail) after the receiver was down.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxEmails, outboxWebhooks, users } from "~db/postgres/schema";
import * as errorReport from "~/routes/api.error_report";
import * as errorTest from "~/routes/api.error.$secret";
import { alertsSettled, redactMessage } from "~/server/alerts.server";
import { sendMail } from "~/server/mail/mailer.server";
import { OUTBOX_MAX_ATTEMPTS, nextAttemptAfter, sweepOutbox } from "~/server/outbox.server";
import { useServicesForTests } from "~/server/services.server";
import packageJson from "../../package.json";
import { CSRF_TOKEN, callRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

type Received = { path: string; authorization: string | undefined; body: { text: string; flowlens: Record<string, unknown> }; at: number };

let received: Received[] = [];
let server: Server;
let port: number;
let stores: TestStores;
const SECRET = "raise-an-error-0123";
const TEST_HOST = "flowlens-staging.test";

function listen(onPort = 0): Promise<Server> {
  const s = createServer((request: IncomingMessage, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    request.on("end", () => {
      received.push({ path: request.url ?? "", authorization: request.headers.authorization, body: JSON.parse(text), at: Date.now() });
      response.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    });
  });
  return new Promise((resolve) => s.listen(onPort, "127.0.0.1", () => resolve(s)));
}

const close = (s: Server) => new Promise<void>((resolve) => s.close(() => resolve()));

async function userCookie(email: string): Promise<string> {
  const [row] = await stores.pg.db
    .insert(users)
    .values({ email, firstName: "Ana", passwordHash: "unused", hasConsented: true, consentedAt: new Date() })
    .returning({ id: users.id });
  const cookie = await sessionCookie(stores, row.id);
  return cookie;
}

beforeAll(async () => {
  server = await listen();
  port = (server.address() as AddressInfo).port;
  stores = await openTestStores({
    env: {
      ALERT_WEBHOOK_URL: `http://127.0.0.1:${port}/hooks/main`,
      ALERT_WEBHOOK_USER: "flowlens-alerts",
      ALERT_WEBHOOK_PASSWORD: "s3cret pass",
      ALERT_WEBHOOK_TEST_URL: `http://127.0.0.1:${port}/hooks/test`,
      ALERT_WEBHOOK_TEST_HOST: TEST_HOST,
      ALERT_WEBHOOK_HOURLY_CAP: "7",
      ERROR_PAGE_SECRET: SECRET,
    },
  });
  useServicesForTests(stores);
}, 120_000);

afterAll(async () => {
  await alertsSettled();
  await close(server);
  await stores?.dispose();
});

describe("the team-chat alert", () => {
  it("posts a burst of the same client error once, with basic authentication, its count and nothing secret", async () => {
    const cookie = await userCookie("burst@example.org");
    const sessionValue = /flowlens_session=([^;]+)/.exec(cookie)?.[1] ?? "";
    const started = Date.now();
    for (let i = 0; i < 4; i++) {
      const r = await callRoute(errorReport, "/api/error_report/", {
        method: "POST",
        cookie,
        body: {
          message: "TypeError: boom with Bearer abcdefghijklmnop and sessionid=hunter2 at https://x.example/a?token=qwertyuiop",
          stacktrace: "at secretFunction (app.js:1:2)",
          url: "/flow-explorer?filter=src%20ip%2010.0.0.1&token=zzz#frag",
        },
      });
      expect(r.status).toBe(200);
    }
    // Nothing is posted while the burst lasts.
    expect(received).toHaveLength(0);
    await alertsSettled();
    expect(received).toHaveLength(1);
    const [post] = received;
    expect(post.at - started).toBeLessThan(5000);
    expect(post.path).toBe("/hooks/main");
    expect(post.authorization).toBe(`Basic ${Buffer.from("flowlens-alerts:s3cret pass").toString("base64")}`);
    expect(post.body.flowlens).toMatchObject({ kind: "client error", path: "/flow-explorer", release: packageJson.version, count: 4 });
    expect(post.body.text).toContain("/flow-explorer");
    expect(post.body.text).toContain("TypeError: boom");
    const all = JSON.stringify(post.body);
    for (const secret of [
      "abcdefghijklmnop",
      "hunter2",
      "qwertyuiop",
      "token=",
      "filter",
      "10.0.0.1",
      "frag",
      "secretFunction",
      CSRF_TOKEN,
    ])
      expect([secret, all.includes(secret)]).toEqual([secret, false]);
    expect(sessionValue.length).toBeGreaterThan(8);
    expect(all).not.toContain(sessionValue);
  });

  it("posts a 500 of endpoint() and not the limiter's 429", async () => {
    received = [];
    const cookie = await userCookie("limited@example.org");
    const fail = await callRoute(errorTest, `/api/error/${SECRET}/?token=abc123456789`, { cookie, params: { secret: SECRET } });
    expect(fail.status).toBe(500);
    const statuses: number[] = [];
    for (let i = 0; i < 13; i++) {
      const r = await callRoute(errorReport, "/api/error_report/", {
        method: "POST",
        cookie,
        body: { message: "Loop error", url: "/rna" },
      });
      statuses.push(r.status);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    const accepted = statuses.filter((s) => s === 200).length;
    await alertsSettled();
    expect(received).toHaveLength(2);
    const server500 = received.find((r) => r.body.flowlens.kind === "server error");
    expect(server500?.body.flowlens).toMatchObject({ path: `/api/error/${SECRET}/`, count: 1 });
    expect(server500?.body.flowlens.message).toContain("TestError");
    expect(JSON.stringify(server500?.body)).not.toContain("abc123456789");
    // Only the reports that were accepted count: the ones the limiter refused are not in the post.
    expect(received.find((r) => r.body.flowlens.kind === "client error")?.body.flowlens.count).toBe(accepted);
  });

  it("sends what happens on the test host to the test webhook", async () => {
    received = [];
    const cookie = await userCookie("staging@example.org");
    const r = await callRoute(errorReport, "/api/error_report/", {
      method: "POST",
      cookie,
      origin: `http://${TEST_HOST}`,
      body: { message: "Staging only", url: "/welcome" },
    });
    expect(r.status).toBe(200);
    await alertsSettled();
    expect(received.map((p) => [p.path, p.body.flowlens.message])).toEqual([["/hooks/test", "Staging only"]]);
  });

  it("keeps an alert the receiver could not take and posts it when the sweeper finds it due", async () => {
    await close(server);
    received = [];
    const cookie = await userCookie("down@example.org");
    await callRoute(errorReport, "/api/error_report/", {
      method: "POST",
      cookie,
      body: { message: "While the chat was down", url: "/links" },
    });
    await alertsSettled();
    const [row] = (await stores.pg.db.select().from(outboxWebhooks)).filter(
      (r) => (r.payload as { flowlens: { message: string } }).flowlens.message === "While the chat was down",
    );
    expect(row.sentAt).toBeNull();
    expect(row.attempts).toBe(1);
    expect(row.error).toBeTruthy();
    expect(row.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());

    server = await listen(port);
    // Not due yet: nothing is tried.
    expect((await sweepOutbox(stores.pg.db, stores.config)).webhooks).toBe(0);
    const later = new Date(row.nextAttemptAt!.getTime() + 1000);
    expect((await sweepOutbox(stores.pg.db, stores.config, later)).webhooks).toBe(1);
    expect(received.map((p) => p.body.flowlens.message)).toEqual(["While the chat was down"]);
    const [sent] = await stores.pg.db.select().from(outboxWebhooks).where(eq(outboxWebhooks.id, row.id));
    expect(sent.sentAt).not.toBeNull();
    expect(sent.attempts).toBe(2);
    expect(sent.nextAttemptAt).toBeNull();
    // Sent once: a later sweep does not post it again.
    expect((await sweepOutbox(stores.pg.db, stores.config, new Date(later.getTime() + 3600_000))).webhooks).toBe(0);
    expect(received).toHaveLength(1);
  });

  it("posts no more than ALERT_WEBHOOK_HOURLY_CAP alerts an hour", async () => {
    received = [];
    const already = (await stores.pg.db.select().from(outboxWebhooks)).length;
    const room = 7 - already;
    expect(room).toBeGreaterThan(0);
    const cookie = await userCookie("capped@example.org");
    for (let i = 0; i < room + 2; i++) {
      await callRoute(errorReport, "/api/error_report/", { method: "POST", cookie, body: { message: `Distinct error ${i}`, url: "/rna" } });
    }
    await alertsSettled();
    expect(received).toHaveLength(room);
    expect((await stores.pg.db.select().from(outboxWebhooks)).length).toBe(7);
  });

  it("retries a mail whose SMTP server failed through the same sweeper", async () => {
    const previous = process.env.SMTP_URL;
    // A port nobody listens on: the connection is refused at once.
    const closed = await listen();
    const closedPort = (closed.address() as AddressInfo).port;
    await close(closed);
    process.env.SMTP_URL = `smtp://127.0.0.1:${closedPort}`;
    try {
      const result = await sendMail(stores.pg.db, { to: "ops@example.org", subject: "Retry me", text: "Body" });
      expect(result.status).toBe("failed");
      const [first] = await stores.pg.db.select().from(outboxEmails).where(eq(outboxEmails.id, result.id));
      expect(first.attempts).toBe(1);
      expect(first.nextAttemptAt).not.toBeNull();
      const swept = await sweepOutbox(stores.pg.db, stores.config, new Date(first.nextAttemptAt!.getTime() + 1000));
      expect(swept.mails).toBe(1);
      const [second] = await stores.pg.db.select().from(outboxEmails).where(eq(outboxEmails.id, result.id));
      expect(second.attempts).toBe(2);
      expect(second.sentAt).toBeNull();
      expect(second.nextAttemptAt!.getTime()).toBeGreaterThan(first.nextAttemptAt!.getTime());
    } finally {
      if (previous === undefined) delete process.env.SMTP_URL;
      else process.env.SMTP_URL = previous;
    }
  });
});

describe("what an alert may say", () => {
  it("removes credentials and query strings from a message", () => {
    expect(redactMessage("Authorization: Token 0123456789abcdef failed")).not.toContain("0123456789abcdef");
    expect(redactMessage("GET /api/flows/?src=10.0.0.1 failed")).toBe("GET /api/flows/ failed");
    expect(redactMessage("password=hunter22 rejected")).toBe("password=[redacted] rejected");
    expect(redactMessage("Cookie: sessionid=abc; csrftoken=def")).toBe("Cookie: [redacted]");
    expect(redactMessage("x".repeat(2000)).length).toBe(500);
  });

  it("backs off and gives up after the last attempt", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    expect(nextAttemptAfter(1, now)!.getTime() - now.getTime()).toBe(30_000);
    expect(nextAttemptAfter(2, now)!.getTime() - now.getTime()).toBe(60_000);
    expect(nextAttemptAfter(OUTBOX_MAX_ATTEMPTS - 1, now)!.getTime() - now.getTime()).toBeLessThanOrEqual(3600_000);
    expect(nextAttemptAfter(OUTBOX_MAX_ATTEMPTS, now)).toBeNull();
  });
});
