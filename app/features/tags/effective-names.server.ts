/**
 * The names and colours people read for ASes, applications and infrastructures, wherever a screen,
 * an export or an API answer names one: the viewer's effective mapping (effectiveMapping in
 * mapping-model.ts: for the name and for the colour each, the highest layer that sets it), and
 * without a mapped name an AS's registry name (as_info). The Flow Explorer, the analyses, the
 * planners and the Looking Glass all name through here, so they agree with the "Shown as …" of
 * the mappings screens.
 *
 * The layers are read once per request: the first call of a request reads every mapping row the
 * viewer sees (the layers hold the names people gave, a small table) and the request's later calls
 * share it, also in a POST such as api/flows/, which names its table and its timeseries separately.
 * Writing a mapping (putMapping, deleteMapping, importMappings) forgets the request's reading, so
 * what a request shows after its own write is the new name. Registry names are looked up per call
 * for the ASes no layer names, and remembered for the rest of the request.
 */
import { and, eq, inArray, isNull, or } from "drizzle-orm";
import { asInfo, mappings } from "~db/postgres/schema";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Db } from "~/server/postgres.server";
import { currentRequestScope, type RequestScope } from "~/server/request-scope.server";
import { effectiveMapping, MAPPING_LAYERS, USER_LAYER, type EffectiveMapping, type MappingModel } from "./mapping-model";

/** Whose layers apply: a user (their own layer 30 on top of the shared ones), or null for a visitor without login (shared layers only). */
export type NameViewer = Pick<UserContext, "id"> | null;

/** How one object reads: its name (null when nothing names it) and its colour (null: the screen's own). */
export type ObjectLabel = { name: string | null; color: string | null };

type Stores = { pg: { db: Db } };

const keyOf = (model: MappingModel, objectId: string) => `${model}\n${objectId}`;

/** The effective names of one viewer, as read for one request. */
export class EffectiveNames {
  private readonly registry = new Map<string, string | null>();

  constructor(
    private readonly db: Db,
    private readonly mapped: ReadonlyMap<string, EffectiveMapping>,
  ) {}

  /** The effective mapping of one object; undefined when no layer the viewer sees has a row for it. */
  mapping(model: MappingModel, objectId: string): EffectiveMapping | undefined {
    return this.mapped.get(keyOf(model, objectId));
  }

  /** An application or infrastructure (the value the flows carry): its mapped name and colour; name null when no layer names it. */
  service(kind: "Application" | "Infrastructure", value: string): ObjectLabel {
    const m = this.mapping(kind, value);
    return { name: m?.name ?? null, color: m?.color ?? null };
  }

  /** The ASes whose effective name contains `term` (any case), for searches by the name people read. */
  asesNamedLike(term: string): { asn: number; name: string }[] {
    const lower = term.toLowerCase();
    const found: { asn: number; name: string }[] = [];
    for (const [key, m] of this.mapped) {
      const [model, id] = key.split("\n");
      if (model === "AS" && m.name && m.name.toLowerCase().includes(lower) && /^-?\d+$/.test(id))
        found.push({ asn: Number(id), name: m.name });
    }
    return found;
  }

  /**
   * Name and colour of each AS (numbers as numbers or decimal text): the mapped name, else the
   * registry's; name null when neither knows the AS. One as_info query for the ASes no layer names
   * and no earlier call of the request looked up.
   */
  async ases(asns: Iterable<string | number>): Promise<Map<string, ObjectLabel>> {
    const ids = [...new Set([...asns].map(String))].filter((id) => /^-?\d{1,18}$/.test(id));
    const unknown = ids.filter((id) => !this.mapping("AS", id)?.name && !this.registry.has(id)).map(Number);
    const safe = unknown.filter((n) => Number.isSafeInteger(n));
    if (safe.length) {
      const rows = await this.db.select({ asn: asInfo.asn, name: asInfo.name }).from(asInfo).where(inArray(asInfo.asn, safe));
      const found = new Map(rows.map((r) => [String(r.asn), r.name]));
      for (const n of safe) this.registry.set(String(n), found.get(String(n)) ?? null);
    }
    const out = new Map<string, ObjectLabel>();
    for (const id of ids) {
      const m = this.mapping("AS", id);
      out.set(id, { name: m?.name ?? this.registry.get(id) ?? null, color: m?.color ?? null });
    }
    return out;
  }
}

/** Every mapping row the viewer sees: the shared layers, and their own layer 30 (never another user's). */
async function readLayers(db: Db, viewer: NameViewer): Promise<Map<string, EffectiveMapping>> {
  const shared = and(
    isNull(mappings.ownerUserId),
    inArray(mappings.layer, [MAPPING_LAYERS.base, MAPPING_LAYERS.product, MAPPING_LAYERS.site]),
  );
  const rows = await db
    .select({ model: mappings.model, objectId: mappings.objectId, layer: mappings.layer, name: mappings.name, color: mappings.color })
    .from(mappings)
    .where(viewer ? or(shared, and(eq(mappings.layer, USER_LAYER), eq(mappings.ownerUserId, viewer.id))) : shared);
  const byObject = new Map<string, (typeof rows)[number][]>();
  for (const r of rows) {
    const key = keyOf(r.model, r.objectId);
    byObject.set(key, [...(byObject.get(key) ?? []), r]);
  }
  return new Map([...byObject].map(([key, list]) => [key, effectiveMapping(list)]));
}

/** The readings of each request, per viewer. */
const perRequest = new WeakMap<RequestScope, Map<string, Promise<EffectiveNames>>>();

/** The viewer's effective names: read once per request (see above); outside a request, read on each call. */
export function effectiveNames(stores: Stores, viewer: NameViewer): Promise<EffectiveNames> {
  const read = () => readLayers(stores.pg.db, viewer).then((mapped) => new EffectiveNames(stores.pg.db, mapped));
  const scope = currentRequestScope();
  if (!scope) return read();
  let readings = perRequest.get(scope);
  if (!readings) perRequest.set(scope, (readings = new Map()));
  const key = viewer ? `user:${viewer.id}` : "visitor";
  let names = readings.get(key);
  if (!names) {
    names = read();
    readings.set(key, names);
  }
  return names;
}

/** After a mapping was written: the request's later names read the layers again. */
export function forgetEffectiveNames(): void {
  const scope = currentRequestScope();
  if (scope) perRequest.delete(scope);
}
