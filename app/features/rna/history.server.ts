/**
 * The Raw Network Analyzer's query history (RNA API §7, usertracking/rna_history/): each user's
 * last RNA_HISTORY_KEPT queries, with when they ran, how many rows they matched and how long they
 * took, newest first, each with the /rna address that runs it again. Everyone reads only their own
 * entries (a delegated account too: what it ran was already inside its restriction).
 */
import { and, desc, eq, lt, sql } from "drizzle-orm";
import { rnaQueryHistory } from "~db/postgres/schema";
import type { UserContext } from "~/server/auth/user-context.server";
import { DEFAULT_LAYOUT } from "~/server/clickhouse-migrations.server";
import { log } from "~/server/log.server";
import type { Services } from "~/server/services.server";
import {
  RNA_HISTORY_KEPT,
  RNA_HISTORY_PAGE_SIZE,
  rnaHistoryQuerySchema,
  type RnaHistoryQuery,
  type RnaHistoryRecord,
} from "./history-schema";
import type { RnaPage, RnaQuery } from "./query";
import { rnaRerunUrl } from "./rerun-link";

/** How long flows_raw keeps a record: a query whose range is older finds nothing when it runs again. */
export const RAW_RETENTION_DAYS = DEFAULT_LAYOUT.rawTtlDays;
const DAY = 86_400;
const INT32_MAX = 2_147_483_647;

/**
 * Records a query after it ran and trims the user's history to the newest RNA_HISTORY_KEPT. It
 * never fails the query it records: a query that does not fit the stored shape, or a store error,
 * is logged and dropped; the promise always resolves, so a caller need not wait for it
 * (`void recordRnaQuery(…)`) and answers the query first.
 */
export async function recordRnaQuery(services: Services, user: Pick<UserContext, "id">, entry: RnaHistoryRecord): Promise<void> {
  try {
    const parsed = rnaHistoryQuerySchema.safeParse(entry.query);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      log.warn(`rna history: query of user ${user.id} not recorded: ${issue.path.join(".") || "query"}: ${issue.message}`);
      return;
    }
    const count = Number.isFinite(entry.total.count) ? Math.max(0, Math.floor(entry.total.count)) : 0;
    const durationMs = Number.isFinite(entry.durationMs) ? Math.min(INT32_MAX, Math.max(0, Math.round(entry.durationMs))) : 0;
    await services.pg.db.transaction(async (tx) => {
      await tx.insert(rnaQueryHistory).values({
        userId: user.id,
        query: parsed.data,
        rowCount: count,
        rowCountExact: entry.total.exact,
        durationMs,
      });
      // The oldest entry still kept; everything of this user's before it goes.
      const [oldestKept] = await tx
        .select({ id: rnaQueryHistory.id })
        .from(rnaQueryHistory)
        .where(eq(rnaQueryHistory.userId, user.id))
        .orderBy(desc(rnaQueryHistory.id))
        .offset(RNA_HISTORY_KEPT - 1)
        .limit(1);
      if (oldestKept)
        await tx.delete(rnaQueryHistory).where(and(eq(rnaQueryHistory.userId, user.id), lt(rnaQueryHistory.id, oldestKept.id)));
    });
  } catch (error) {
    log.error(`rna history: query of user ${user.id} not recorded: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** How much of a query's range flows_raw no longer holds at `now` (unix seconds). */
export function rangeLeftRetention(query: Pick<RnaHistoryQuery, "start" | "end">, now: number): "partly" | "entirely" | null {
  const oldestKept = now - RAW_RETENTION_DAYS * DAY;
  if (query.end <= oldestKept) return "entirely";
  if (query.start < oldestKept) return "partly";
  return null;
}

const RETENTION_NOTICES = {
  entirely: `Its range ended more than ${RAW_RETENTION_DAYS} days ago: raw flows are kept ${RAW_RETENTION_DAYS} days, so running it again finds no rows.`,
  partly: `Part of its range is older than the ${RAW_RETENTION_DAYS} days raw flows are kept: running it again finds only the rows of the newer part.`,
} as const;
const UNREADABLE_NOTICE = "This entry was stored in a form this version does not read; it cannot be run again.";

export type RnaHistoryEntry = {
  id: number;
  /** When the query ran (ISO 8601, UTC). */
  time: string;
  /** The stored query; null for an entry this version cannot read. */
  query: RnaHistoryQuery | null;
  rowCount: number;
  /** false: rowCount is a lower bound ("more than rowCount"). */
  rowCountExact: boolean;
  durationMs: number;
  /** The /rna address that runs the query again. */
  rerunUrl: string | null;
  rangeLeftRetention: "partly" | "entirely" | null;
  notice: string | null;
};

export type RnaHistoryPage = {
  page: number;
  pageSize: number;
  /** Entries kept for the user now, and the pages they fill (at least 1). */
  count: number;
  pages: number;
  kept: number;
  retentionDays: number;
  entries: RnaHistoryEntry[];
};

/** One page (1-based, RNA_HISTORY_PAGE_SIZE entries) of the user's history, newest first. */
export async function rnaHistoryPage(
  services: Services,
  user: Pick<UserContext, "id">,
  page: number,
  now = Math.floor(Date.now() / 1000),
): Promise<RnaHistoryPage> {
  const db = services.pg.db;
  const [rows, [{ count }]] = await Promise.all([
    db
      .select()
      .from(rnaQueryHistory)
      .where(eq(rnaQueryHistory.userId, user.id))
      .orderBy(desc(rnaQueryHistory.id))
      .offset((page - 1) * RNA_HISTORY_PAGE_SIZE)
      .limit(RNA_HISTORY_PAGE_SIZE),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(rnaQueryHistory)
      .where(eq(rnaQueryHistory.userId, user.id)),
  ]);
  return {
    page,
    pageSize: RNA_HISTORY_PAGE_SIZE,
    count,
    pages: Math.max(1, Math.ceil(count / RNA_HISTORY_PAGE_SIZE)),
    kept: RNA_HISTORY_KEPT,
    retentionDays: RAW_RETENTION_DAYS,
    entries: rows.map((row) => historyEntry(row, now)),
  };
}

function historyEntry(row: typeof rnaQueryHistory.$inferSelect, now: number): RnaHistoryEntry {
  const parsed = rnaHistoryQuerySchema.safeParse(row.query);
  const query = parsed.success ? parsed.data : null;
  const left = query ? rangeLeftRetention(query, now) : null;
  return {
    id: row.id,
    time: row.recordedAt.toISOString(),
    query,
    rowCount: row.rowCount,
    rowCountExact: row.rowCountExact,
    durationMs: row.durationMs,
    rerunUrl: query ? rnaRerunUrl(query) : null,
    rangeLeftRetention: left,
    notice: query ? (left ? RETENTION_NOTICES[left] : null) : UNREADABLE_NOTICE,
  };
}

/**
 * Records the first page of a query the screen or `api/rna/` answered (later pages of it, `after`
 * set, are the same query): its range as it ran (after clamping) and the columns asked for.
 */
export function recordRnaRun(
  services: Services,
  user: Pick<UserContext, "id">,
  query: RnaQuery,
  page: Pick<RnaPage, "range" | "total" | "durationMs">,
  columns: readonly string[] = query.columns,
): Promise<void> {
  if (query.after !== null) return Promise.resolve();
  return recordRnaQuery(services, user, {
    query: {
      start: page.range.start,
      end: page.range.end,
      columns: [...columns],
      filters: query.filters.map((f) => ({ dimension: f.dimension, values: f.values.map(String) })),
      expression: query.expression,
      aggregation: query.aggregation,
      includeCopies: query.includeCopies,
      sort: query.sort,
    },
    total: page.total,
    durationMs: page.durationMs,
  });
}
