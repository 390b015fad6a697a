import { sendMail } from "../mail/mailer.server";
import type { Db } from "../postgres.server";

export const EMAIL_CHANGED_SUBJECT = "The e-mail address of your flowlens account was changed";

/**
 * The notice to an account's previous address after its e-mail address was changed: the holder of
 * that address is the one who can tell that the change was not theirs. The new address is not
 * named (the old one may have been a typo, read by a stranger). Like the other account mails it is
 * written to the outbox and sent when SMTP_URL is set.
 */
export async function sendEmailChangedMail(
  db: Db,
  account: { previousEmail: string; firstName: string },
  changedBy: { email: string; firstName?: string; lastName?: string },
  options: { accessEnded: boolean },
): Promise<void> {
  const name = [changedBy.firstName, changedBy.lastName].filter(Boolean).join(" ").trim();
  const who = name ? `${name} (${changedBy.email})` : changedBy.email;
  await sendMail(
    db,
    {
      to: account.previousEmail,
      subject: EMAIL_CHANGED_SUBJECT,
      text: [
        `Hello${account.firstName ? ` ${account.firstName}` : ""},`,
        "",
        `${who} has changed the e-mail address of your flowlens account: ${account.previousEmail} no longer logs in`,
        "and password reset links are no longer sent to it.",
        ...(options.accessEnded ? ["Every session of the account was logged out and its API tokens were deleted."] : []),
        "",
        `If you did not expect this change, contact ${changedBy.email} or the operator of this flowlens site at once.`,
      ].join("\n"),
    },
    { background: true },
  );
}
