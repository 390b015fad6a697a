import { Badge } from "@mantine/core";
import { STATUS_COLORS } from "../cells";
import { LINK_STATUS_LABELS, type LinkStatus } from "../types";

/** A link's status in words with its colour (the colour never alone). */
export function StatusBadge({ status }: { status: LinkStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" tt="none" style={{ overflow: "visible" }} data-status={status}>
      {LINK_STATUS_LABELS[status]}
    </Badge>
  );
}
