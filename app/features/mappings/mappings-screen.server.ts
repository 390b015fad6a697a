/**
 * The mappings screens (/mappings/applications, /mappings/infrastructures, /mappings/as): one
 * loader and one action for the three models. The list pages through the model's objects with the
 * effective name and colour and the layer each comes from; `?id=` opens one object with its four
 * layers, a form for each layer the user may write, and on the AS screen the AS's application and
 * infrastructure. Every change is a POST form with one `intent`, answered by a redirect with
 * `saved=<what>` (PRG) or a 400 with the messages next to the fields (the import: per line) and the
 * values as typed.
 */
import { data, redirect } from "@remix-run/node";
import { isHexColor } from "~/lib/colors";
import { hasControlCharacter } from "~/lib/input-fields";
import { readProtectedForm } from "~/server/auth/guard.server";
import { ApiProblem } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import {
  isMappingLayer,
  MAPPING_LAYERS,
  mappingLayerName,
  mappingWriteProblem,
  mayAssignServices,
  mayNameInLayer,
  mayWriteLayer,
  normalizeObjectId,
  type MappingLayer,
  type MappingModel,
} from "../tags/mapping-model";
import {
  asServices,
  deleteMapping,
  effectiveMapping,
  importMappings,
  listMappingObjects,
  mappingRows,
  putMapping,
  registryNames,
  servingAses,
  setAsServices,
  type MappingRow,
} from "../tags/mappings.server";
import { NAME_MAX, planImport, REMOVE_MARK, type ImportProblem } from "./csv-import";
import { MAPPINGS_PAGE_SIZE, objectLabel, parseMappingParams, type MappingScreenDef } from "./params";

const SAVED: Record<string, string> = {
  "layer-saved": "The layer was saved.",
  "layer-removed": "The layer was removed: the lower layers apply again.",
  assigned: "The assignment was saved. The collector enriches new flows with it.",
};

const LAYERS = Object.values(MAPPING_LAYERS) as MappingLayer[];

export const layerLabel = (layer: number) => `${mappingLayerName(layer) ?? "unknown"} (${layer})`;

type Stores = Pick<Services, "pg">;

/** One object as the screens show it. */
function describeObject(
  def: MappingScreenDef,
  id: string,
  rows: MappingRow[],
  extra: { registryName?: string | null; application?: string | null; infrastructure?: string | null; servedBy?: number[] },
) {
  const effective = effectiveMapping(rows);
  return {
    id,
    label: objectLabel(def.model, id),
    effective: {
      ...effective,
      nameFrom: effective.nameLayer === null ? null : layerLabel(effective.nameLayer),
      colorFrom: effective.colorLayer === null ? null : layerLabel(effective.colorLayer),
    },
    layers: LAYERS.map((layer) => {
      const row = rows.find((r) => r.layer === layer);
      return { layer, label: layerLabel(layer), name: row?.name ?? null, color: row?.color ?? null, set: Boolean(row) };
    }),
    registryName: extra.registryName ?? null,
    application: extra.application ?? null,
    infrastructure: extra.infrastructure ?? null,
    servedBy: extra.servedBy ?? [],
  };
}

export type MappingObject = ReturnType<typeof describeObject>;

async function describeObjects(stores: Stores, user: UserContext, def: MappingScreenDef, ids: string[]): Promise<MappingObject[]> {
  const db = stores.pg.db;
  const rows = await mappingRows(db, user, def.model, ids);
  const registry = def.model === "AS" ? await registryNames(db, ids) : new Map<string, string>();
  const services = def.model === "AS" ? await asServices(db, ids) : new Map();
  const served =
    def.model === "AS" ? new Map<string, number[]>() : await servingAses(db, def.model as "Application" | "Infrastructure", ids);
  return ids.map((id) =>
    describeObject(
      def,
      id,
      rows.filter((r) => r.objectId === id),
      {
        registryName: registry.get(id) ?? null,
        application: services.get(id)?.application ?? null,
        infrastructure: services.get(id)?.infrastructure ?? null,
        servedBy: served.get(id) ?? [],
      },
    ),
  );
}

/** What the user may do on this screen, for the view (the service checks again). */
function rightsOf(user: UserContext, model: MappingModel) {
  return {
    layers: LAYERS.map((layer) => ({ layer, writable: mayWriteLayer(user, layer), canName: mayNameInLayer(user, model, layer) })),
    assign: model === "AS" && mayAssignServices(user),
    importable: true,
  };
}

export async function loadMappingsScreen(stores: Stores, user: UserContext, def: MappingScreenDef, request: Request) {
  const url = new URL(request.url);
  const params = parseMappingParams(def.model, url.searchParams);
  const notices = [...params.notices];
  const listed = await listMappingObjects(stores.pg.db, user, def.model, {
    search: params.search,
    page: params.page,
    pageSize: MAPPINGS_PAGE_SIZE,
  });
  const pageCount = Math.max(1, Math.ceil(listed.total / MAPPINGS_PAGE_SIZE));
  let page = params.page;
  let ids = listed.ids;
  if (page > pageCount) {
    notices.push(`There is no page ${page}: the last page (${pageCount}) is shown.`);
    page = pageCount;
    ids = (await listMappingObjects(stores.pg.db, user, def.model, { search: params.search, page, pageSize: MAPPINGS_PAGE_SIZE })).ids;
  }
  const imported = url.searchParams.get("rows");
  return {
    screen: def,
    search: params.search,
    page,
    pageCount,
    total: listed.total,
    notices,
    savedMessage:
      params.saved === "imported" && imported && /^\d{1,6}$/.test(imported)
        ? `${imported} line(s) were imported.`
        : params.saved
          ? (SAVED[params.saved] ?? null)
          : null,
    rights: rightsOf(user, def.model),
    objects: await describeObjects(stores, user, def, ids),
    selected: params.id === null ? null : (await describeObjects(stores, user, def, [params.id]))[0],
    nameMax: NAME_MAX,
    removeMark: REMOVE_MARK,
  };
}

export type MappingsScreen = Awaited<ReturnType<typeof loadMappingsScreen>>;

export type MappingIntent = "save-layer" | "remove-layer" | "assign" | "import";

export type MappingsActionResult = {
  intent: MappingIntent | "";
  errors: Record<string, string>;
  values: Record<string, string>;
  problems: ImportProblem[];
};

function nameProblem(value: string): string | null {
  if (value.length > NAME_MAX) return `At most ${NAME_MAX} characters.`;
  if (hasControlCharacter(value)) return "No control characters (tabs, line breaks).";
  return null;
}

export async function saveMappingsScreen(stores: Stores, user: UserContext, def: MappingScreenDef, request: Request) {
  const form = await readProtectedForm(request);
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string" && key !== "csrfmiddlewaretoken") values[key] = value;
  const intent = (values.intent ?? "") as MappingIntent;
  const refuse = (errors: Record<string, string>, problems: ImportProblem[] = []) =>
    data<MappingsActionResult>({ intent, errors, values, problems }, { status: 400 });
  const db = stores.pg.db;
  const back = (saved: string, params: Record<string, string> = {}) => redirect(`${def.path}?${new URLSearchParams({ ...params, saved })}`);

  if (intent === "import") {
    const file = form.get("file");
    const fromFile = file instanceof File && file.size > 0 ? await file.text() : "";
    const text = fromFile || values.csv || "";
    if (!text.trim()) return refuse({ csv: "Choose a CSV file or paste its lines." });
    const { plan, problems, lines } = planImport(text, def.model, user);
    if (problems.length) return refuse({ csv: `Nothing was imported: ${problems.length} problem(s), listed by line.` }, problems);
    await importMappings(db, user, plan);
    return back("imported", { rows: String(lines) });
  }

  const rawId = values.id ?? "";
  const id = hasControlCharacter(rawId) ? null : normalizeObjectId(def.model, rawId);
  if (id === null) {
    return refuse({ id: def.model === "AS" ? "An AS number, e.g. 2906 or AS2906." : "A name of 1 to 200 characters." });
  }

  try {
    switch (intent) {
      case "save-layer":
      case "remove-layer": {
        const layerNumber = Number(values.layer);
        if (!/^\d{1,2}$/.test(values.layer ?? "") || !isMappingLayer(layerNumber)) return refuse({ layer: "Not a layer." });
        const layer = layerNumber as MappingLayer;
        if (intent === "remove-layer") {
          await deleteMapping(db, user, { model: def.model, objectId: id, layer });
          return back("layer-removed", { id });
        }
        const name = (values.name ?? "").trim();
        const color = (values.color ?? "").trim();
        const errors: Record<string, string> = {};
        const badName = name ? nameProblem(name) : null;
        if (badName) errors.name = badName;
        if (color && !isHexColor(color)) errors.color = "A colour as #rrggbb, e.g. #137cbd.";
        if (!name && !color) errors.name = "Give a name, a colour or both (Remove clears the layer).";
        const refused = mappingWriteProblem(user, def.model, layer, name !== "");
        if (refused) errors[""] = refused;
        if (Object.keys(errors).length) return refuse(errors);
        await putMapping(db, user, { model: def.model, objectId: id, layer, name: name || null, color: color || null });
        return back("layer-saved", { id });
      }
      case "assign": {
        if (def.model !== "AS") return refuse({ "": "Only ASes are assigned to applications and infrastructures." });
        const application = (values.application ?? "").trim();
        const infrastructure = (values.infrastructure ?? "").trim();
        const errors: Record<string, string> = {};
        const badApp = application ? nameProblem(application) : null;
        const badInfra = infrastructure ? nameProblem(infrastructure) : null;
        if (badApp) errors.application = badApp;
        if (badInfra) errors.infrastructure = badInfra;
        if (!mayAssignServices(user)) errors[""] = "Only moderators, staff and superusers assign ASes to applications and infrastructures.";
        if (Object.keys(errors).length) return refuse(errors);
        await setAsServices(db, user, Number(id), { application: application || null, infrastructure: infrastructure || null });
        return back("assigned", { id });
      }
      default:
        return refuse({ "": "Unknown action." });
    }
  } catch (error) {
    // The service's own checks (a race with a change of rights): the same words as a form error.
    if (error instanceof ApiProblem && error.status === 403) return refuse({ "": String(error.body.detail ?? "Not allowed.") });
    throw error;
  }
}
