/**
 * Mappings: names and colours of ASes, applications and infrastructures in layers (shell §3
 * "mapping models", "mapping layers"; RNA API §7 api/mapping/).
 *
 * Layers: base 0 (shipped), product 10, site 20 (the installation's operators) and user 30 (one
 * row per user, seen only by that user). For the name and for the colour each, the highest layer
 * that sets it wins, so a user can recolour an AS and keep the site's name for it.
 *
 * Writing: layer 30 is every user's own row; layers 0, 10 and 20 change what everybody sees and
 * are kept to staff and superusers.
 */
import { and, asc, eq, inArray, isNull, or } from "drizzle-orm";
import { mappings } from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Db } from "~/server/postgres.server";
import { MAPPING_LAYERS, mappingLayerName, USER_LAYER, type MappingLayer, type MappingModel } from "./mapping-model";

export type MappingRow = { objectId: string; layer: number; name: string | null; color: string | null; own: boolean };

export type EffectiveMapping = { name: string | null; color: string | null; nameLayer: number | null; colorLayer: number | null };

/** Name and colour, each from the highest layer that sets it. */
export function effectiveMapping(rows: readonly Pick<MappingRow, "layer" | "name" | "color">[]): EffectiveMapping {
  const ordered = [...rows].sort((a, b) => b.layer - a.layer);
  const named = ordered.find((r) => r.name !== null && r.name !== "");
  const coloured = ordered.find((r) => r.color !== null && r.color !== "");
  return {
    name: named?.name ?? null,
    color: coloured?.color ?? null,
    nameLayer: named?.layer ?? null,
    colorLayer: coloured?.layer ?? null,
  };
}

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

/** Layers 0, 10 and 20 are shared: staff and superusers only. A 403 otherwise. */
export function assertMayWriteLayer(user: Pick<UserContext, "isStaff" | "isSuperuser">, layer: MappingLayer): void {
  if (layer === USER_LAYER || user.isStaff || user.isSuperuser) return;
  throw new ApiProblem(403, {
    detail: `${MESSAGES.permissionDenied} Only staff can change the ${mappingLayerName(layer)} layer (${layer}); your own layer is ${USER_LAYER}.`,
    exception_code: "permission_denied",
  });
}

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
  user: Pick<UserContext, "id" | "isStaff" | "isSuperuser">,
  input: { model: MappingModel; objectId: string; layer: MappingLayer; name: string | null; color: string | null },
): Promise<void> {
  assertMayWriteLayer(user, input.layer);
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
}

/** Removes the row of one layer; false when there was none. */
export async function deleteMapping(
  db: Db,
  user: Pick<UserContext, "id" | "isStaff" | "isSuperuser">,
  input: { model: MappingModel; objectId: string; layer: MappingLayer },
): Promise<boolean> {
  assertMayWriteLayer(user, input.layer);
  const deleted = await db
    .delete(mappings)
    .where(rowOf(input.model, input.objectId, input.layer, ownerOf(user, input.layer)))
    .returning({ id: mappings.id });
  return deleted.length > 0;
}

/** The object id as stored: AS numbers in decimal (`AS2906` → `2906`), names trimmed. Null when invalid. */
export function normalizeObjectId(model: MappingModel, id: string): string | null {
  const text = id.trim();
  if (model === "AS") {
    const m = /^(?:as)?(-?\d{1,10})$/i.exec(text);
    return m ? String(Number(m[1])) : null;
  }
  return text.length >= 1 && text.length <= 200 ? text : null;
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
