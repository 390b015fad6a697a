import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { passwordResetTokens, users } from "~db/postgres/schema";
import { isValidEmail, normalizeEmail } from "~/lib/email";
import { MESSAGES } from "~/lib/messages";
import { log } from "../log.server";
import { endUserAccess } from "./account-admin.server";
import { mailLink } from "../mail/links.server";
import { sendMail } from "../mail/mailer.server";
import { notifyAccountChange } from "../notifications/notifications.server";
import { hashPassword } from "../password.server";
import type { Db } from "../postgres.server";

export const PASSWORD_MIN_LENGTH = 10;
/** scrypt copes with long input, but there is no reason to accept megabytes. */
export const PASSWORD_MAX_LENGTH = 1024;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
/** Links in the mail to a newly accepted applicant: they may not read it within the hour. */
export const WELCOME_TOKEN_TTL_MS = 72 * 60 * 60 * 1000;

/** Texts of these screens that the spec does not give. */
export const RESET_TEXTS = {
  requested:
    "If an account exists for this e-mail address, a link to set a new password has been sent to it. The link is valid for one hour.",
  passwordTooShort: `The password must be at least ${PASSWORD_MIN_LENGTH} characters long.`,
  passwordTooLong: `The password must be at most ${PASSWORD_MAX_LENGTH} characters long.`,
  passwordsDiffer: "The two passwords do not match.",
  done: "Your password has been set. You can now log in with it.",
} as const;

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** The password rules: null when acceptable, otherwise what is wrong. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return RESET_TEXTS.passwordTooShort;
  if (password.length > PASSWORD_MAX_LENGTH) return RESET_TEXTS.passwordTooLong;
  return null;
}

/**
 * A new single-use token for the user (32 random bytes, base64url); only its SHA-256 is stored.
 * Earlier unused tokens of the user stop working: only the newest link counts.
 */
export async function issueResetToken(db: Db, userId: number, ttlMs = RESET_TOKEN_TTL_MS): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.transaction(async (tx) => {
    await tx.delete(passwordResetTokens).where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
    await tx.insert(passwordResetTokens).values({ tokenHash: hashToken(token), userId, expiresAt: new Date(Date.now() + ttlMs) });
  });
  return token;
}

/** The link a reset or first-password mail carries (its origin from the configuration, see mailLink). */
export function resetLink(token: string): string {
  return mailLink("/password-reset-confirm", { token });
}

/** Reset mails still being written (token, outbox row, delivery): the answer does not wait for them. */
const pendingResetMails = new Set<Promise<void>>();

/** Resolves once every reset mail requested so far is in the outbox (tests; a clean shutdown). */
export async function resetMailsSettled(): Promise<void> {
  while (pendingResetMails.size) await Promise.allSettled([...pendingResetMails]);
}

/**
 * "Forgot password": mails a reset link when an active account has this address. The caller
 * answers the same way in every case, and in the same time: the request does the same lookup
 * for known and unknown addresses and nothing more — issuing the token, writing the outbox row and
 * delivering the mail happen after the answer, so neither the answer nor its timing tells whether
 * the account exists.
 */
export async function requestReset(db: Db, email: string): Promise<void> {
  const address = normalizeEmail(email);
  if (!isValidEmail(address)) return;
  const [user] = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, isActive: users.isActive })
    .from(users)
    .where(eq(sql`lower(${users.email})`, address));
  if (!user || !user.isActive) {
    log.info(`password reset requested for an unknown or inactive address`);
    return;
  }
  const work = mailResetLink(db, user).catch((error: unknown) =>
    log.error(`password reset mail for user #${user.id} failed: ${error instanceof Error ? error.message : String(error)}`),
  );
  pendingResetMails.add(work);
  void work.finally(() => pendingResetMails.delete(work));
}

async function mailResetLink(db: Db, user: { id: number; email: string; firstName: string }): Promise<void> {
  const token = await issueResetToken(db, user.id);
  await sendMail(
    db,
    {
      to: user.email,
      subject: "Reset your flowlens password",
      text: [
        `Hello${user.firstName ? ` ${user.firstName}` : ""},`,
        "",
        "somebody (hopefully you) asked to reset the password of your flowlens account.",
        "Open this link within one hour to choose a new password:",
        "",
        resetLink(token),
        "",
        "The link works once. If you did not ask for it, ignore this mail: your password stays as it is.",
      ].join("\n"),
    },
    { background: true },
  );
}

/** The mail to an applicant whose account was just created: a link to choose the first password. */
export async function sendPasswordSetMail(db: Db, user: { id: number; email: string; firstName: string }): Promise<void> {
  const token = await issueResetToken(db, user.id, WELCOME_TOKEN_TTL_MS);
  await sendMail(
    db,
    {
      to: user.email,
      subject: "Your flowlens account",
      text: [
        `Hello${user.firstName ? ` ${user.firstName}` : ""},`,
        "",
        "your request for a flowlens account has been accepted.",
        "Open this link within 72 hours to choose your password:",
        "",
        resetLink(token),
        "",
        "Your login is this e-mail address. If the link has expired, use 'Forgot your password?' on the login page.",
      ].join("\n"),
    },
    { background: true },
  );
}

/**
 * The mail to someone an administrator added (Users screen, POST auth/users/): an invitation with a
 * link to choose the first password, single-use and valid for 72 hours like an accepted applicant's.
 * `ttlMs` is the validity (tests shorten it; the screens use the default).
 */
export async function sendInvitationMail(
  db: Db,
  user: { id: number; email: string; firstName: string },
  invitedBy: { email: string; firstName?: string; lastName?: string },
  ttlMs = WELCOME_TOKEN_TTL_MS,
  /** What the account shows its owner: an operator's colleague sees the network, a delegated account (a customer) its own traffic. */
  kind: "colleague" | "delegated" = "colleague",
): Promise<void> {
  const token = await issueResetToken(db, user.id, ttlMs);
  const inviter = [invitedBy.firstName, invitedBy.lastName].filter(Boolean).join(" ").trim();
  await sendMail(
    db,
    {
      to: user.email,
      subject: "You are invited to flowlens",
      text: [
        `Hello${user.firstName ? ` ${user.firstName}` : ""},`,
        "",
        `${inviter ? `${inviter} (${invitedBy.email})` : invitedBy.email} has created a flowlens account for you.`,
        kind === "delegated"
          ? "It shows you the traffic of your own network as it crosses ours."
          : "flowlens shows the traffic flows and routing of your network.",
        "Open this link within 72 hours to choose your password:",
        "",
        resetLink(token),
        "",
        "The link works once. Your login is this e-mail address. If the link has expired, ask for a new invitation",
        "or use 'Forgot your password?' on the login page.",
      ].join("\n"),
    },
    { background: true },
  );
}

/** The user a token belongs to when it is unused, unexpired and the account active; otherwise null. Does not use it up. */
export async function checkResetToken(db: Db, token: string | null | undefined): Promise<{ userId: number; email: string } | null> {
  if (!token || !TOKEN_SHAPE.test(token)) return null;
  const [row] = await db
    .select({ userId: passwordResetTokens.userId, email: users.email })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(
      and(
        eq(passwordResetTokens.tokenHash, hashToken(token)),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, new Date()),
        eq(users.isActive, true),
      ),
    );
  return row ?? null;
}

export type ConfirmResult =
  { ok: true; userId: number } | { ok: false; reason: "token"; message: string } | { ok: false; reason: "password"; message: string };

/**
 * Sets the new password with a mailed token: the token must be unused and unexpired, and is used
 * up atomically (two concurrent submissions cannot both succeed). The password rules are checked
 * before the token is spent, so a rejected password can be corrected with the same link. On
 * success every session of the user ends, and an account that had a password before gets the
 * "Your password was changed" notification (a first password set with the welcome link does not).
 */
export async function confirmReset(db: Db, token: string, newPassword: string): Promise<ConfirmResult> {
  const holder = await checkResetToken(db, token);
  if (!holder) return { ok: false, reason: "token", message: MESSAGES.tokenInvalid };
  const problem = passwordProblem(newPassword);
  if (problem) return { ok: false, reason: "password", message: problem };
  const passwordHash = await hashPassword(newPassword);
  const userId = await db.transaction(async (tx) => {
    const now = new Date();
    const [used] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, hashToken(token)),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, now),
        ),
      )
      .returning({ userId: passwordResetTokens.userId });
    if (!used) return null;
    const [earlier] = await tx.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, used.userId));
    const [updated] = await tx
      .update(users)
      .set({ passwordHash })
      .where(and(eq(users.id, used.userId), eq(users.isActive, true)))
      .returning({ id: users.id });
    if (!updated) return null;
    await endUserAccess(tx, used.userId, "passwordSet");
    // A first password (the welcome link of a new account) changes nothing its owner must be warned of.
    if (earlier?.passwordHash) await notifyAccountChange(tx, used.userId, "passwordChanged");
    return used.userId;
  });
  if (userId === null) return { ok: false, reason: "token", message: MESSAGES.tokenInvalid };
  log.info(`password of user #${userId} set with a reset link; their sessions were ended`);
  return { ok: true, userId };
}
