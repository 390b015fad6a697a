/**
 * The traffic by AS on one interface (interface-statistics.ts), with the AS names the viewer reads
 * (effective names: the mapping layers, else as_info; special values by their names): the link
 * detail of the planner screens and api/linkutil/interfacestatistics/ both call it. Who may ask for
 * which interface is the caller's business (the planners' link catalogue decides it).
 */
import { z } from "zod";
import { effectiveNames, type NameViewer } from "~/features/tags/effective-names.server";
import { SPECIAL_AS_VALUES } from "~/lib/special-as";
import { chQuery } from "~/server/clickhouse/query.server";
import { cachedQuery } from "~/server/result-cache.server";
import type { Services } from "~/server/services.server";
import { interfaceStatisticsQuery, type InterfaceStatisticsInput } from "./interface-statistics";

export type InterfaceStatisticsRow = { asn: number; name: string | null; bps: number; bytes: string };

export async function interfaceStatistics(
  services: Pick<Services, "ch" | "pg">,
  viewer: NameViewer,
  /** `scope`: the viewer's restriction scope (restrictionScope), to read through the result cache. */
  input: Omit<InterfaceStatisticsInput, "now"> & { now?: number; scope?: string },
): Promise<InterfaceStatisticsRow[]> {
  const query = {
    ...interfaceStatisticsQuery({ ...input, now: input.now ?? Math.floor(Date.now() / 1000) }),
    schema: z.object({ asn: z.number(), total_bytes: z.string(), bps: z.number() }),
  };
  const rows = input.scope === undefined ? await chQuery(services.ch, query) : await cachedQuery(services.ch, query, input.scope);
  const names = await (await effectiveNames(services, viewer)).ases(rows.map((r) => r.asn));
  const special = new Map<number, string>(SPECIAL_AS_VALUES.map((s) => [s.asn, s.name]));
  return rows.map((r) => {
    const asn = Number(r.asn);
    const name = names.get(String(asn))?.name ?? special.get(asn) ?? null;
    return { asn, name, bps: Number(r.bps), bytes: String(r.total_bytes) };
  });
}
