/** The contract edit form of the Revenues & Costs screen: its fields, values as typed and the action's answer (isomorphic). */
export const CONTRACT_TEXT_FIELDS = [
  "name",
  "direction",
  "method",
  "billedDirection",
  "groupMode",
  "validFrom",
  "validTo",
  "timezone",
  "notes",
] as const;
export const CONTRACT_NUMBER_FIELDS = [
  "partnerAsn",
  "commitMbps",
  "commitPriceEur",
  "burstPriceEur",
  "flatPriceEur",
  "portFeeEur",
  "crossConnectFeeEur",
  "minimumFeeEur",
] as const;

/** A contract form's values as typed (strings), interfaceIds as the chosen ids. */
export type ContractFormValues = Record<(typeof CONTRACT_TEXT_FIELDS)[number] | (typeof CONTRACT_NUMBER_FIELDS)[number], string> & {
  interfaceIds: string[];
};

export type ContractRow = {
  id: number;
  name: string;
  summary: string;
  ports: string;
  validity: string;
  values: ContractFormValues;
};

export type InterfaceOption = { id: number; label: string };

export type ContractsPart = {
  contracts: ContractRow[];
  interfaces: InterfaceOption[];
  editId: number | null;
  deleteId: number | null;
} | null;

export type ContractActionResult =
  | { ok: true; saved: string }
  | {
      ok: false;
      intent: string;
      id: number | null;
      errors: Record<string, string>;
      values: ContractFormValues | null;
      /** The CSV import's problems by line, and the pasted text kept for its correction. */
      problems?: { line: number; message: string }[];
      csv?: string;
    };

export const EMPTY_CONTRACT: ContractFormValues = {
  name: "",
  direction: "cost",
  method: "Max 95th",
  billedDirection: "max",
  groupMode: "aggregate",
  validFrom: "",
  validTo: "",
  timezone: "UTC",
  notes: "",
  partnerAsn: "",
  commitMbps: "0",
  commitPriceEur: "0",
  burstPriceEur: "0",
  flatPriceEur: "0",
  portFeeEur: "0",
  crossConnectFeeEur: "0",
  minimumFeeEur: "0",
  interfaceIds: [],
};
