/**
 * The Looking Glass table as plain HTML: what the server renders, so the page is complete without
 * JavaScript (pages are links carrying `page=N`). Once JavaScript runs, the interactive table
 * (ResultsTable: filters, sorting, row details, column picker) replaces it. The default columns
 * fit a laptop screen; first in each row, a details element holds every column, so nothing needs
 * a horizontal scroll to be found. On a phone the table scrolls in its own box, the action first.
 * Where the user may open the Raw Network Analyzer, 'Show in RNA' is a second details element of
 * plain links (one filter each, or all of them) that open it in a new tab: the dialog's column
 * picker needs JavaScript, a link does not.
 */
import { Anchor, Group, Table, Text } from "@mantine/core";
import type { LookingGlassRow } from "~/features/routing/route-columns";
import { MESSAGES } from "~/lib/messages";
import { ACTION_COLUMN, cellText, columnHeader, dataColumns, DEFAULT_COLUMNS, PAGE_SIZE, rnaRowLinks } from "../columns";
import { RouteCell } from "./RouteCell";

export function PlainResultsTable(props: {
  rows: readonly LookingGlassRow[];
  variant: "public" | "private";
  timezone: string;
  page: number;
  pageHref: (page: number) => string;
  /** Show in RNA: offered with RAW_NETWORK_ANALYZER; not a link (the empty-database text as its title) while the flow records are empty. */
  rna?: { rawFlowsEmpty: boolean; routerOf: (vantagePoint: string) => string | undefined } | null;
}) {
  const rna = props.rna ?? null;
  const all = dataColumns(props.variant);
  const columns = all.filter((c) => DEFAULT_COLUMNS.includes(c));
  const pages = Math.max(1, Math.ceil(props.rows.length / PAGE_SIZE));
  const page = Math.min(Math.max(1, props.page), pages);
  const shown = props.rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  return (
    <div>
      <div style={{ overflowX: "auto", maxWidth: "100%" }}>
        <Table striped withTableBorder data-testid="lookingglass-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th style={{ width: "1%" }}>{ACTION_COLUMN}</Table.Th>
              {columns.map((c) => (
                <Table.Th key={c}>{columnHeader(c, props.timezone)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((row, i) => (
              <Table.Tr key={`${row.VantagePoint}-${row.Prefix}-${row["BGP next_hop"]}-${i}`}>
                <Table.Td style={{ verticalAlign: "top" }}>
                  <details data-testid="lg-row-details">
                    <summary style={{ cursor: "pointer", whiteSpace: "nowrap" }}>Details</summary>
                    <dl
                      style={{
                        margin: "6px 0 0",
                        display: "grid",
                        gridTemplateColumns: "max-content minmax(8rem, 22rem)",
                        gap: "2px 12px",
                      }}
                    >
                      {all.map((c) => (
                        <div key={c} style={{ display: "contents" }}>
                          <dt style={{ fontWeight: 600 }}>{columnHeader(c, props.timezone)}</dt>
                          <dd style={{ margin: 0, overflowWrap: "anywhere" }}>
                            {cellText(row, c, props.timezone) ? <RouteCell row={row} column={c} timezone={props.timezone} /> : "—"}
                          </dd>
                        </div>
                      ))}
                    </dl>
                  </details>
                  {rna ? <RnaLinks row={row} rna={rna} /> : null}
                </Table.Td>
                {columns.map((c) => (
                  <Table.Td
                    key={c}
                    style={{ verticalAlign: "top", whiteSpace: c === "BGP as_path" ? "normal" : "nowrap", overflowWrap: "anywhere" }}
                  >
                    <RouteCell row={row} column={c} timezone={props.timezone} />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      <Group justify="space-between" mt="xs">
        <Text size="sm" c="dimmed">
          {props.rows.length} rows{pages > 1 ? `, page ${page} of ${pages}` : ""}
        </Text>
        {pages > 1 ? (
          <Group gap="xs" component="nav" aria-label="Pages">
            {page > 1 ? <Anchor href={props.pageHref(page - 1)}>Previous</Anchor> : null}
            {page < pages ? <Anchor href={props.pageHref(page + 1)}>Next</Anchor> : null}
          </Group>
        ) : null}
      </Group>
    </div>
  );
}

function RnaLinks({ row, rna }: { row: LookingGlassRow; rna: NonNullable<Parameters<typeof PlainResultsTable>[0]["rna"]> }) {
  if (rna.rawFlowsEmpty) {
    // A title is a tooltip that needs no JavaScript.
    return (
      <Text size="sm" c="dimmed" title={MESSAGES.emptyDatabase} data-testid="lg-rna-unavailable" style={{ whiteSpace: "nowrap" }}>
        Show in RNA
      </Text>
    );
  }
  const links = rnaRowLinks(row, rna.routerOf);
  if (links.length === 0) return null;
  return (
    <details data-testid="lg-rna-links">
      <summary style={{ cursor: "pointer", whiteSpace: "nowrap" }}>Show in RNA</summary>
      <ul style={{ margin: "6px 0 0", paddingLeft: "1.1rem" }}>
        {links.map((link) => (
          <li key={link.href} style={{ whiteSpace: "nowrap" }}>
            <Anchor href={link.href} target="_blank" rel="noopener" size="sm">
              {link.label}
            </Anchor>
          </li>
        ))}
      </ul>
    </details>
  );
}
