/**
 * The operator's community labels (community_labels): a pattern — a standard, large or extended
 * community, or one whose last part is `*` — and the label the private Looking Glass shows beside
 * every community it matches (app/lib/bgp-communities.ts decides which label applies). Staff and
 * superusers edit them on /site-settings/routing-data; each change is written with its audit entry
 * in one transaction. Patterns are stored in their canonical text, so "064496:0100" and
 * "64496:100" are the same pattern and cannot both exist.
 */
import { asc, eq } from "drizzle-orm";
import { communityLabels } from "~db/postgres/schema";
import { parseCommunityPattern, type CommunityKind, type CommunityLabel } from "~/lib/bgp-communities";
import { recordAudit, type AuditActor } from "~/server/audit/audit-log.server";
import type { Db } from "~/server/postgres.server";
import { LABEL_MAX_LENGTH } from "./community-labels";

export type CommunityLabelView = {
  id: number;
  pattern: string;
  label: string;
  kind: CommunityKind;
  wildcard: boolean;
};

export type CommunityLabelInput = { pattern: string; label: string };

/** Input refused: messages by field (pattern, label, or "" for the form). */
export class CommunityLabelInputError extends Error {
  constructor(readonly errors: Record<string, string>) {
    super(Object.values(errors).join(" "));
    this.name = "CommunityLabelInputError";
  }
}

/** The label's row is gone (deleted meanwhile, or an id that never existed). */
export class CommunityLabelMissingError extends Error {
  constructor() {
    super("This community label does not exist (any more).");
    this.name = "CommunityLabelMissingError";
  }
}

const KIND_ORDER: Record<CommunityKind, number> = { standard: 0, large: 1, extended: 2 };

/** Standard before large before extended; parts compared as numbers where both are; a `*` after the numbers. */
function comparePatterns(a: CommunityLabelView, b: CommunityLabelView): number {
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
  const pa = a.pattern.split(":");
  const pb = b.pattern.split(":");
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? "";
    const y = pb[i] ?? "";
    if (x === y) continue;
    if (x === "*") return 1;
    if (y === "*") return -1;
    const nx = /^\d+$/.test(x) ? Number(x) : NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : NaN;
    if (!Number.isNaN(nx) && !Number.isNaN(ny)) return nx - ny;
    return x < y ? -1 : 1;
  }
  return 0;
}

function view(row: { id: number; pattern: string; label: string }): CommunityLabelView | null {
  const parsed = parseCommunityPattern(row.pattern);
  if (!parsed.ok) return null;
  return { id: row.id, pattern: row.pattern, label: row.label, kind: parsed.pattern.kind, wildcard: parsed.pattern.wildcard };
}

/** Every label, in the order of their patterns. */
export async function listCommunityLabels(db: Db): Promise<CommunityLabelView[]> {
  const rows = await db
    .select({ id: communityLabels.id, pattern: communityLabels.pattern, label: communityLabels.label })
    .from(communityLabels)
    .orderBy(asc(communityLabels.id));
  return rows
    .map(view)
    .filter((v): v is CommunityLabelView => v !== null)
    .sort(comparePatterns);
}

/** The labels as communityNamer takes them. */
export async function communityLabelList(db: Db): Promise<CommunityLabel[]> {
  return db.select({ pattern: communityLabels.pattern, label: communityLabels.label }).from(communityLabels);
}

/** The input checked: the pattern in its canonical text, the label trimmed. */
export function checkCommunityLabel(input: CommunityLabelInput): { pattern: string; label: string } {
  const errors: Record<string, string> = {};
  const parsed = parseCommunityPattern(input.pattern);
  if (!parsed.ok) errors.pattern = parsed.error;
  const label = input.label.trim();
  if (label === "") errors.label = "Enter the label people read beside the community, for example Customer routes.";
  else if (label.length > LABEL_MAX_LENGTH) errors.label = `A label has at most ${LABEL_MAX_LENGTH} characters.`;
  else if (/[\u0000-\u001f\u007f]/.test(label)) errors.label = "A label is one line of text, without control characters.";
  if (Object.keys(errors).length || !parsed.ok) throw new CommunityLabelInputError(errors);
  return { pattern: parsed.pattern.text, label };
}

type Change = { actor: AuditActor; clientAddress?: string | null };

/** The other label that already has this pattern, as a refusal. */
async function refuseDuplicate(tx: Db, pattern: string, exceptId: number | null): Promise<void> {
  const [other] = await tx
    .select({ id: communityLabels.id, label: communityLabels.label })
    .from(communityLabels)
    .where(eq(communityLabels.pattern, pattern));
  if (other && other.id !== exceptId) {
    throw new CommunityLabelInputError({
      pattern: `${pattern} has a label already ("${other.label}"): change that one, or choose another pattern.`,
    });
  }
}

/** Two writers racing for one pattern: the unique constraint answers for the loser. */
function isUniqueViolation(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: string }).code === "23505") return true;
  }
  return false;
}

async function inTransaction<T>(db: Db, pattern: string, run: (tx: Db) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(async (transaction) => run(transaction as unknown as Db));
  } catch (error) {
    if (isUniqueViolation(error)) throw new CommunityLabelInputError({ pattern: `${pattern} has a label already.` });
    throw error;
  }
}

export async function createCommunityLabel(db: Db, input: CommunityLabelInput, change: Change): Promise<CommunityLabelView> {
  const checked = checkCommunityLabel(input);
  return inTransaction(db, checked.pattern, async (tx) => {
    await refuseDuplicate(tx, checked.pattern, null);
    const [row] = await tx.insert(communityLabels).values(checked).returning();
    await recordAudit(tx, {
      actor: change.actor,
      action: "community_label.create",
      targetType: "community_label",
      targetId: row.id,
      targetLabel: row.pattern,
      after: { pattern: row.pattern, label: row.label },
      clientAddress: change.clientAddress ?? null,
    });
    return view(row)!;
  });
}

export async function updateCommunityLabel(db: Db, id: number, input: CommunityLabelInput, change: Change): Promise<CommunityLabelView> {
  const checked = checkCommunityLabel(input);
  return inTransaction(db, checked.pattern, async (tx) => {
    const [before] = await tx.select().from(communityLabels).where(eq(communityLabels.id, id)).for("update");
    if (!before) throw new CommunityLabelMissingError();
    await refuseDuplicate(tx, checked.pattern, id);
    const [row] = await tx
      .update(communityLabels)
      .set({ ...checked, updatedAt: new Date() })
      .where(eq(communityLabels.id, id))
      .returning();
    if (before.pattern !== row.pattern || before.label !== row.label) {
      await recordAudit(tx, {
        actor: change.actor,
        action: "community_label.update",
        targetType: "community_label",
        targetId: id,
        targetLabel: row.pattern,
        before: { pattern: before.pattern, label: before.label },
        after: { pattern: row.pattern, label: row.label },
        clientAddress: change.clientAddress ?? null,
      });
    }
    return view(row)!;
  });
}

export async function deleteCommunityLabel(db: Db, id: number, change: Change): Promise<void> {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const [row] = await tx.delete(communityLabels).where(eq(communityLabels.id, id)).returning();
    if (!row) throw new CommunityLabelMissingError();
    await recordAudit(tx, {
      actor: change.actor,
      action: "community_label.delete",
      targetType: "community_label",
      targetId: id,
      targetLabel: row.pattern,
      before: { pattern: row.pattern, label: row.label },
      clientAddress: change.clientAddress ?? null,
    });
  });
}
