/**
 * Mappings: names and colours of ASes, applications and infrastructures in layers (shell §3
 * "mapping models", "mapping layers"; RNA API §7 api/mapping/).
 *
 * Layers: base 0 (shipped), product 10, site 20 (the installation's operators) and user 30 (one
 * row per user, seen only by that user). For the name and for the colour each, the highest layer
 * that sets it wins, so a user can recolour an AS and keep the site's name for it.
 *
 * Writing (the rules are in mapping-model.ts, one place for the API, the screens and the CSV
 * import): layer 30 is every user's own row (an AS's name there needs API_CHANGE_AS_INFO); the site
 * layer 20 is written by moderators, staff and superusers (shell §6); layers 0 and 10 by staff and
 * superusers only.
 */
import { and, asc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { asInfo, asServiceMappings, mappings } from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import { executeRows, type Db } from "~/server/postgres.server";
import { forgetEffectiveNames } from "./effective-names.server";
import {
  effectiveMapping,
  MAPPING_LAYERS,
  mappingLayerName,
  mappingWriteProblem,
  mayAssignServices,
  normalizeObjectId,
  USER_LAYER,
  type EffectiveMapping,
  type MappingActor,
  type MappingLayer,
  type MappingModel,
} from "./mapping-model";

export { effectiveMapping, normalizeObjectId, type EffectiveMapping };

export type MappingRow = { objectId: string; layer: number; name: string | null; color: string | null; own: boolean };

/** The rows a user sees: the shared layers and their own user-layer row (never another user's). */
const visibleTo = (user: Pick<UserContext, "id">) =>
  or(
    and(isNull(mappings.ownerUserId), inArray(mappings.layer, [MAPPING_LAYERS.base, MAPPING_LAYERS.product, MAPPING_LAYERS.site])),
    and(eq(mappings.layer, USER_LAYER), eq(mappings.ownerUserId, user.id)),
  );

/** The visible mapping rows of some objects of a model, lowest layer first. */
export async function mappingRows(
  db: Db,
  user: Pick<UserContext, "id">,
  model: MappingModel,
  objectIds: readonly string[],
): Promise<MappingRow[]> {
  if (!objectIds.length) return [];
  const rows = await db
    .select({ objectId: mappings.objectId, layer: mappings.layer, name: mappings.name, color: mappings.color, owner: mappings.ownerUserId })
    .from(mappings)
    .where(and(eq(mappings.model, model), inArray(mappings.objectId, [...new Set(objectIds)]), visibleTo(user)))
    .orderBy(asc(mappings.objectId), asc(mappings.layer));
  return rows.map((r) => ({ objectId: r.objectId, layer: r.layer, name: r.name, color: r.color, own: r.owner === user.id }));
}

/** Effective name and colour per object (objects without any visible row are left out). */
export async function effectiveMappings(
  db: Db,
  user: Pick<UserContext, "id">,
  model: MappingModel,
  objectIds: readonly string[],
): Promise<Map<string, EffectiveMapping>> {
  const byObject = new Map<string, MappingRow[]>();
  for (const row of await mappingRows(db, user, model, objectIds)) byObject.set(row.objectId, [...(byObject.get(row.objectId) ?? []), row]);
  return new Map([...byObject].map(([id, rows]) => [id, effectiveMapping(rows)]));
}

/** One object's visible layers and the effective result: the answer of GET api/mapping/. */
export async function describeMapping(db: Db, user: Pick<UserContext, "id">, model: MappingModel, objectId: string) {
  const rows = await mappingRows(db, user, model, [objectId]);
  return {
    type: model,
    id: objectId,
    layers: rows.map((r) => ({ priority: r.layer, layer: mappingLayerName(r.layer), name: r.name, color: r.color, own: r.own })),
    effective: effectiveMapping(rows),
  };
}

/** The write rules of mapping-model.ts as a 403 (`setsName`: the write gives the object a name). */
export function assertMayWriteLayer(user: MappingActor, model: MappingModel, layer: MappingLayer, setsName: boolean): void {
  const problem = mappingWriteProblem(user, model, layer, setsName);
  if (problem) throw new ApiProblem(403, { detail: `${MESSAGES.permissionDenied} ${problem}`, exception_code: "permission_denied" });
}

/** Who writes mappings: the user's id (the owner of layer 30) and what the rules look at. */
export type MappingWriter = Pick<UserContext, "id"> & MappingActor;

const ownerOf = (user: Pick<UserContext, "id">, layer: MappingLayer) => (layer === USER_LAYER ? user.id : null);
const rowOf = (model: MappingModel, objectId: string, layer: MappingLayer, owner: number | null) =>
  and(
    eq(mappings.model, model),
    eq(mappings.objectId, objectId),
    eq(mappings.layer, layer),
    owner === null ? isNull(mappings.ownerUserId) : eq(mappings.ownerUserId, owner),
  );

/** Creates or replaces the row of one layer (the user's own row for layer 30). */
export async function putMapping(
  db: Db,
  user: MappingWriter,
  input: { model: MappingModel; objectId: string; layer: MappingLayer; name: string | null; color: string | null },
): Promise<void> {
  assertMayWriteLayer(user, input.model, input.layer, input.name !== null);
  const owner = ownerOf(user, input.layer);
  // One statement: the unique key (model, object, layer, owner; NULLS NOT DISTINCT) makes
  // concurrent writes of the same row an update, never a duplicate.
  await db
    .insert(mappings)
    .values({ model: input.model, objectId: input.objectId, layer: input.layer, ownerUserId: owner, name: input.name, color: input.color })
    .onConflictDoUpdate({
      target: [mappings.model, mappings.objectId, mappings.layer, mappings.ownerUserId],
      set: { name: input.name, color: input.color },
    });
  forgetEffectiveNames();
}

/** Removes the row of one layer; false when there was none. */
export async function deleteMapping(
  db: Db,
  user: MappingWriter,
  input: { model: MappingModel; objectId: string; layer: MappingLayer },
): Promise<boolean> {
  // Removing one's own row only falls back to the shared layers: no name is given, so no rename right is needed.
  assertMayWriteLayer(user, input.model, input.layer, false);
  const deleted = await db
    .delete(mappings)
    .where(rowOf(input.model, input.objectId, input.layer, ownerOf(user, input.layer)))
    .returning({ id: mappings.id });
  forgetEffectiveNames();
  return deleted.length > 0;
}

/** The normalised object id of a request, or a 400 naming the field. */
export function requireObjectId(model: MappingModel, id: string | number, field: string, detail = "Invalid query parameters."): string {
  const normalized = normalizeObjectId(model, String(id));
  if (normalized === null) {
    const expected = model === "AS" ? "an AS number (e.g. 2906 or AS2906)" : `a ${model.toLowerCase()} name of 1 to 200 characters`;
    throw new ApiProblem(400, { detail, errors: [{ field, message: `${field} must be ${expected}.` }] });
  }
  return normalized;
}

// ---------------------------------------------------------------------------------------------------------------
// The mappings screens: objects of a model page by page, their AS assignments, the bulk import

const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The rows of `mappings` the user sees, as SQL over the alias `m`. */
const visibleSql = (userId: number) =>
  sql`((m.owner_user_id IS NULL AND m.layer IN (0, 10, 20)) OR (m.layer = 30 AND m.owner_user_id = ${userId}))`;

/**
 * The objects of a model the screens list: every object a visible layer names, and the applications,
 * infrastructures and ASes of the AS assignments; for ASes also those the AS registry (`as_info`)
 * knows. `search` matches the id (an AS number exactly), a visible layer's name, the registry's name
 * of an AS, or the application/infrastructure an AS serves.
 */
function objectsSql(userId: number, model: MappingModel, search: string): { from: SQL; where: SQL; order: SQL } {
  const term = search.trim();
  const pattern = likePattern(term);
  const named = sql`EXISTS (SELECT 1 FROM mappings m WHERE m.model = ${model} AND m.object_id = o.id AND ${visibleSql(userId)} AND m.name ILIKE ${pattern})`;
  if (model === "AS") {
    const asn = normalizeObjectId("AS", term);
    return {
      from: sql`(SELECT m.object_id AS id FROM mappings m WHERE m.model = 'AS' AND ${visibleSql(userId)}
        UNION SELECT s.asn::text FROM as_service_mappings s
        UNION SELECT a.asn::text FROM as_info a) o`,
      where:
        term === ""
          ? sql`TRUE`
          : sql`(o.id = ${asn ?? ""} OR ${named}
              OR EXISTS (SELECT 1 FROM as_info a WHERE a.asn::text = o.id AND a.name ILIKE ${pattern})
              OR EXISTS (SELECT 1 FROM as_service_mappings s WHERE s.asn::text = o.id AND s.name ILIKE ${pattern}))`,
      order: sql`CASE WHEN o.id ~ '^-?[0-9]{1,18}$' THEN o.id::bigint END NULLS LAST, o.id`,
    };
  }
  return {
    from: sql`(SELECT m.object_id AS id FROM mappings m WHERE m.model = ${model} AND ${visibleSql(userId)}
      UNION SELECT s.name FROM as_service_mappings s WHERE s.kind = ${model}) o`,
    where: term === "" ? sql`TRUE` : sql`(o.id ILIKE ${pattern} OR ${named})`,
    order: sql`lower(o.id), o.id`,
  };
}

/** One page of a model's objects (ids only) and how many match in all. */
export async function listMappingObjects(
  db: Db,
  user: Pick<UserContext, "id">,
  model: MappingModel,
  options: { search: string; page: number; pageSize: number },
): Promise<{ ids: string[]; total: number }> {
  const { from, where, order } = objectsSql(user.id, model, options.search);
  const [count] = await executeRows<{ total: number | string }>(db, sql`SELECT count(*) AS total FROM ${from} WHERE ${where}`);
  const offset = (Math.max(1, options.page) - 1) * options.pageSize;
  const rows = await executeRows<{ id: string }>(
    db,
    sql`SELECT o.id FROM ${from} WHERE ${where} ORDER BY ${order} LIMIT ${options.pageSize} OFFSET ${offset}`,
  );
  return { ids: rows.map((r) => r.id), total: Number(count?.total ?? 0) };
}

/** The AS registry's names of some ASes. */
export async function registryNames(db: Db, asns: readonly string[]): Promise<Map<string, string>> {
  const numbers = asns.map(Number).filter((n) => Number.isSafeInteger(n));
  if (!numbers.length) return new Map();
  const rows = await db.select({ asn: asInfo.asn, name: asInfo.name }).from(asInfo).where(inArray(asInfo.asn, numbers));
  return new Map(rows.map((r) => [String(r.asn), r.name]));
}

export type AsServices = { application: string | null; infrastructure: string | null };

/** Which application and infrastructure each of some ASes serves. */
export async function asServices(db: Db, asns: readonly string[]): Promise<Map<string, AsServices>> {
  const numbers = asns.map(Number).filter((n) => Number.isSafeInteger(n));
  const out = new Map<string, AsServices>();
  if (!numbers.length) return out;
  for (const row of await db.select().from(asServiceMappings).where(inArray(asServiceMappings.asn, numbers))) {
    const entry = out.get(String(row.asn)) ?? { application: null, infrastructure: null };
    if (row.kind === "Application") entry.application = row.name;
    else entry.infrastructure = row.name;
    out.set(String(row.asn), entry);
  }
  return out;
}

/** The ASes that serve each of some applications (or infrastructures), in number order. */
export async function servingAses(
  db: Db,
  kind: "Application" | "Infrastructure",
  names: readonly string[],
): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  if (!names.length) return out;
  const rows = await db
    .select({ asn: asServiceMappings.asn, name: asServiceMappings.name })
    .from(asServiceMappings)
    .where(and(eq(asServiceMappings.kind, kind), inArray(asServiceMappings.name, [...new Set(names)])))
    .orderBy(asc(asServiceMappings.asn));
  for (const row of rows) out.set(row.name, [...(out.get(row.name) ?? []), row.asn]);
  return out;
}

/** Read/write handle of a transaction or the database (both take the same statements). */
type Writer = Pick<Db, "insert" | "delete">;

/** Sets (a name) or removes (null) one assignment of an AS; `undefined` leaves it as it is. */
async function writeAsService(db: Writer, asn: number, kind: "Application" | "Infrastructure", name: string | null | undefined) {
  if (name === undefined) return;
  if (name === null) {
    await db.delete(asServiceMappings).where(and(eq(asServiceMappings.asn, asn), eq(asServiceMappings.kind, kind)));
    return;
  }
  await db
    .insert(asServiceMappings)
    .values({ asn, kind, name })
    .onConflictDoUpdate({ target: [asServiceMappings.asn, asServiceMappings.kind], set: { name } });
}

function assertMayAssign(user: MappingActor): void {
  if (!mayAssignServices(user)) {
    throw new ApiProblem(403, {
      detail: `${MESSAGES.permissionDenied} Only moderators, staff and superusers assign ASes to applications and infrastructures.`,
      exception_code: "permission_denied",
    });
  }
}

/**
 * Which application and infrastructure an AS serves (moderators, staff, superusers): a name sets
 * it, null removes it. The collector's enrichment snapshot notices the change by itself.
 */
export async function setAsServices(db: Db, user: MappingActor, asn: number, services: Partial<AsServices>): Promise<void> {
  assertMayAssign(user);
  await db.transaction(async (tx) => {
    await writeAsService(tx, asn, "Application", services.application);
    await writeAsService(tx, asn, "Infrastructure", services.infrastructure);
  });
}

/** What a bulk import writes: layer rows and (for ASes) assignments, already validated. */
export type MappingImport = {
  model: MappingModel;
  layers: { objectId: string; layer: MappingLayer; name: string | null; color: string | null }[];
  services: ({ asn: number } & Partial<AsServices>)[];
};

/** Writes a validated import in one transaction: everything or, on any failure, nothing. Rights are checked again first. */
export async function importMappings(db: Db, user: MappingWriter, plan: MappingImport): Promise<void> {
  for (const row of plan.layers) assertMayWriteLayer(user, plan.model, row.layer, row.name !== null);
  if (plan.services.length) assertMayAssign(user);
  await db.transaction(async (tx) => {
    for (const row of plan.layers) {
      const owner = ownerOf(user, row.layer);
      await tx
        .insert(mappings)
        .values({ model: plan.model, objectId: row.objectId, layer: row.layer, ownerUserId: owner, name: row.name, color: row.color })
        .onConflictDoUpdate({
          target: [mappings.model, mappings.objectId, mappings.layer, mappings.ownerUserId],
          set: { name: row.name, color: row.color },
        });
    }
    for (const row of plan.services) {
      await writeAsService(tx, row.asn, "Application", row.application);
      await writeAsService(tx, row.asn, "Infrastructure", row.infrastructure);
    }
  });
  forgetEffectiveNames();
}
