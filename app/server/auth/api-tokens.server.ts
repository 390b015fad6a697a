import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { apiTokens } from "~db/postgres/schema";
import type { Db } from "../postgres.server";

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new token for the user, shown once; only its hash is kept. */
export async function createApiToken(db: Db, userId: number, name: string): Promise<{ id: number; token: string }> {
  const token = `fl_${randomBytes(32).toString("base64url")}`;
  const [row] = await db
    .insert(apiTokens)
    .values({ userId, name, tokenHash: hash(token) })
    .returning({ id: apiTokens.id });
  return { id: row.id, token };
}

export async function listApiTokens(db: Db, userId: number) {
  const rows = await db.select().from(apiTokens).where(eq(apiTokens.userId, userId)).orderBy(desc(apiTokens.createdAt));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    created_at: r.createdAt.toISOString(),
    last_used_at: r.lastUsedAt?.toISOString() ?? null,
  }));
}

export async function deleteApiToken(db: Db, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId)))
    .returning({ id: apiTokens.id });
  return rows.length > 0;
}

/** "Authorization: Token <key>" → the user id, or null. */
export async function userIdForToken(db: Db, authorization: string | null): Promise<number | null> {
  const match = /^Token\s+(fl_[A-Za-z0-9_-]{20,})$/.exec(authorization?.trim() ?? "");
  if (!match) return null;
  const [row] = await db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, hash(match[1])));
  if (!row) return null;
  await db.update(apiTokens).set({ lastUsedAt: new Date() }).where(eq(apiTokens.id, row.id));
  return row.userId;
}
