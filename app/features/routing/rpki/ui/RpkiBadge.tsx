import { Badge } from "@mantine/core";
import { rpkiStateColor, rpkiStateLabel, type RpkiState } from "../state";

/** A route's origin validation state: its word ("Valid", "Invalid", "Not found", "No ROA data"), tinted; the word alone tells it. */
export function RpkiBadge({ state }: { state: RpkiState | null | undefined }) {
  return (
    <Badge variant="light" color={rpkiStateColor(state)} tt="none" radius="sm" data-rpki={state ?? "none"}>
      {rpkiStateLabel(state)}
    </Badge>
  );
}
