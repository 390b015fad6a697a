/**
 * A Looking Glass cell as people read it, in the server's table, the interactive one and the row
 * details alike: an AS path as its ASes with their names ("64496 Example-Net › 64511"), each AS
 * kept on one line so a narrow screen breaks the path between ASes; communities one per line,
 * each with its well-known name or the operator's label; the RPKI state as its badge. Other columns
 * are their text.
 */
import { Fragment } from "react";
import type { LookingGlassRow } from "~/features/routing/route-columns";
import { RpkiBadge } from "~/features/routing/rpki/ui/RpkiBadge";
import { asPathHops, cellText, communityEntries, type DataColumn } from "../columns";

const LIST_STYLE = { listStyle: "none", margin: 0, padding: 0 } as const;

export function RouteCell({ row, column, timezone }: { row: LookingGlassRow; column: DataColumn; timezone: string }) {
  if (column === "BGP as_path") {
    const hops = asPathHops(row);
    return (
      <span data-testid="lg-as-path">
        {hops.map((hop, i) => (
          <Fragment key={`${hop.asn}-${i}`}>
            {i > 0 ? " › " : null}
            <span style={{ whiteSpace: "nowrap" }}>
              {hop.asn}
              {hop.name ? <span style={{ fontWeight: 500 }}> {hop.name}</span> : null}
            </span>
          </Fragment>
        ))}
      </span>
    );
  }
  if (column === "BGP community") {
    const entries = communityEntries(row);
    if (entries.length === 0) return null;
    return (
      <ul style={LIST_STYLE} data-testid="lg-communities">
        {entries.map((entry, i) => (
          <li key={`${entry.community}-${i}`} style={{ whiteSpace: "nowrap" }}>
            {entry.community}
            {entry.name ? <span style={{ fontWeight: 500 }}> {entry.name}</span> : null}
          </li>
        ))}
      </ul>
    );
  }
  if (column === "RPKI") return <RpkiBadge state={row.RPKI} />;
  return <>{cellText(row, column, timezone)}</>;
}
