/**
 * Importing PeeringDB's JSON — the per-object API answers (`{"data": [...]}` of net, org, ix, ixlan,
 * ixpfx, netixlan, fac, netfac, poc; the type taken from the file's name, e.g. net.json) or one
 * file holding them under those keys (a full dump) — streamed: each object is checked and written
 * as it is read, inside one transaction that first removes the previous import. One bad object,
 * a truncated file, or no network at all, and the transaction is rolled back: the previous import
 * stays whole. Used by `npm run peeringdb:import`.
 */
import { sql } from "drizzle-orm";
import { PEERINGDB_KINDS, peeringDbImport, peeringDbObjects, type PeeringDbKind } from "~db/postgres/schema";
import type { Services } from "~/server/services.server";
import { recordAudit, type AuditActor } from "~/server/audit/audit-log.server";
import { JsonStreamError, PeeringDbJsonReader, type StreamEvent } from "./json-stream";

/** A file refused: what is wrong (the objects at fault named by type and id); nothing was changed. */
export class PeeringDbFileError extends Error {
  constructor(
    message: string,
    readonly problems: string[] = [message],
    readonly problemCount = problems.length,
  ) {
    super(message);
    this.name = "PeeringDbFileError";
  }
}

export type PeeringDbSource = { name: string; chunks: AsyncIterable<Uint8Array | string> };

export type PeeringDbImportSummary = {
  source: string;
  counts: Record<PeeringDbKind, number>;
  /** Objects not kept: deleted ones (status "deleted") and those of types not kept (campus, carrier …). */
  skipped: number;
  /** Objects of the previous import, replaced. */
  replaced: number;
  dumpDate: Date | null;
  seconds: number;
};

/** Objects per INSERT: sent as one JSON parameter unnested by the server. */
const BATCH = 2000;
/** Problems named one by one; the others are counted. */
const MAX_PROBLEMS = 20;
const COMMAND_LINE = "command line";

const isKind = (k: string): k is PeeringDbKind => (PEERINGDB_KINDS as readonly string[]).includes(k);

/** The object type a per-object file holds, from its name ("net.json", "peeringdb-netixlan-2026.json"); longest names first. */
export function kindOfFileName(name: string): PeeringDbKind | null {
  const base = name.toLowerCase().replace(/^.*[\\/]/, "");
  for (const kind of [...PEERINGDB_KINDS].sort((a, b) => b.length - a.length)) {
    if (new RegExp(`(^|[^a-z])${kind}([^a-z]|$)`).test(base)) return kind;
  }
  return null;
}

/** Integer fields each type must have (PeeringDB's references), besides a positive id. */
const REQUIRED_IDS: Record<PeeringDbKind, string[]> = {
  net: ["asn"],
  org: [],
  ix: [],
  ixlan: ["ix_id"],
  ixpfx: ["ixlan_id"],
  netixlan: ["net_id", "ixlan_id", "asn"],
  fac: [],
  netfac: ["net_id", "fac_id"],
  poc: ["net_id"],
};
const REQUIRED_TEXTS: Record<PeeringDbKind, string[]> = {
  net: ["name"],
  org: ["name"],
  ix: ["name"],
  ixlan: [],
  ixpfx: ["prefix"],
  netixlan: [],
  fac: ["name"],
  netfac: [],
  poc: ["role"],
};

const isId = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v > 0 && v <= 2_147_483_647;
const isAsn = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= 4_294_967_295;

type Row = { kind: PeeringDbKind; id: number; asn: number | null; net_id: number | null; data: Record<string, unknown> };

/** The object as stored, or what is wrong with it. */
export function checkObject(kind: PeeringDbKind, value: unknown): { row: Row } | { problem: string } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { problem: `${kind}: an entry that is not an object` };
  const o = value as Record<string, unknown>;
  if (!isId(o.id)) return { problem: `${kind}: an object without a valid id (${JSON.stringify(o.id ?? null)})` };
  const at = `${kind} ${o.id}`;
  for (const field of REQUIRED_IDS[kind]) {
    const ok = field === "asn" ? isAsn(o[field]) : isId(o[field]);
    if (!ok)
      return { problem: `${at}: ${field} is ${o[field] === undefined ? "missing" : `not a valid number (${JSON.stringify(o[field])})`}` };
  }
  for (const field of REQUIRED_TEXTS[kind]) {
    if (typeof o[field] !== "string") return { problem: `${at}: ${field} is ${o[field] === undefined ? "missing" : "not a text"}` };
  }
  if (JSON.stringify(o).includes("\\u0000")) return { problem: `${at}: a text holds a NUL character` };
  const asn = kind === "net" || kind === "netixlan" ? (o.asn as number) : kind === "netfac" && isAsn(o.local_asn) ? o.local_asn : null;
  const netId = kind === "netixlan" || kind === "netfac" || kind === "poc" ? (o.net_id as number) : null;
  return { row: { kind, id: o.id, asn, net_id: netId, data: o } };
}

const dateOf = (v: unknown): Date | null => {
  if (typeof v === "number" && Number.isFinite(v) && v > 0) return new Date(v * 1000);
  if (typeof v === "string") {
    const d = new Date(v);
    if (!Number.isNaN(d.getTime())) return d;
  }
  return null;
};
const later = (a: Date | null, b: Date | null) => (a && b ? (a > b ? a : b) : (a ?? b));

/**
 * Replaces the stored PeeringDB objects with those of the sources, in one transaction; throws
 * PeeringDbFileError (and changes nothing) for a file that is not PeeringDB's JSON or holds a bad object.
 */
export async function importPeeringDb(
  services: { pg: Pick<Services["pg"], "db"> },
  input: { sources: PeeringDbSource[]; actor: AuditActor; by?: string; clientAddress?: string | null },
): Promise<PeeringDbImportSummary> {
  const started = performance.now();
  if (input.sources.length === 0) throw new PeeringDbFileError("No file given.");
  const counts = Object.fromEntries(PEERINGDB_KINDS.map((k) => [k, 0])) as Record<PeeringDbKind, number>;
  const seen = new Map<PeeringDbKind, Set<number>>(PEERINGDB_KINDS.map((k) => [k, new Set<number>()]));
  const problems: string[] = [];
  let problemCount = 0;
  let skipped = 0;
  let metaDate: Date | null = null;
  let updatedDate: Date | null = null;
  const problem = (text: string) => {
    problemCount++;
    if (problems.length < MAX_PROBLEMS) problems.push(text);
  };
  const sourceLabel = input.sources.map((s) => s.name).join(", ");

  return services.pg.db.transaction(async (tx) => {
    const [{ n: replaced }] = await tx.select({ n: sql<number>`count(*)::int` }).from(peeringDbObjects);
    await tx.delete(peeringDbObjects);
    let batch: Row[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const rows = batch;
      batch = [];
      if (problemCount > 0) return;
      await tx.execute(sql`INSERT INTO ${peeringDbObjects} (kind, id, asn, net_id, data)
        SELECT r.kind, r.id, r.asn, r.net_id, r.data FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          AS r(kind text, id integer, asn bigint, net_id integer, data jsonb)`);
    };

    for (const source of input.sources) {
      const fileKind = kindOfFileName(source.name);
      let objects = 0;
      const pending: StreamEvent[] = [];
      const reader = new PeeringDbJsonReader((event) => pending.push(event));
      const take = async () => {
        for (const event of pending.splice(0)) {
          const kind = event.kind ?? fileKind;
          if (event.type === "meta") {
            if (typeof event.value === "object" && event.value)
              metaDate = later(metaDate, dateOf((event.value as Record<string, unknown>).generated));
            continue;
          }
          if (kind === null) {
            throw new PeeringDbFileError(
              `${source.name}: a single object list must be named after its type (net.json, ix.json, netixlan.json …).`,
            );
          }
          objects++;
          if (!isKind(kind)) {
            skipped++;
            continue;
          }
          const checked = checkObject(kind, event.value);
          if ("problem" in checked) {
            problem(`${source.name}: ${checked.problem}`);
            continue;
          }
          const { row } = checked;
          if (row.data.status === "deleted") {
            skipped++;
            continue;
          }
          const ids = seen.get(kind)!;
          if (ids.has(row.id)) {
            problem(`${source.name}: ${kind} ${row.id} appears twice`);
            continue;
          }
          ids.add(row.id);
          counts[kind]++;
          updatedDate = later(updatedDate, dateOf(row.data.updated));
          batch.push(row);
          if (batch.length >= BATCH) await flush();
        }
      };
      const decoder = new TextDecoder("utf-8", { fatal: true });
      try {
        for await (const chunk of source.chunks) {
          reader.push(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
          await take();
        }
        reader.push(decoder.decode());
        reader.end();
        await take();
      } catch (error) {
        if (error instanceof JsonStreamError) throw new PeeringDbFileError(`${source.name}: ${error.message}`);
        if (error instanceof TypeError && /decode|encoded/i.test(error.message))
          throw new PeeringDbFileError(`${source.name} is not a text file (UTF-8 JSON).`);
        throw error;
      }
      if (objects === 0) throw new PeeringDbFileError(`${source.name} holds no PeeringDB objects (${PEERINGDB_KINDS.join(", ")}).`);
    }
    await flush();
    if (problemCount > 0) {
      throw new PeeringDbFileError(`${sourceLabel} was not imported: ${problemCount} bad objects.`, problems, problemCount);
    }
    if (counts.net === 0) throw new PeeringDbFileError(`${sourceLabel} holds no networks (net): not imported.`);
    const dumpDate = metaDate ?? updatedDate;
    const importedBy = input.actor?.email ?? input.by ?? COMMAND_LINE;
    await tx
      .insert(peeringDbImport)
      .values({ id: 1, generation: 1, dumpDate, source: sourceLabel, importedBy, counts })
      .onConflictDoUpdate({
        target: peeringDbImport.id,
        set: {
          generation: sql`${peeringDbImport.generation} + 1`,
          dumpDate,
          importedAt: new Date(),
          source: sourceLabel,
          importedBy,
          counts,
        },
      });
    await recordAudit(tx, {
      actor: input.actor,
      action: "peeringdb.import",
      targetType: "peeringdb",
      targetId: "import",
      targetLabel: "PeeringDB data",
      before: { objects: replaced },
      after: { ...counts, source: sourceLabel, dump_date: dumpDate?.toISOString() ?? null },
      clientAddress: input.clientAddress ?? null,
    });
    return { source: sourceLabel, counts, skipped, replaced, dumpDate, seconds: (performance.now() - started) / 1000 };
  });
}
