/**
 * The PeeringDB section of /site-settings/routing-data as people read it: the current import (the
 * dump's date, when and from what it was imported and by whom, the objects per type), the daily
 * sync's address and last attempt, and the upload's size limit. Times in the user's timezone.
 */
import { PEERINGDB_KINDS, peeringDbImport, type PeeringDbKind } from "~db/postgres/schema";
import { formatDateLongBare, safeTimezone } from "~/lib/date-format";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { getUserSettings } from "~/server/settings/user-settings.server";
import { lastSyncAttempt, syncSourceLabel } from "./sync.server";
import { megabytes } from "./upload.server";

/** The types the section counts, with their labels, in this order. */
export const PEERINGDB_COUNTED: [PeeringDbKind, string][] = [
  ["net", "Networks"],
  ["ix", "Exchanges"],
  ["fac", "Facilities"],
  ["netixlan", "Exchange ports (netixlan)"],
  ["netfac", "Facility presences (netfac)"],
];

const count = (n: number) => n.toLocaleString("en-US");

export async function loadPeeringDbSection(services: Pick<Services, "pg" | "config">, user: Pick<UserContext, "id">) {
  const [settings, rows, sync] = await Promise.all([
    getUserSettings(services.pg.db, user.id),
    services.pg.db.select().from(peeringDbImport),
    lastSyncAttempt(services),
  ]);
  const timezone = safeTimezone(settings.timezone);
  const date = (d: Date | string | null) => (d ? formatDateLongBare(new Date(d), timezone) : null);
  const row = rows[0];
  const stored = (row?.counts ?? {}) as Partial<Record<PeeringDbKind, number>>;
  const url = services.config.PEERINGDB_SYNC_URL;
  return {
    timezone,
    maxFileMegabytes: megabytes(services.config.MAX_PEERINGDB_UPLOAD),
    current: row
      ? {
          dumpDate: date(row.dumpDate),
          importedAt: date(row.importedAt)!,
          importedBy: row.importedBy,
          source: row.source,
          counts: PEERINGDB_COUNTED.map(([kind, label]) => ({ kind, label, value: count(stored[kind] ?? 0) })),
          /** Every type stored, for the line under the table. */
          objects: count(PEERINGDB_KINDS.reduce((sum, kind) => sum + (stored[kind] ?? 0), 0)),
        }
      : null,
    sync: {
      url: url ? syncSourceLabel(url) : null,
      last: sync ? { at: date(sync.at)!, ok: sync.ok, message: sync.message } : null,
    },
  };
}

export type PeeringDbSectionData = Awaited<ReturnType<typeof loadPeeringDbSection>>;
