/**
 * A delegated account's restrictions as stored (delegation_restrictions, shell §3) and the state
 * the kernel keeps about them: which flows restriction is current (shell §4: the first one after
 * login, then the user cycles through them in turn), the Looking Glass routers it may use and the
 * external-links permission rule. What a flows restriction means for a query is the filter
 * language's business (features/filter/delegation-policy.server.ts); this module only reads and writes the row.
 */
import { and, eq, sql } from "drizzle-orm";
import { delegationRestrictions, type ExternalLinksViewRestrictions, type FlowsViewRestriction } from "~db/postgres/schema";
import type { Db } from "../postgres.server";

export type DelegationRow = {
  flows: FlowsViewRestriction[];
  external: ExternalLinksViewRestrictions;
  /** Already reduced into [0, flows.length) (0 without restrictions). */
  currentIndex: number;
  welcomeText: string;
};

/** The permissions a delegated account loses when its external-links restrictions name no AS number (shell §4). */
export const EXTERNAL_LINK_PERMISSIONS = ["FRONTEND_LINK_UTIL_EXTERNAL", "API_LINK_UTIL_EXTERNAL"] as const;

/** index mod count, never negative; 0 without restrictions. */
export function reduceIndex(index: number, count: number): number {
  return count > 0 ? ((index % count) + count) % count : 0;
}

/** The account's restriction row, or null when it has none. */
export async function readDelegation(db: Db, userId: number): Promise<DelegationRow | null> {
  const [row] = await db.select().from(delegationRestrictions).where(eq(delegationRestrictions.userId, userId));
  if (!row) return null;
  const flows = row.flowsViewsRestrictions ?? [];
  return {
    flows,
    external: row.externalLinksViewsRestrictions ?? { ASNumberList: [], routerList: [], interfaceList: [] },
    currentIndex: reduceIndex(row.currentIndex, flows.length),
    welcomeText: row.welcomeText,
  };
}

/** On login the first flows restriction becomes current again (shell §4). */
export async function resetCurrentRestriction(db: Db, userId: number): Promise<void> {
  await db
    .update(delegationRestrictions)
    .set({ currentIndex: 0 })
    .where(and(eq(delegationRestrictions.userId, userId), sql`${delegationRestrictions.currentIndex} <> 0`));
}

/**
 * The next flows restriction becomes current: (i + 1) mod n, in one statement so two clicks at
 * once advance twice rather than losing one. Returns the new index, or null without restrictions.
 */
export async function cycleRestriction(db: Db, userId: number): Promise<number | null> {
  const n = sql`greatest(jsonb_array_length(${delegationRestrictions.flowsViewsRestrictions}), 1)`;
  const rows = await db
    .update(delegationRestrictions)
    .set({ currentIndex: sql`((${delegationRestrictions.currentIndex} % ${n}) + ${n} + 1) % ${n}` })
    .where(eq(delegationRestrictions.userId, userId))
    .returning({ index: delegationRestrictions.currentIndex, flows: delegationRestrictions.flowsViewsRestrictions });
  if (!rows.length || !(rows[0].flows ?? []).length) return null;
  return rows[0].index;
}

/**
 * The Looking Glass routers a user may use: null = no restriction (not delegated); otherwise the
 * routers of external_links_views_restrictions.routerList — none when the list is empty or the
 * account has no restriction row (deny by default).
 */
export async function lookingGlassRouters(db: Db, user: { id: number; isDelegated: boolean }): Promise<string[] | null> {
  if (!user.isDelegated) return null;
  const row = await readDelegation(db, user.id);
  return [...new Set(row?.external.routerList ?? [])];
}
