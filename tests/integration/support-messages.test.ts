/**
 * Support messages round trip: a user sends one with the form of /support (a form post, as without
 * JavaScript; bad input gives the form back with a 400 and what was typed), staff and superusers
 * read it on /site-settings/support-messages, answer it (a mail to the sender through the outbox,
 * quoting the message) and mark it as done (it moves to the done list); nobody else may.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxEmails, supportMessages, userSettings, users } from "~db/postgres/schema";
import * as supportApi from "~/routes/auth.support_message";
import * as staffRoute from "~/routes/_app.site-settings_.support-messages";
import * as formRoute from "~/routes/_app.support";
import { useServicesForTests } from "~/server/services.server";
import { callRoute, formRequest, getRequest, runRoute, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const STAFF = "/site-settings/support-messages";
let stores: TestStores;
const cookies = { admin: "", user: "" };

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const admin = await insertSuperuser(stores, "admin@example.org");
  const [{ id }] = await stores.pg.db
    .insert(users)
    .values({
      email: "ana@example.org",
      firstName: "Ana",
      lastName: "Lyst",
      passwordHash: "unused",
      hasConsented: true,
      consentedAt: new Date(),
    })
    .returning({ id: users.id });
  await stores.pg.db.insert(userSettings).values({ userId: admin, timezone: "UTC" }).onConflictDoNothing();
  cookies.admin = await sessionCookie(stores, admin);
  cookies.user = await sessionCookie(stores, id);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

describe("support messages", () => {
  it("offers the form with the type asked for, and refuses an empty message keeping what was typed", async () => {
    const page = await runRoute(formRoute.loader, getRequest("/support?type=BUG", cookies.user));
    expect(page.status).toBe(200);
    expect(page.data.type).toBe("BUG");
    expect(page.data.types.map((t: { label: string }) => t.label)).toEqual([
      "Report a bug",
      "Ask for help",
      "Feedback",
      "New user",
      "Feature request",
    ]);
    expect((await runRoute(formRoute.loader, getRequest("/support?type=%00", cookies.user))).status).toBe(400);
    expect((await runRoute(formRoute.loader, getRequest("/support?type=nonsense", cookies.user))).data.type).toBe("HELP");
    const empty = await runRoute(formRoute.action, formRequest("/support", { type: "BUG", message: "   " }, cookies.user));
    expect(empty.status).toBe(400);
    expect(empty.data).toEqual({ errors: { message: "Please write a message." }, values: { type: "BUG", message: "" } });
    const badType = await runRoute(formRoute.action, formRequest("/support", { type: "SPAM", message: "Hello" }, cookies.user));
    expect(badType.status).toBe(400);
    expect(badType.data.errors.type).toBe("Please choose what the message is about.");
    expect(await stores.pg.db.select().from(supportMessages)).toEqual([]);
  });

  it("goes from the form to the staff list, is answered by mail and marked as done", async () => {
    const sent = await runRoute(
      formRoute.action,
      formRequest("/support", { type: "BUG", message: "The chart is empty\non Mondays." }, cookies.user),
    );
    expect(sent.status).toBe(302);
    const [row] = await stores.pg.db.select().from(supportMessages);
    expect(sent.location).toBe(`/support?sent=${row.id}`);
    expect((await runRoute(formRoute.loader, getRequest(sent.location!, cookies.user))).data.sent).toBe(true);
    // The call the browser's client uses lands in the same list.
    const viaApi = await callRoute(supportApi, "/auth/support_message/", {
      method: "POST",
      cookie: cookies.user,
      body: { type: "FEEDBACK", message: "Nice." },
    });
    expect(viaApi.status).toBe(201);

    expect((await runRoute(staffRoute.loader, getRequest(STAFF, cookies.user))).status).toBe(403);
    expect((await runRoute(staffRoute.action, formRequest(STAFF, { intent: "done", id: String(row.id) }, cookies.user))).status).toBe(403);
    const list = await runRoute(staffRoute.loader, getRequest(STAFF, cookies.admin));
    expect(list.data.messages.map((m: { type: string; message: string; sender: string }) => [m.type, m.message, m.sender])).toEqual([
      ["Feedback", "Nice.", "Ana Lyst <ana@example.org>"],
      ["Report a bug", "The chart is empty\non Mondays.", "Ana Lyst <ana@example.org>"],
    ]);

    expect(
      (await runRoute(staffRoute.action, formRequest(STAFF, { intent: "answer", id: String(row.id), answer: " " }, cookies.admin))).status,
    ).toBe(400);
    expect(
      (await runRoute(staffRoute.action, formRequest(STAFF, { intent: "answer", id: "999999", answer: "x" }, cookies.admin))).status,
    ).toBe(404);
    const answered = await runRoute(
      staffRoute.action,
      formRequest(STAFF, { intent: "answer", id: String(row.id), answer: "Fixed in the next release." }, cookies.admin),
    );
    expect(answered.status).toBe(302);
    expect(answered.location).toBe(`${STAFF}?notice=answered`);
    // Written to the outbox before the answer: delivery (without SMTP_URL: none) comes after.
    const [mail] = await stores.pg.db.select().from(outboxEmails).where(eq(outboxEmails.to, "ana@example.org"));
    expect(mail.subject).toBe(`Re: your flowlens support message #${row.id} (Report a bug)`);
    expect(mail.body).toBe("Fixed in the next release.\n\n—\nYour message:\n> The chart is empty\n> on Mondays.");
    const afterAnswer = await runRoute(staffRoute.loader, getRequest(`${STAFF}?notice=answered`, cookies.admin));
    expect(afterAnswer.data.notice).toBe("The answer was mailed.");
    const bug = afterAnswer.data.messages.find((m: { id: number }) => m.id === row.id);
    expect(bug.answer).toBe("Fixed in the next release.");
    expect(bug.answered).toMatch(/ by admin@example\.org$/);

    const done = await runRoute(staffRoute.action, formRequest(STAFF, { intent: "done", id: String(row.id) }, cookies.admin));
    expect(done.location).toBe(`${STAFF}?notice=done`);
    const open = await runRoute(staffRoute.loader, getRequest(STAFF, cookies.admin));
    expect(open.data.messages.map((m: { id: number }) => m.id)).not.toContain(row.id);
    const doneList = await runRoute(staffRoute.loader, getRequest(`${STAFF}?show=done`, cookies.admin));
    expect(doneList.data.messages.map((m: { id: number; done: string }) => [m.id, /by admin@example\.org$/.test(m.done)])).toEqual([
      [row.id, true],
    ]);
  });

  it("refuses unknown actions and bad ids with a 400", async () => {
    expect((await runRoute(staffRoute.action, formRequest(STAFF, { intent: "delete", id: "1" }, cookies.admin))).status).toBe(400);
    expect((await runRoute(staffRoute.action, formRequest(STAFF, { intent: "done", id: "-1" }, cookies.admin))).status).toBe(400);
  });
});
