/**
 * The site's default query (rna_default_query, docs/rna.md "Default query") as the screen's
 * defaults take it: read from the site settings, checked against the analyzer's columns, and
 * turned into the parts of the screen's default state it gives. A value that does not fit is
 * the built-in default and a notice (readRnaDefaultQuery), never an error.
 */
import { eq } from "drizzle-orm";
import { siteSettings } from "~db/postgres/schema";
import type { Services } from "~/server/services.server";
import { RNA_COLUMNS } from "./columns";
import { readRnaDefaultQuery, type RnaDefaultQuery } from "./default-query";
import type { StoredRnaDefault } from "./params";

export const RNA_COLUMN_IDS: readonly string[] = RNA_COLUMNS.map((c) => c.id);

/** The stored default as the screen's state reads it: only what it sets (null columns: the built-in ones). */
export function storedDefaultOf(value: RnaDefaultQuery): StoredRnaDefault {
  return {
    ...(value.columns ? { columns: value.columns } : {}),
    filters: value.filters,
    expression: value.filterExpression,
    aggregation: value.aggregationPrefixes,
    sort: value.sort,
    dateRange: value.range,
  };
}

export async function siteDefaultQuery(services: Services): Promise<{ value: StoredRnaDefault; notice: string | null }> {
  const [row] = await services.pg.db.select({ stored: siteSettings.rnaDefaultQuery }).from(siteSettings).where(eq(siteSettings.id, 1));
  const read = readRnaDefaultQuery(row?.stored ?? {}, { columnIds: RNA_COLUMN_IDS });
  return { value: storedDefaultOf(read.value), notice: read.notice };
}
