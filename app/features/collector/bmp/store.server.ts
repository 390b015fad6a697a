/**
 * Where the BMP station writes: routing rows as JSONCompactEachRow into rib_entries (the bytes as
 * the station encoded them, through the query door's raw insert), and sweeps as one INSERT … SELECT
 * from rib_current after a look for candidates (sweep-sql.ts).
 */
import { z } from "zod";
import { RIB_COLUMNS } from "~/features/routing/mrt/rib-rows";
import { chCommand, chInsertRaw, chQuery } from "~/server/clickhouse/query.server";
import type { Services } from "~/server/services.server";
import type { SweepReason } from "./session.server";
import { sweepCandidatesSql, sweepSql, type SweepScope } from "./sweep-sql";
import type { PipelineStore } from "./write-pipeline.server";

/** A sweep as the pipeline carries it; `done` runs once it is written. */
export type StationSweep = { scope: SweepScope; at: number; label: string; reason: SweepReason; done?: () => void };

/** What a station writes to; tests hand in slow or failing ones. */
export type StationStore = PipelineStore<StationSweep>;

/** The store of the running app: the query door. */
export function doorStore(services: Services): StationStore {
  return {
    async insertRows(lines, rows) {
      await chInsertRaw(services.ch, {
        name: "bmp.ribEntries",
        table: "rib_entries",
        columns: RIB_COLUMNS,
        format: "JSONCompactEachRow",
        body: Buffer.from(`${lines.join("\n")}\n`, "utf8"),
        rows,
      });
    },
    async sweep({ scope, at }) {
      const [candidates] = await chQuery(services.ch, { ...sweepCandidatesSql(scope), schema: z.object({ n: z.number() }) });
      if (!Number(candidates?.n)) return false;
      await chCommand(services.ch, sweepSql(scope, at));
      return true;
    },
  };
}
