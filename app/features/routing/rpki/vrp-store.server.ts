/**
 * The VRPs in PostgreSQL (rpki_vrps, rpki_sources): the file set replaced by an import, the RTR set
 * changed at each End of Data, each in one transaction with its source's row; the state of each
 * source for the routing data screen; and the process's ROA index of the union of the sources,
 * rebuilt when a source's `generation` changed — checked at most every few seconds, and at once
 * after a change made by this process.
 */
import { rowsOf } from "~/server/postgres.server";
import { eq, sql } from "drizzle-orm";
import { rpkiSources, rpkiVrps, type RpkiSource } from "~db/postgres/schema";
import type { PostgresHandle } from "~/server/postgres.server";
import type { Services } from "~/server/services.server";
import { recordAudit, type AuditActor } from "~/server/audit/audit-log.server";
import { parsePrefix, RoaIndex } from "./roa-index";

type Db = PostgresHandle["db"];
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** A VRP as stored: the prefix as text ("192.0.2.0/24", compressed IPv6). */
export type StoredVrp = { prefix: string; maxLength: number; asn: number; trustAnchor: string };

/**
 * Rows per statement. The rows travel as four array parameters (one per column, unnested by the
 * server) rather than as one parameter per value: a full set of 500,000 VRPs is ten statements, and
 * the server parses arrays far quicker than it binds millions of parameters.
 */
const BATCH = 50_000;

/** A PostgreSQL array literal of texts: every element quoted, backslashes and quotes escaped. */
const textArray = (values: readonly string[]) => `{${values.map((v) => `"${v.replace(/[\\"]/g, "\\$&")}"`).join(",")}}`;
const numberArray = (values: readonly number[]) => `{${values.join(",")}}`;

/** The VRPs as the four array parameters of an unnest(): prefixes, max lengths, AS numbers, trust anchors. */
function vrpArrays(vrps: readonly StoredVrp[]) {
  return sql`unnest(${textArray(vrps.map((v) => v.prefix))}::cidr[], ${numberArray(vrps.map((v) => v.maxLength))}::smallint[],
    ${numberArray(vrps.map((v) => v.asn))}::bigint[], ${textArray(vrps.map((v) => v.trustAnchor))}::text[])`;
}

/** How often a process asks whether the VRPs changed, at most. */
export const INDEX_CHECK_MS = 3000;

/** The source's row, created empty the first time, locked for the transaction: changes of one source follow each other. */
async function lockSource(tx: Tx, source: RpkiSource) {
  await tx.insert(rpkiSources).values({ source }).onConflictDoNothing();
  const [row] = await tx.select().from(rpkiSources).where(eq(rpkiSources.source, source)).for("update");
  return row;
}

async function insertVrps(tx: Tx, source: RpkiSource, vrps: readonly StoredVrp[]): Promise<void> {
  for (let i = 0; i < vrps.length; i += BATCH) {
    await tx.execute(sql`INSERT INTO ${rpkiVrps} (source, prefix, max_length, asn, trust_anchor)
      SELECT ${source}, * FROM ${vrpArrays(vrps.slice(i, i + BATCH))}`);
  }
}

async function deleteVrps(tx: Tx, source: RpkiSource, vrps: readonly StoredVrp[]): Promise<void> {
  for (let i = 0; i < vrps.length; i += BATCH) {
    await tx.execute(sql`DELETE FROM ${rpkiVrps} v USING ${vrpArrays(vrps.slice(i, i + BATCH))} AS w(prefix, max_length, asn, trust_anchor)
      WHERE v.source = ${source} AND v.prefix = w.prefix AND v.max_length = w.max_length AND v.asn = w.asn
        AND v.trust_anchor = w.trust_anchor`);
  }
}

async function countVrps(tx: Tx, source: RpkiSource): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(rpkiVrps)
    .where(eq(rpkiVrps.source, source));
  return Number(row.n);
}

/** Who changed the file's set: a staff member (audited with the client's address), or null for the command line. */
export type FileChangeBy = { actor: AuditActor; clientAddress?: string | null };
export type FileImport = FileChangeBy & { vrps: readonly StoredVrp[]; fileName: string };

const COMMAND_LINE = "command line";

/** Replaces the file's VRPs with these (no duplicates among them) in one transaction. */
export async function replaceFileVrps(services: Pick<Services, "pg">, input: FileImport): Promise<{ vrpCount: number; replaced: number }> {
  const result = await services.pg.db.transaction(async (tx) => {
    const before = await lockSource(tx, "file");
    const replaced = await countVrps(tx, "file");
    await tx.delete(rpkiVrps).where(eq(rpkiVrps.source, "file"));
    await insertVrps(tx, "file", input.vrps);
    await tx
      .update(rpkiSources)
      .set({
        generation: sql`${rpkiSources.generation} + 1`,
        updatedAt: new Date(),
        vrpCount: input.vrps.length,
        fileName: input.fileName,
        importedBy: input.actor?.email ?? COMMAND_LINE,
      })
      .where(eq(rpkiSources.source, "file"));
    await recordAudit(tx, {
      actor: input.actor,
      action: "rpki_file.import",
      targetType: "rpki_source",
      targetId: "file",
      targetLabel: "ROA file",
      before: { vrp_count: replaced, file_name: before.fileName },
      after: { vrp_count: input.vrps.length, file_name: input.fileName },
      clientAddress: input.clientAddress ?? null,
    });
    return { vrpCount: input.vrps.length, replaced };
  });
  roaIndexChanged(services);
  return result;
}

/** Removes the file's VRPs (the RTR set stays). */
export async function clearFileVrps(services: Pick<Services, "pg">, by: FileChangeBy): Promise<{ removed: number }> {
  const removed = await services.pg.db.transaction(async (tx) => {
    const before = await lockSource(tx, "file");
    const n = await countVrps(tx, "file");
    await tx.delete(rpkiVrps).where(eq(rpkiVrps.source, "file"));
    await tx
      .update(rpkiSources)
      .set({
        generation: sql`${rpkiSources.generation} + 1`,
        updatedAt: new Date(),
        vrpCount: 0,
        fileName: null,
        importedBy: by.actor?.email ?? COMMAND_LINE,
      })
      .where(eq(rpkiSources.source, "file"));
    await recordAudit(tx, {
      actor: by.actor,
      action: "rpki_file.clear",
      targetType: "rpki_source",
      targetId: "file",
      targetLabel: "ROA file",
      before: { vrp_count: n, file_name: before.fileName },
      after: { vrp_count: 0, file_name: null },
      clientAddress: by.clientAddress ?? null,
    });
    return n;
  });
  roaIndexChanged(services);
  return { removed };
}

/** What the RTR client knows of its cache after an End of Data (or a failure). */
export type RtrSourceState = {
  cache: string;
  sessionId: number | null;
  serial: number | null;
  protocolVersion: number | null;
  refreshSeconds: number | null;
  retrySeconds: number | null;
  expireSeconds: number | null;
};

/**
 * Writes what an End of Data completed: a full set (after a Reset Query) replaces the RTR set; an
 * incremental one (after a Serial Query) deletes the withdrawn VRPs and adds the announced ones.
 * The generation grows only when the set changed. One transaction.
 */
export async function writeRtrSet(
  services: Pick<Services, "pg">,
  input: { full: readonly StoredVrp[] } | { announced: readonly StoredVrp[]; withdrawn: readonly StoredVrp[] },
  state: RtrSourceState,
  at: Date = new Date(),
): Promise<{ vrpCount: number; changed: boolean }> {
  const result = await services.pg.db.transaction(async (tx) => {
    const row = await lockSource(tx, "rtr");
    let changed: boolean;
    let vrpCount: number;
    if ("full" in input) {
      await tx.delete(rpkiVrps).where(eq(rpkiVrps.source, "rtr"));
      await insertVrps(tx, "rtr", input.full);
      vrpCount = input.full.length;
      // A reset that delivers the very set stored (a restart, a cache reset) is still a new set: rebuild to be sure.
      changed = true;
    } else {
      await deleteVrps(tx, "rtr", input.withdrawn);
      await insertVrps(tx, "rtr", input.announced);
      changed = input.withdrawn.length + input.announced.length > 0;
      vrpCount = changed ? await countVrps(tx, "rtr") : row.vrpCount;
    }
    await tx
      .update(rpkiSources)
      .set({
        ...(changed ? { generation: sql`${rpkiSources.generation} + 1`, updatedAt: at } : {}),
        vrpCount,
        ...state,
        lastSuccessAt: at,
        connected: true,
      })
      .where(eq(rpkiSources.source, "rtr"));
    return { vrpCount, changed };
  });
  if (result.changed) roaIndexChanged(services);
  return result;
}

/** Records the connection's state (and an error) without touching the set. */
export async function recordRtrConnection(
  services: Pick<Services, "pg">,
  update: { cache: string; connected: boolean; error?: string; at?: Date; protocolVersion?: number },
): Promise<void> {
  await services.pg.db
    .insert(rpkiSources)
    .values({ source: "rtr", cache: update.cache, connected: update.connected })
    .onConflictDoNothing();
  await services.pg.db
    .update(rpkiSources)
    .set({
      cache: update.cache,
      connected: update.connected,
      ...(update.protocolVersion !== undefined ? { protocolVersion: update.protocolVersion } : {}),
      ...(update.error !== undefined ? { lastError: update.error.slice(0, 1000), lastErrorAt: update.at ?? new Date() } : {}),
    })
    .where(eq(rpkiSources.source, "rtr"));
}

/** Drops the RTR set (its data expired, or the configured cache changed): the source's row says why. */
export async function dropRtrSet(services: Pick<Services, "pg">, reason: string, at: Date = new Date()): Promise<number> {
  const removed = await services.pg.db.transaction(async (tx) => {
    await lockSource(tx, "rtr");
    const n = await countVrps(tx, "rtr");
    await tx.delete(rpkiVrps).where(eq(rpkiVrps.source, "rtr"));
    await tx
      .update(rpkiSources)
      .set({
        generation: sql`${rpkiSources.generation} + 1`,
        updatedAt: at,
        vrpCount: 0,
        sessionId: null,
        serial: null,
        lastError: reason.slice(0, 1000),
        lastErrorAt: at,
      })
      .where(eq(rpkiSources.source, "rtr"));
    return n;
  });
  roaIndexChanged(services);
  return removed;
}

/** The stored RTR set and state, for a client resuming its session after a restart. */
export async function readRtrSet(
  services: Pick<Services, "pg">,
): Promise<{ state: typeof rpkiSources.$inferSelect | null; vrps: StoredVrp[] }> {
  const [state] = await services.pg.db.select().from(rpkiSources).where(eq(rpkiSources.source, "rtr"));
  if (!state) return { state: null, vrps: [] };
  const [row] = rowsOf<{ vrps: string | null }>(
    await services.pg.db.execute(sql`SELECT string_agg(prefix::text || ' ' || max_length || ' ' || asn, ',') AS vrps
      FROM ${rpkiVrps} WHERE source = 'rtr'`),
  );
  const vrps = (row?.vrps ? row.vrps.split(",") : []).map((entry) => {
    const [prefix, maxLength, asn] = entry.split(" ");
    return { prefix, maxLength: Number(maxLength), asn: Number(asn), trustAnchor: "" };
  });
  return { state, vrps };
}

/** Whether the RTR set is past its expire interval without a successful refresh (RFC 8210 §6). */
export function rtrSetExpired(
  state: { lastSuccessAt: Date | null; expireSeconds: number | null; vrpCount: number },
  now: number,
  defaultExpireSeconds = 7200,
): boolean {
  if (!state.lastSuccessAt) return state.vrpCount > 0;
  return now - state.lastSuccessAt.getTime() > (state.expireSeconds ?? defaultExpireSeconds) * 1000;
}

export type RpkiSourceStatus = typeof rpkiSources.$inferSelect & { expired: boolean };

/** Each source's row (null before it delivered anything), for the routing data screen. */
export async function rpkiSourcesStatus(
  services: Pick<Services, "pg">,
  now = Date.now(),
): Promise<Record<RpkiSource, RpkiSourceStatus | null>> {
  const rows = await services.pg.db.select().from(rpkiSources);
  const of = (source: RpkiSource): RpkiSourceStatus | null => {
    const row = rows.find((r) => r.source === source);
    return row ? { ...row, expired: source === "rtr" && rtrSetExpired(row, now) } : null;
  };
  return { file: of("file"), rtr: of("rtr") };
}

// ---------------------------------------------------------------------------------------------
// The process's ROA index

/**
 * Per store handle: the index built last (and the key of the sources it was built from), when the
 * sources were last checked, the changes this process made, and the last change the index includes.
 */
type IndexState = {
  key: string | null;
  index: RoaIndex | null;
  checkedAt: number;
  changes: number;
  builtWith: number;
  pending: { changes: number; work: Promise<RoaIndex | null> } | null;
};
const states = new WeakMap<object, IndexState>();

function stateOf(services: Pick<Services, "pg">): IndexState {
  let state = states.get(services.pg);
  if (!state) states.set(services.pg, (state = { key: null, index: null, checkedAt: -Infinity, changes: 0, builtWith: 0, pending: null }));
  return state;
}

/** After a change made in this process: the next read checks the sources at once and waits for the new index. */
export function roaIndexChanged(services: Pick<Services, "pg">): void {
  const state = stateOf(services);
  state.changes += 1;
  state.checkedAt = -Infinity;
}

/** Which sources count now, and their generations: the key of the index built from them. */
async function currentKey(db: Db, now: number): Promise<{ key: string; sources: RpkiSource[] }> {
  const rows = await db
    .select({
      source: rpkiSources.source,
      generation: rpkiSources.generation,
      vrpCount: rpkiSources.vrpCount,
      lastSuccessAt: rpkiSources.lastSuccessAt,
      expireSeconds: rpkiSources.expireSeconds,
    })
    .from(rpkiSources);
  const sources = rows
    .filter((r) => r.vrpCount > 0 && !(r.source === "rtr" && rtrSetExpired(r, now)))
    .map((r) => r.source)
    .sort();
  const key = sources.map((s) => `${s}:${rows.find((r) => r.source === s)!.generation}`).join(" ");
  return { key, sources };
}

/** Entries parsed between two turns of the event loop while an index is built: requests keep being served. */
const BUILD_SLICE = 50_000;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function buildIndex(db: Db, sources: RpkiSource[]): Promise<RoaIndex | null> {
  if (!sources.length) return null;
  const index = new RoaIndex();
  for (const source of sources) {
    // One text per family and source: a driver turns a single large value into a string many times
    // quicker than half a million rows into objects. IPv4 comes as the index keeps it — the prefix
    // length, the network bits as a number, asn × 256 + maxLength — so nothing is parsed but numbers.
    const [v4] = rowsOf<{ vrps: string | null }>(
      await db.execute(sql`SELECT string_agg(masklen(prefix) || ' ' || ((prefix - '0.0.0.0'::inet) >> (32 - masklen(prefix)))
          || ' ' || (asn * 256 + max_length), ',') AS vrps
        FROM ${rpkiVrps} WHERE source = ${source} AND family(prefix) = 4`),
    );
    const entries = v4?.vrps ? v4.vrps.split(",") : [];
    for (let i = 0; i < entries.length; i++) {
      if (i % BUILD_SLICE === BUILD_SLICE - 1) await nextTurn();
      const entry = entries[i];
      const a = entry.indexOf(" ");
      const b = entry.indexOf(" ", a + 1);
      index.addPacked4(Number(entry.slice(0, a)), Number(entry.slice(a + 1, b)), Number(entry.slice(b + 1)));
    }
    const [v6] = rowsOf<{ vrps: string | null }>(
      await db.execute(sql`SELECT string_agg(prefix::text || ' ' || max_length || ' ' || asn, ',') AS vrps
        FROM ${rpkiVrps} WHERE source = ${source} AND family(prefix) = 6`),
    );
    const entries6 = v6?.vrps ? v6.vrps.split(",") : [];
    for (let i = 0; i < entries6.length; i++) {
      if (i % BUILD_SLICE === BUILD_SLICE - 1) await nextTurn();
      const [prefix, maxLength, asn] = entries6[i].split(" ");
      const route = parsePrefix(prefix);
      if (route) index.add({ ...route, maxLength: Number(maxLength), asn: Number(asn) });
    }
  }
  return index.size ? index : null;
}

/**
 * The ROA index of every VRP that counts now (the file's, and the RTR cache's unless expired), or
 * null when there is none: then no route can be judged. Cached per process and store: the sources'
 * generations are read at most every INDEX_CHECK_MS, and the index rebuilt when they changed. While
 * another process's change is being built in, the previous index answers; after a change made by
 * this process (an import, an RTR update) the next read waits for the new one.
 */
export async function currentRoaIndex(services: Pick<Services, "pg">, now = Date.now()): Promise<RoaIndex | null> {
  const state = stateOf(services);
  if (now - state.checkedAt < INDEX_CHECK_MS) return state.index;
  const mustWait = state.key === null || state.builtWith !== state.changes;
  // A check under way answers too, unless this process changed the VRPs after it began.
  if (state.pending && state.pending.changes === state.changes) return mustWait ? state.pending.work : state.index;
  const changes = state.changes;
  const work = (async () => {
    const { key, sources } = await currentKey(services.pg.db, now);
    const index = key === state.key ? state.index : await buildIndex(services.pg.db, sources);
    // A newer check (after a change of ours) may have begun meanwhile: it will store its own result.
    if (changes === state.changes) {
      state.key = key;
      state.index = index;
      state.checkedAt = now;
      state.builtWith = changes;
    }
    return index;
  })();
  state.pending = { changes, work };
  const settled = work.finally(() => {
    if (state.pending?.work === work) state.pending = null;
  });
  if (mustWait) return settled;
  // Served from the previous index; a failure of the background check is tried again at the next read.
  settled.catch(() => {});
  return state.index;
}
