/**
 * The mapping models and layers (shell §3: models AS, Application, Infrastructure; layers base 0,
 * product 10, site 20, user 30) and who may write what. Pure and isomorphic.
 */
import { MODERATORS_GROUP } from "~/lib/permissions";

export const MAPPING_MODELS = ["AS", "Application", "Infrastructure"] as const;
export type MappingModel = (typeof MAPPING_MODELS)[number];

export const MAPPING_LAYERS = { base: 0, product: 10, site: 20, user: 30 } as const;
export type MappingLayerName = keyof typeof MAPPING_LAYERS;
export type MappingLayer = (typeof MAPPING_LAYERS)[MappingLayerName];
export const USER_LAYER = MAPPING_LAYERS.user;

const NAMES = new Map<number, MappingLayerName>(Object.entries(MAPPING_LAYERS).map(([name, layer]) => [layer, name as MappingLayerName]));

export function isMappingLayer(value: number): value is MappingLayer {
  return NAMES.has(value);
}

/** base, product, site or user; null for a number that is no layer. */
export function mappingLayerName(layer: number): MappingLayerName | null {
  return NAMES.get(layer) ?? null;
}

/** What the write rules look at (a UserContext fits). */
export type MappingActor = { isStaff: boolean; isSuperuser: boolean; groups: readonly string[]; permissions: readonly string[] };

/**
 * Who writes which layer (shell §6): every user their own layer 30; moderators, staff and
 * superusers the site layer 20 (the site's defaults everybody sees); staff and superusers the base
 * and product layers 0 and 10.
 */
export function mayWriteLayer(actor: MappingActor, layer: MappingLayer): boolean {
  if (layer === USER_LAYER) return true;
  if (actor.isStaff || actor.isSuperuser) return true;
  return layer === MAPPING_LAYERS.site && actor.groups.includes(MODERATORS_GROUP);
}

/** An AS's name in a user's own layer needs API_CHANGE_AS_INFO (shell §6); colours do not. */
export function mayNameInLayer(actor: MappingActor, model: MappingModel, layer: MappingLayer): boolean {
  if (!mayWriteLayer(actor, layer)) return false;
  return !(model === "AS" && layer === USER_LAYER && !actor.isSuperuser && !actor.permissions.includes("API_CHANGE_AS_INFO"));
}

/** Which AS serves which application or infrastructure is a site-wide fact (it feeds flow enrichment): the site layer's writers. */
export function mayAssignServices(actor: MappingActor): boolean {
  return mayWriteLayer(actor, MAPPING_LAYERS.site);
}

/** Why this write is refused, or null when it is allowed. */
export function mappingWriteProblem(actor: MappingActor, model: MappingModel, layer: MappingLayer, setsName: boolean): string | null {
  if (!mayWriteLayer(actor, layer)) {
    return layer === MAPPING_LAYERS.site
      ? `Only moderators, staff and superusers can change the site layer (20); your own layer is ${USER_LAYER}.`
      : `Only staff can change the ${mappingLayerName(layer)} layer (${layer}); your own layer is ${USER_LAYER}.`;
  }
  if (setsName && !mayNameInLayer(actor, model, layer)) {
    return "Renaming an AS in your own layer needs the API_CHANGE_AS_INFO permission; its colour you may change.";
  }
  return null;
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

export type EffectiveMapping = { name: string | null; color: string | null; nameLayer: number | null; colorLayer: number | null };

/** Name and colour, each from the highest layer that sets it (the layers' rule). */
export function effectiveMapping(rows: readonly { layer: number; name: string | null; color: string | null }[]): EffectiveMapping {
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
