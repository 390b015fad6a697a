/**
 * The mappings screens' bulk import: CSV text → a checked plan of layer rows and AS assignments, or
 * the problems of each line. Pure and isomorphic; the plan is written in one transaction
 * (importMappings), so a file with any bad line writes nothing.
 *
 * Format: a header line naming the columns, then one object per line. Comma or semicolon (shell §9:
 * semicolon is always allowed), chosen by the header; fields may be quoted with `"` (`""` inside).
 *
 *   id      required: an AS number (2906 or AS2906), an application or an infrastructure name
 *   layer   0/base, 10/product, 20/site or 30/user; needed with a name or a colour
 *   name    the name in that layer (empty: left to the lower layers)
 *   color   #rrggbb in that layer (empty: left to the lower layers)
 *   application, infrastructure   AS screen only: what the AS serves; empty leaves it, "-" removes it
 */
import { isHexColor } from "~/lib/colors";
import { csvCell, readCsvTable, type CsvProblem } from "~/lib/csv-read";
import { hasControlCharacter } from "~/lib/input-fields";
import {
  isMappingLayer,
  MAPPING_LAYERS,
  mappingWriteProblem,
  mayAssignServices,
  normalizeObjectId,
  type MappingActor,
  type MappingLayer,
  type MappingModel,
} from "../tags/mapping-model";
import type { MappingImport } from "../tags/mappings.server";

export const IMPORT_MAX_ROWS = 5000;
export const NAME_MAX = 100;
/** The cell that removes an assignment (an empty cell leaves it as it is). */
export const REMOVE_MARK = "-";

export type ImportProblem = CsvProblem;
/** `lines`: the data lines read (below the header). */
export type ImportResult = { plan: MappingImport; problems: ImportProblem[]; lines: number };

const BASE_COLUMNS = ["id", "layer", "name", "color"] as const;
const AS_COLUMNS = ["application", "infrastructure"] as const;

/** The columns a model's file may have. */
export const importColumns = (model: MappingModel): string[] => (model === "AS" ? [...BASE_COLUMNS, ...AS_COLUMNS] : [...BASE_COLUMNS]);

function layerOf(text: string): MappingLayer | null {
  const t = text.trim().toLowerCase();
  if (/^\d{1,3}$/.test(t) && isMappingLayer(Number(t))) return Number(t) as MappingLayer;
  return t in MAPPING_LAYERS ? MAPPING_LAYERS[t as keyof typeof MAPPING_LAYERS] : null;
}

/** One line of text of at most NAME_MAX characters, or why not. */
function textProblem(label: string, value: string): string | null {
  if (value.length > NAME_MAX) return `${label} must be at most ${NAME_MAX} characters.`;
  if (hasControlCharacter(value)) return `${label} must not contain control characters.`;
  return null;
}

/** Checks every line against the format and the user's rights; the plan holds only lines without problems. */
export function planImport(text: string, model: MappingModel, actor: MappingActor): ImportResult {
  const plan: MappingImport = { model, layers: [], services: [] };
  const problems: ImportProblem[] = [];
  const read = readCsvTable(text, {
    allowed: importColumns(model),
    required: ["id"],
    example: "id,layer,name,color",
    maxRows: IMPORT_MAX_ROWS,
  });
  if (!read.ok) return { plan, lines: 0, problems: [read.problem] };
  const { table } = read;
  const { columns, rows } = table;

  const seenLayer = new Map<string, number>();
  const seenAsn = new Map<number, number>();
  for (const { line, fields } of rows) {
    const lineProblems: string[] = [];
    if (fields.length > columns.length) lineProblems.push(`${fields.length} fields, but the header names ${columns.length}.`);
    const cell = (name: string) => csvCell(table, fields, name);
    const rawId = cell("id");
    const objectId = hasControlCharacter(rawId) ? null : normalizeObjectId(model, rawId);
    if (!rawId) lineProblems.push("id is empty.");
    else if (objectId === null) {
      lineProblems.push(model === "AS" ? `id "${rawId.slice(0, 40)}" is no AS number.` : `id must be a name of 1 to 200 characters.`);
    }

    const name = cell("name");
    const color = cell("color");
    const rawLayer = cell("layer");
    const layer = rawLayer ? layerOf(rawLayer) : null;
    const hasLayerData = name !== "" || color !== "";
    if (rawLayer && layer === null)
      lineProblems.push(`layer "${rawLayer.slice(0, 20)}" is none of 0 (base), 10 (product), 20 (site), 30 (user).`);
    if (hasLayerData && !rawLayer) lineProblems.push("layer is empty: say which layer the name and colour go to.");
    if (rawLayer && !hasLayerData) lineProblems.push("layer without a name or a colour: give a name, a colour or both.");
    const nameProblem = name ? textProblem("name", name) : null;
    if (nameProblem) lineProblems.push(nameProblem);
    if (color && !isHexColor(color)) lineProblems.push(`color "${color.slice(0, 20)}" is not #rrggbb (e.g. #137cbd).`);
    if (layer !== null && hasLayerData) {
      const refused = mappingWriteProblem(actor, model, layer, name !== "");
      if (refused) lineProblems.push(refused);
      if (objectId !== null) {
        const key = `${objectId}\u0000${layer}`;
        const earlier = seenLayer.get(key);
        if (earlier !== undefined) lineProblems.push(`${objectId} in layer ${layer} is already given on line ${earlier}.`);
        else seenLayer.set(key, line);
      }
    }

    const services: { application?: string | null; infrastructure?: string | null } = {};
    for (const kind of AS_COLUMNS) {
      const value = model === "AS" ? cell(kind) : "";
      if (!value) continue;
      const problem = value === REMOVE_MARK ? null : textProblem(kind, value);
      if (problem) lineProblems.push(problem);
      services[kind] = value === REMOVE_MARK ? null : value;
    }
    const assigns = Object.keys(services).length > 0;
    if (assigns && !mayAssignServices(actor)) {
      lineProblems.push("Only moderators, staff and superusers assign ASes to applications and infrastructures.");
    }
    if (assigns && objectId !== null) {
      const asn = Number(objectId);
      const earlier = seenAsn.get(asn);
      if (earlier !== undefined) lineProblems.push(`The assignment of AS${objectId} is already given on line ${earlier}.`);
      else seenAsn.set(asn, line);
    }
    if (!hasLayerData && !rawLayer && !assigns && objectId !== null) lineProblems.push("Nothing to import on this line.");

    if (lineProblems.length) {
      problems.push(...lineProblems.map((message) => ({ line, message })));
      continue;
    }
    if (layer !== null && objectId !== null) plan.layers.push({ objectId, layer, name: name || null, color: color || null });
    if (assigns && objectId !== null) plan.services.push({ asn: Number(objectId), ...services });
  }
  return { plan, problems, lines: rows.length };
}
