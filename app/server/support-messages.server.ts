import { data, redirect } from "@remix-run/node";
import { desc, eq, isNotNull, isNull } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { supportMessages, users } from "~db/postgres/schema";
import { formatDateLongBare, safeTimezone } from "~/lib/date-format";
import type { UserContext } from "./auth/user-context.server";
import { sendMail } from "./mail/mailer.server";
import type { Db } from "./postgres.server";
import type { Services } from "./services.server";
import { getUserSettings } from "./settings/user-settings.server";

export const SUPPORT_REQUEST_TYPES = ["BUG", "HELP", "FEEDBACK", "NEW_USER", "FEATURE_REQUEST"] as const;
export type SupportRequestType = (typeof SUPPORT_REQUEST_TYPES)[number];

type Sender = Pick<UserContext, "id" | "email" | "firstName" | "lastName">;

/**
 * Stores a support message and, when SUPPORT_EMAIL is set, mails it to that address (in the
 * background; the sender is named in the text so the operator can reply).
 */
export async function submitSupportMessage(db: Db, sender: Sender, message: { type: SupportRequestType; message: string }) {
  const [row] = await db.insert(supportMessages).values({ userId: sender.id, type: message.type, message: message.message }).returning();
  const supportAddress = process.env.SUPPORT_EMAIL?.trim();
  if (supportAddress) {
    const name = `${sender.firstName} ${sender.lastName}`.trim() || sender.email;
    await sendMail(
      db,
      {
        to: supportAddress,
        subject: `[flowlens ${message.type}] support message #${row.id} from ${name}`,
        text: [
          `From: ${name} <${sender.email}> (user #${sender.id})`,
          `Type: ${message.type}`,
          `Sent: ${row.createdAt.toISOString()}`,
          "",
          message.message,
        ].join("\n"),
      },
      { background: true },
    );
  }
  return row;
}

/** How the types read on the form and the staff list. */
export const SUPPORT_TYPE_LABELS: Record<SupportRequestType, string> = {
  BUG: "Report a bug",
  HELP: "Ask for help",
  FEEDBACK: "Feedback",
  NEW_USER: "New user",
  FEATURE_REQUEST: "Feature request",
};

export const SUPPORT_MESSAGE_MAX = 10_000;

const isType = (value: unknown): value is SupportRequestType => SUPPORT_REQUEST_TYPES.includes(value as SupportRequestType);

/** The support form (/support): the types to choose from and the one asked for (?type=), and the notice after sending. */
export function supportFormScreen(url: URL) {
  const asked = url.searchParams.get("type");
  const sent = url.searchParams.get("sent");
  return {
    types: SUPPORT_REQUEST_TYPES.map((value) => ({ value, label: SUPPORT_TYPE_LABELS[value] })),
    type: isType(asked) ? asked : ("HELP" as SupportRequestType),
    sent: sent !== null && /^\d+$/.test(sent),
    mailed: Boolean(process.env.SUPPORT_EMAIL?.trim()),
  };
}

export type SupportFormResult = { errors: Record<string, string>; values: { type: string; message: string } };

/** POST /support: the message sent (redirect to the notice), or the form's errors (400) with what was typed. */
export async function supportFormAction(db: Db, user: Sender, form: FormData) {
  const type = String(form.get("type") ?? "");
  const message = String(form.get("message") ?? "").trim();
  const errors: Record<string, string> = {};
  if (!isType(type)) errors.type = "Please choose what the message is about.";
  if (!message) errors.message = "Please write a message.";
  else if (message.length > SUPPORT_MESSAGE_MAX) errors.message = `At most ${SUPPORT_MESSAGE_MAX.toLocaleString("en-US")} characters.`;
  if (Object.keys(errors).length > 0 || !isType(type))
    return data({ errors, values: { type, message } } satisfies SupportFormResult, { status: 400 });
  const row = await submitSupportMessage(db, user, { type, message });
  return redirect(`/support?sent=${row.id}`);
}

/** The staff list (/site-settings/support-messages): open messages (or done ones with ?show=done), newest first. */
export async function loadSupportMessagesScreen(services: Services, user: UserContext, url: URL) {
  const done = url.searchParams.get("show") === "done";
  const timezone = safeTimezone((await getUserSettings(services.pg.db, user.id)).timezone);
  const date = (d: Date) => formatDateLongBare(d, timezone);
  const answeredBy = alias(users, "answered_by_user");
  const doneBy = alias(users, "done_by_user");
  const rows = await services.pg.db
    .select({
      id: supportMessages.id,
      type: supportMessages.type,
      message: supportMessages.message,
      createdAt: supportMessages.createdAt,
      answer: supportMessages.answer,
      answeredAt: supportMessages.answeredAt,
      doneAt: supportMessages.doneAt,
      senderEmail: users.email,
      senderFirst: users.firstName,
      senderLast: users.lastName,
      answeredBy: answeredBy.email,
      doneBy: doneBy.email,
    })
    .from(supportMessages)
    .leftJoin(users, eq(users.id, supportMessages.userId))
    .leftJoin(answeredBy, eq(answeredBy.id, supportMessages.answeredBy))
    .leftJoin(doneBy, eq(doneBy.id, supportMessages.doneBy))
    .where(done ? isNotNull(supportMessages.doneAt) : isNull(supportMessages.doneAt))
    .orderBy(desc(supportMessages.createdAt), desc(supportMessages.id))
    .limit(SUPPORT_MESSAGES_SHOWN);
  const notice = url.searchParams.get("notice");
  return {
    show: done ? ("done" as const) : ("open" as const),
    timezone,
    notice: notice === "answered" ? "The answer was mailed." : notice === "done" ? "Marked as done." : null,
    messages: rows.map((r) => ({
      id: r.id,
      type: SUPPORT_TYPE_LABELS[r.type],
      message: r.message,
      sent: date(r.createdAt),
      sender: r.senderEmail
        ? `${`${r.senderFirst ?? ""} ${r.senderLast ?? ""}`.trim() || r.senderEmail} <${r.senderEmail}>`
        : "a deleted account",
      canAnswer: Boolean(r.senderEmail),
      answer: r.answer,
      answered: r.answeredAt ? `${date(r.answeredAt)}${r.answeredBy ? ` by ${r.answeredBy}` : ""}` : null,
      done: r.doneAt ? `${date(r.doneAt)}${r.doneBy ? ` by ${r.doneBy}` : ""}` : null,
    })),
  };
}

export type SupportMessagesScreen = Awaited<ReturnType<typeof loadSupportMessagesScreen>>;

export const SUPPORT_MESSAGES_SHOWN = 200;

/**
 * POST /site-settings/support-messages: intent=answer (id, answer) mails the answer to the sender
 * through the outbox and records it; intent=done (id) marks the message as done. PRG.
 */
export async function supportMessagesAction(services: Services, user: UserContext, form: FormData) {
  const intent = form.get("intent");
  const id = Number(form.get("id"));
  if (intent !== "answer" && intent !== "done") throw data({ detail: "Unknown action." }, { status: 400 });
  if (!Number.isSafeInteger(id) || id <= 0) throw data({ detail: "The support message is required." }, { status: 400 });
  const db = services.pg.db;
  const [row] = await db
    .select({ id: supportMessages.id, type: supportMessages.type, message: supportMessages.message, email: users.email })
    .from(supportMessages)
    .leftJoin(users, eq(users.id, supportMessages.userId))
    .where(eq(supportMessages.id, id));
  if (!row) throw data({ detail: "No such support message." }, { status: 404 });
  if (intent === "done") {
    await db.update(supportMessages).set({ doneAt: new Date(), doneBy: user.id }).where(eq(supportMessages.id, id));
    return redirect("/site-settings/support-messages?notice=done");
  }
  const answer = String(form.get("answer") ?? "").trim();
  if (!answer) throw data({ detail: "Please write an answer." }, { status: 400 });
  if (answer.length > SUPPORT_MESSAGE_MAX)
    throw data({ detail: `The answer may have at most ${SUPPORT_MESSAGE_MAX} characters.` }, { status: 400 });
  if (!row.email) throw data({ detail: "The sender's account was deleted: there is nobody to answer." }, { status: 400 });
  await sendMail(
    db,
    {
      to: row.email,
      subject: `Re: your flowlens support message #${row.id} (${SUPPORT_TYPE_LABELS[row.type]})`,
      text: [answer, "", "—", "Your message:", ...row.message.split("\n").map((line) => `> ${line}`)].join("\n"),
    },
    { background: true },
  );
  await db.update(supportMessages).set({ answer, answeredAt: new Date(), answeredBy: user.id }).where(eq(supportMessages.id, id));
  return redirect("/site-settings/support-messages?notice=answered");
}
