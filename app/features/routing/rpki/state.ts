/**
 * The route origin validation state of a route (RFC 6811 §2) as the Looking Glass API writes it,
 * and as people read it. Pure and isomorphic: the API rows, the tables and the exports share it.
 */

/** RFC 6811's three states; null in an API row: no VRP is loaded at all, so nothing can be judged. */
export type RpkiState = "valid" | "invalid" | "not-found";
export const RPKI_STATES: readonly RpkiState[] = ["valid", "invalid", "not-found"];

export const RPKI_STATE_LABELS: Record<RpkiState, string> = {
  valid: "Valid",
  invalid: "Invalid",
  "not-found": "Not found",
};
export const NO_ROA_DATA_LABEL = "No ROA data";

/** The cell text of a row's state: "Valid", "Invalid", "Not found", or "No ROA data" (null). */
export function rpkiStateLabel(state: RpkiState | null | undefined): string {
  return state ? RPKI_STATE_LABELS[state] : NO_ROA_DATA_LABEL;
}

/** Mantine colour of a state's badge; the text always says the state as well (colour is never the only cue). */
export function rpkiStateColor(state: RpkiState | null | undefined): string {
  switch (state) {
    case "valid":
      return "green";
    case "invalid":
      return "red";
    case "not-found":
      return "gray";
    default:
      return "gray";
  }
}
