/**
 * The RPKI section of /site-settings/routing-data as people read it: per source the VRPs it
 * delivers and when its set last changed; for the file its name and who imported it; for the RTR
 * cache the connection, the session, serial and intervals, and the last error. Times in the user's
 * timezone.
 */
import { formatDateLongBare, safeTimezone } from "~/lib/date-format";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { getUserSettings } from "~/server/settings/user-settings.server";
import { MAX_ROA_FILE_BYTES } from "./roa-import.server";
import { rpkiSourcesStatus } from "./vrp-store.server";

const count = (n: number) => n.toLocaleString("en-US");

export async function loadRpkiSection(services: Pick<Services, "pg">, user: Pick<UserContext, "id">, now = Date.now()) {
  const [settings, sources] = await Promise.all([getUserSettings(services.pg.db, user.id), rpkiSourcesStatus(services, now)]);
  const timezone = safeTimezone(settings.timezone);
  const date = (d: Date | null) => (d ? formatDateLongBare(d, timezone) : null);
  const { file, rtr } = sources;
  const fileCounts = file !== null && file.vrpCount > 0;
  const rtrCounts = rtr !== null && rtr.vrpCount > 0 && !rtr.expired;
  return {
    timezone,
    /** VRPs route origin validation uses now (the file's and the cache's, unless expired); 0: rows say "No ROA data". */
    inUse: count((fileCounts ? file.vrpCount : 0) + (rtrCounts ? rtr.vrpCount : 0)),
    anyInUse: fileCounts || rtrCounts,
    maxFileMegabytes: MAX_ROA_FILE_BYTES / 1024 / 1024,
    file: file
      ? {
          vrps: count(file.vrpCount),
          updated: date(file.updatedAt),
          fileName: file.fileName,
          importedBy: file.importedBy,
          hasVrps: file.vrpCount > 0,
        }
      : null,
    rtr: rtr
      ? {
          cache: rtr.cache ?? "",
          vrps: count(rtr.vrpCount),
          updated: date(rtr.updatedAt),
          connected: rtr.connected,
          version:
            rtr.protocolVersion === null
              ? null
              : `RTR version ${rtr.protocolVersion} (${rtr.protocolVersion === 0 ? "RFC 6810" : "RFC 8210"})`,
          session: rtr.sessionId === null ? null : `session ${rtr.sessionId}, serial ${rtr.serial}`,
          lastSuccess: date(rtr.lastSuccessAt),
          intervals:
            rtr.refreshSeconds === null
              ? null
              : `refresh ${rtr.refreshSeconds} s, retry ${rtr.retrySeconds} s, expire ${rtr.expireSeconds} s`,
          expired: rtr.expired,
          lastError: rtr.lastError ? { at: date(rtr.lastErrorAt), text: rtr.lastError } : null,
        }
      : null,
  };
}

export type RpkiSectionData = Awaited<ReturnType<typeof loadRpkiSection>>;
