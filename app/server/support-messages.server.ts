import { supportMessages } from "~db/postgres/schema";
import type { UserContext } from "./auth/user-context.server";
import { sendMail } from "./mail/mailer.server";
import type { Db } from "./postgres.server";

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
