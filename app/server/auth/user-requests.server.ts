import { and, desc, eq, sql } from "drizzle-orm";
import { siteSettings, userRequests, users } from "~db/postgres/schema";
import { isValidEmail, normalizeEmail } from "~/lib/email";
import { MESSAGES } from "~/lib/messages";
import { recordAudit } from "../audit/audit-log.server";
import { log } from "../log.server";
import { notify, usersHoldingPermission } from "../notifications/notifications.server";
import { sendMail } from "../mail/mailer.server";
import type { Db } from "../postgres.server";
import { sendPasswordSetMail } from "./password-reset.server";

/** Signup and the user applicant flow (shell §4): requests that a manager accepts or rejects. */

export const NAME_MAX_LENGTH = 150;

/** Texts of these screens that the spec does not give. */
export const SIGNUP_TEXTS = {
  sent: "Thank you! Your request has been sent. An administrator will review it; once it is accepted you will receive an e-mail with a link to set your password.",
  nameRequired: "Please enter a name.",
  nameTooLong: `At most ${NAME_MAX_LENGTH} characters.`,
  disabled: "Self-signup is disabled on this installation.",
  loggedIn: "You are already logged in.",
  notPending: "This request has already been decided.",
  notFound: "No such user request.",
} as const;

export type ApplicantInput = { email: string; first_name: string; last_name: string };
export type FieldError = { field: keyof ApplicantInput; message: string };

export type UserRequestView = {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  status: "PENDING" | "ACCEPTED" | "REJECTED";
  created_at: string;
  decided_at: string | null;
  decided_by_id: number | null;
};

export function toView(row: typeof userRequests.$inferSelect): UserRequestView {
  return {
    id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    decided_at: row.decidedAt ? row.decidedAt.toISOString() : null,
    decided_by_id: row.decidedById,
  };
}

export async function selfSignupEnabled(db: Db): Promise<boolean> {
  const [settings] = await db.select({ on: siteSettings.enableUserSelfSignup }).from(siteSettings).where(eq(siteSettings.id, 1));
  return Boolean(settings?.on);
}

/** Whether the address belongs to an account or to a request still waiting for a decision. */
export async function emailTaken(db: Db, email: string): Promise<boolean> {
  const address = normalizeEmail(email);
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, address))
    .limit(1);
  if (user) return true;
  const [pending] = await db
    .select({ id: userRequests.id })
    .from(userRequests)
    .where(and(eq(sql`lower(${userRequests.email})`, address), eq(userRequests.status, "PENDING")))
    .limit(1);
  return Boolean(pending);
}

function nameProblem(value: string): string | null {
  if (!value) return SIGNUP_TEXTS.nameRequired;
  if (value.length > NAME_MAX_LENGTH) return SIGNUP_TEXTS.nameTooLong;
  return null;
}

export type CreateRequestResult =
  | { ok: true; request: UserRequestView }
  /** `detail` is the spec's user-creation message whenever the address is the problem. */
  | { ok: false; detail: string; errors: FieldError[] };

/** What every manager (VIEW_USERS) is told of a new applicant request. */
export function applicantRequestNotice(row: { firstName: string; lastName: string; email: string }) {
  return {
    title: `New user request: ${row.firstName} ${row.lastName}`,
    message: `${row.firstName} ${row.lastName} (${row.email}) asked for an account. Accept or reject the request under Users: /manage-users`,
    doPopUp: true,
  };
}

/**
 * A new PENDING request; every manager (VIEW_USERS) gets a notification naming the applicant. An invalid address or one that is already an account (or pending) gives
 * the spec's "Provided email already exists or is invalid." — the format error names the rule too.
 */
export async function createUserRequest(db: Db, input: Partial<Record<keyof ApplicantInput, unknown>>): Promise<CreateRequestResult> {
  const email = normalizeEmail(String(input.email ?? ""));
  const firstName = String(input.first_name ?? "").trim();
  const lastName = String(input.last_name ?? "").trim();
  const errors: FieldError[] = [];
  const validFormat = isValidEmail(email);
  if (!validFormat) errors.push({ field: "email", message: MESSAGES.emailFormat });
  const firstProblem = nameProblem(firstName);
  if (firstProblem) errors.push({ field: "first_name", message: firstProblem });
  const lastProblem = nameProblem(lastName);
  if (lastProblem) errors.push({ field: "last_name", message: lastProblem });
  if (validFormat && (await emailTaken(db, email))) errors.push({ field: "email", message: MESSAGES.userCreation });
  if (errors.length) {
    const emailProblem = errors.some((e) => e.field === "email");
    return { ok: false, detail: emailProblem ? MESSAGES.userCreation : errors[0].message, errors };
  }
  // The managers hear of it with the request, or neither happens.
  const row = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const [created] = await tx.insert(userRequests).values({ email, firstName, lastName }).returning();
    await notify(tx, await usersHoldingPermission(tx, "VIEW_USERS"), applicantRequestNotice(created));
    return created;
  });
  log.info(`user request #${row.id} created`);
  return { ok: true, request: toView(row) };
}

export async function listUserRequests(db: Db, status?: UserRequestView["status"]): Promise<UserRequestView[]> {
  const rows = await db
    .select()
    .from(userRequests)
    .where(status ? eq(userRequests.status, status) : undefined)
    .orderBy(desc(userRequests.createdAt), desc(userRequests.id));
  return rows.map(toView);
}

export type DecisionResult =
  { ok: true; request: UserRequestView; userId: number | null } | { ok: false; status: 400 | 404 | 409; detail: string };

class DecisionAbort extends Error {
  constructor(readonly result: Extract<DecisionResult, { ok: false }>) {
    super(result.detail);
  }
}

/** The short mail to an applicant whose request was rejected. */
export async function sendRejectionMail(db: Db, request: { email: string; firstName: string }): Promise<void> {
  await sendMail(
    db,
    {
      to: request.email,
      subject: "Your flowlens account request",
      text: [
        `Hello${request.firstName ? ` ${request.firstName}` : ""},`,
        "",
        "your request for a flowlens account has not been accepted, so no account was created for this address.",
        "If you think this is a mistake, please contact the administrators of this installation.",
      ].join("\n"),
    },
    { background: true },
  );
}

/** Audit view of a request: what it asked for and how it was decided. */
const requestSnapshot = (row: typeof userRequests.$inferSelect) => ({
  email: row.email,
  first_name: row.firstName,
  last_name: row.lastName,
  status: row.status,
});

/**
 * Accept: the account is created (no password, not yet consented) and the applicant is mailed a
 * link to set the password; reject: the request is marked and the applicant told. Each request is
 * decided once; the decision is written to the audit log in its transaction. Who may decide is the
 * caller's rule (user-admin.server.ts: staff and superusers).
 */
export async function decideUserRequest(
  db: Db,
  id: number,
  decision: "accept" | "reject",
  decider: { id: number; email: string },
  options: { clientAddress?: string | null } = {},
): Promise<DecisionResult> {
  let created: { id: number; email: string; firstName: string } | null = null;
  let decided: typeof userRequests.$inferSelect;
  try {
    decided = await db.transaction(async (tx) => {
      const [existing] = await tx.select().from(userRequests).where(eq(userRequests.id, id));
      if (!existing) throw new DecisionAbort({ ok: false, status: 404, detail: SIGNUP_TEXTS.notFound });
      const [row] = await tx
        .update(userRequests)
        .set({ status: decision === "accept" ? "ACCEPTED" : "REJECTED", decidedById: decider.id, decidedAt: new Date() })
        .where(and(eq(userRequests.id, id), eq(userRequests.status, "PENDING")))
        .returning();
      if (!row) throw new DecisionAbort({ ok: false, status: 409, detail: SIGNUP_TEXTS.notPending });
      if (decision === "accept") {
        const email = normalizeEmail(row.email);
        const [taken] = await tx
          .select({ id: users.id })
          .from(users)
          .where(eq(sql`lower(${users.email})`, email));
        if (taken || !isValidEmail(email)) throw new DecisionAbort({ ok: false, status: 400, detail: MESSAGES.userCreation });
        const [user] = await tx
          .insert(users)
          .values({ email, firstName: row.firstName, lastName: row.lastName, passwordHash: null, hasConsented: false })
          .returning({ id: users.id, email: users.email, firstName: users.firstName });
        created = user;
      }
      await recordAudit(tx, {
        actor: decider,
        action: decision === "accept" ? "user_request.accept" : "user_request.reject",
        targetType: "user_request",
        targetId: row.id,
        targetLabel: row.email,
        before: requestSnapshot(existing),
        after: { ...requestSnapshot(row), ...(created ? { created_user_id: (created as { id: number }).id } : {}) },
        clientAddress: options.clientAddress ?? null,
      });
      return row;
    });
  } catch (error) {
    if (error instanceof DecisionAbort) return error.result;
    throw error;
  }
  log.info(`user request #${id} ${decision === "accept" ? "accepted" : "rejected"} by user #${decider.id}`);
  const user = created as { id: number; email: string; firstName: string } | null;
  if (user) await sendPasswordSetMail(db, user);
  else await sendRejectionMail(db, decided);
  return { ok: true, request: toView(decided), userId: user?.id ?? null };
}
