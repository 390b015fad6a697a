/**
 * The contracts' CSV import (docs/revenues-and-costs.md "Importing contracts"): a file → the checked input
 * of each line, or the problems of each line. Pure and isomorphic; the store writes the lines in one
 * transaction (importContracts), so a file with any bad line writes nothing.
 *
 * A line's fields are checked by the same rules as the edit form (contractInputSchema); its billing group
 * names inventory interfaces as "router interface", several separated by "|".
 */
import { csvCell, readCsvTable, type CsvProblem } from "~/lib/csv-read";
import { BILLING_METHODS, CONTRACT_DIRECTIONS, parseContractInput, type CheckedContract, type ContractInput } from "./contract-input";

export const CONTRACT_IMPORT_MAX_ROWS = 1000;
/** Separates the interfaces of a billing group in the interfaces column. */
export const INTERFACE_SEPARATOR = "|";

/** The file's columns and the contract field each fills. */
export const CONTRACT_CSV_COLUMNS = {
  name: "name",
  direction: "direction",
  partner_asn: "partnerAsn",
  method: "method",
  billed_direction: "billedDirection",
  group_mode: "groupMode",
  commit_mbps: "commitMbps",
  commit_price_eur: "commitPriceEur",
  burst_price_eur: "burstPriceEur",
  flat_price_eur: "flatPriceEur",
  port_fee_eur: "portFeeEur",
  cross_connect_fee_eur: "crossConnectFeeEur",
  minimum_fee_eur: "minimumFeeEur",
  currency: "currency",
  valid_from: "validFrom",
  valid_to: "validTo",
  timezone: "timezone",
  notes: "notes",
  interfaces: "interfaceIds",
} as const satisfies Record<string, keyof ContractInput>;
type Column = keyof typeof CONTRACT_CSV_COLUMNS;

export const CONTRACT_CSV_REQUIRED: readonly Column[] = ["name", "direction", "method", "valid_from", "interfaces"];
const NUMBER_COLUMNS: readonly Column[] = [
  "commit_mbps",
  "commit_price_eur",
  "burst_price_eur",
  "flat_price_eur",
  "port_fee_eur",
  "cross_connect_fee_eur",
  "minimum_fee_eur",
];
const COLUMN_OF = Object.fromEntries(Object.entries(CONTRACT_CSV_COLUMNS).map(([column, field]) => [field, column])) as Record<
  string,
  Column
>;
export const CONTRACT_CSV_EXAMPLE = "name,direction,method,commit_mbps,commit_price_eur,valid_from,interfaces";

/** An inventory interface by its router's and its own name (the screen passes the inventory's). */
export type InterfaceLookup = (router: string, name: string) => number | undefined;

export type ContractImportLine = { line: number; contract: CheckedContract };
export type ContractImportPlan = { lines: ContractImportLine[]; problems: CsvProblem[] };

/** "AS2906", "as2906" or "2906" as a number; anything else as typed (the schema names it). */
function asnOf(text: string): number | string {
  const m = /^(?:as)?(\d{1,10})$/i.exec(text);
  return m ? Number(m[1]) : text;
}

/** A decimal written with a dot; a comma is refused rather than guessed (1,000 or 1.000?). */
function amountOf(column: string, text: string): { value: number | string } | { problem: string } {
  if (/^\d+(\.\d+)?$/.test(text)) return { value: Number(text) };
  if (/^\d+,\d+$/.test(text)) return { problem: `${column} "${text}": write decimals with a dot (${text.replace(",", ".")}).` };
  return { value: text };
}

/** One of the allowed values whatever its case, else as typed (the schema names it). */
const oneOf = (allowed: readonly string[], text: string) => allowed.find((a) => a.toLowerCase() === text.toLowerCase()) ?? text;

/** The billing group's interface ids, or the names the inventory does not have. */
function interfacesOf(text: string, lookup: InterfaceLookup): { ids: number[]; problems: string[] } {
  const ids: number[] = [];
  const problems: string[] = [];
  for (const entry of text.split(INTERFACE_SEPARATOR).map((e) => e.trim())) {
    if (!entry) continue;
    const m = /^(\S+)\s+(.+)$/.exec(entry);
    const id = m ? lookup(m[1], m[2].trim()) : undefined;
    if (!m) problems.push(`interfaces "${entry.slice(0, 80)}": give the router and the interface, e.g. edge1 et-0/0/1.`);
    else if (id === undefined)
      problems.push(`interfaces: the inventory has no interface ${m[2].trim().slice(0, 60)} on ${m[1].slice(0, 60)}.`);
    else ids.push(id);
  }
  return { ids, problems };
}

/** Checks every line; the plan holds only lines without problems (the import writes nothing when there are any). */
export function planContractImport(text: string, lookup: InterfaceLookup): ContractImportPlan {
  const read = readCsvTable(text, {
    allowed: Object.keys(CONTRACT_CSV_COLUMNS),
    required: CONTRACT_CSV_REQUIRED,
    example: CONTRACT_CSV_EXAMPLE,
    maxRows: CONTRACT_IMPORT_MAX_ROWS,
  });
  if (!read.ok) return { lines: [], problems: [read.problem] };
  const { table } = read;
  const lines: ContractImportLine[] = [];
  const problems: CsvProblem[] = [];
  const seenName = new Map<string, number>();
  for (const { line, fields } of table.rows) {
    const lineProblems: string[] = [];
    if (fields.length > table.columns.length) lineProblems.push(`${fields.length} fields, but the header names ${table.columns.length}.`);
    const cell = (column: Column) => csvCell(table, fields, column);
    const input: Record<string, unknown> = {};
    for (const column of table.columns as Column[]) {
      const field = CONTRACT_CSV_COLUMNS[column];
      const text = cell(column);
      if (column === "interfaces") {
        const group = interfacesOf(text, lookup);
        lineProblems.push(...group.problems);
        input.interfaceIds = group.ids;
      } else if (column === "partner_asn") input.partnerAsn = text === "" ? null : asnOf(text);
      else if (column === "valid_to") input.validTo = text === "" ? null : text;
      else if (text === "")
        continue; // the field's default (the required ones are named by the schema)
      else if (NUMBER_COLUMNS.includes(column)) {
        const amount = amountOf(column, text);
        if ("problem" in amount) lineProblems.push(amount.problem);
        else input[field] = amount.value;
      } else if (column === "method") input.method = oneOf(BILLING_METHODS, text);
      else if (column === "direction") input.direction = oneOf(CONTRACT_DIRECTIONS, text);
      else input[field] = text;
    }
    for (const required of CONTRACT_CSV_REQUIRED) if (cell(required) === "") lineProblems.push(`${required} is empty.`);
    const parsed = parseContractInput(input);
    if (!parsed.ok) {
      for (const [field, message] of Object.entries(parsed.errors)) {
        // An empty required column is named once, above; an interface the inventory lacks, by its name.
        if (field === "interfaceIds" && lineProblems.some((p) => p.startsWith("interfaces"))) continue;
        if (COLUMN_OF[field] && CONTRACT_CSV_REQUIRED.includes(COLUMN_OF[field]) && cell(COLUMN_OF[field]) === "") continue;
        lineProblems.push(field ? `${COLUMN_OF[field] ?? field}: ${message}` : message);
      }
    }
    const name = cell("name");
    if (name) {
      const earlier = seenName.get(name);
      if (earlier !== undefined) lineProblems.push(`The contract ${name.slice(0, 60)} is already on line ${earlier}.`);
      else seenName.set(name, line);
    }
    if (lineProblems.length) problems.push({ line, message: lineProblems.join(" ") });
    else if (parsed.ok) lines.push({ line, contract: parsed.contract });
  }
  return { lines: problems.length ? [] : lines, problems };
}
