/**
 * The mapping models and layers (shell §3: models AS, Application, Infrastructure; layers base 0,
 * product 10, site 20, user 30). Pure and isomorphic.
 */
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
