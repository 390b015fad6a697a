import { and, count, desc, eq, type SQL } from "drizzle-orm";
import { auditLog } from "~db/postgres/schema";
import type { Db } from "../postgres.server";

/**
 * The audit log of administrative changes: one entry per change, written in the same transaction
 * as the change (pass the transaction as `db`), so a change is never stored without its entry.
 */

export type AuditActor = { id: number; email: string } | null;

export type AuditEntryInput = {
  actor: AuditActor;
  /** A machine name such as user.create, user.update, user.deactivate, delegated_user.update, user_request.accept. */
  action: string;
  targetType: string;
  targetId: string | number;
  /** What people read for the target (an e-mail address, a name), kept after the target is gone. */
  targetLabel: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  clientAddress?: string | null;
};

export type AuditEntryView = {
  id: number;
  at: string;
  actor_id: number | null;
  actor_email: string;
  action: string;
  target_type: string;
  target_id: string;
  target_label: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  client_address: string | null;
};

/** Db or a transaction of it: both have insert/select. */
type Writer = Pick<Db, "insert">;

export async function recordAudit(db: Writer, entry: AuditEntryInput): Promise<void> {
  await db.insert(auditLog).values({
    actorUserId: entry.actor?.id ?? null,
    actorEmail: entry.actor?.email ?? "",
    action: entry.action,
    targetType: entry.targetType,
    targetId: String(entry.targetId),
    targetLabel: entry.targetLabel,
    before: entry.before ?? null,
    after: entry.after ?? null,
    clientAddress: entry.clientAddress ?? null,
  });
}

export const AUDIT_PAGE_SIZE = 50;

/** Newest first, optionally for one target; `page` counts from 1. */
export async function listAudit(
  db: Db,
  options: { targetType?: string; targetId?: string | number; page?: number; pageSize?: number } = {},
): Promise<{ entries: AuditEntryView[]; total: number; page: number; pageSize: number }> {
  const pageSize = options.pageSize ?? AUDIT_PAGE_SIZE;
  const page = Math.max(1, Math.floor(options.page ?? 1));
  const conditions: SQL[] = [];
  if (options.targetType) conditions.push(eq(auditLog.targetType, options.targetType));
  if (options.targetId !== undefined) conditions.push(eq(auditLog.targetId, String(options.targetId)));
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(auditLog).where(where),
  ]);
  return {
    entries: rows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      actor_id: r.actorUserId,
      actor_email: r.actorEmail,
      action: r.action,
      target_type: r.targetType,
      target_id: r.targetId,
      target_label: r.targetLabel,
      before: r.before ?? null,
      after: r.after ?? null,
      client_address: r.clientAddress,
    })),
    total: Number(total),
    page,
    pageSize,
  };
}
