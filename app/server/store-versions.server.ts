import { eq } from "drizzle-orm";
import { siteSettings, users } from "~db/postgres/schema";
import { clickhouseVersion } from "./clickhouse/query.server";
import type { Services } from "./services.server";

export type StoreVersions = {
  clickhouseDbVersion: string;
  clickhouseServerVersion: string;
  overrideClickhouseDb: string | null;
  overrideClickhouseRawFlowDb: string | null;
};

/** The data layout and ClickHouse server versions, and the database overrides of one user (api/version/). */
export async function storeVersions(services: Pick<Services, "pg" | "ch">, userId: number): Promise<StoreVersions> {
  const [[settings], [row], chVersion] = await Promise.all([
    services.pg.db.select({ clickhouseDbVersion: siteSettings.clickhouseDbVersion }).from(siteSettings).where(eq(siteSettings.id, 1)),
    services.pg.db.select({ a: users.overrideClickhouseDb, b: users.overrideClickhouseRawFlowDb }).from(users).where(eq(users.id, userId)),
    clickhouseVersion(services.ch),
  ]);
  return {
    clickhouseDbVersion: settings?.clickhouseDbVersion ?? "",
    clickhouseServerVersion: chVersion,
    overrideClickhouseDb: row?.a ?? null,
    overrideClickhouseRawFlowDb: row?.b ?? null,
  };
}
