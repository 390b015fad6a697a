/**
 * The Looking Glass table as plain HTML: what the server renders, so the page is complete without
 * JavaScript — pages, sorting (the headers are links) and a text filter (a GET form) live in the URL
 * (plain-table.ts), for the public page, which never loads a script, too. Once JavaScript runs, the interactive table
 * (ResultsTable: filters, sorting, row details, column picker) replaces it. The default columns
 * fit a laptop screen; first in each row, a details element holds every column, so nothing needs
 * a horizontal scroll to be found. On a phone the table scrolls in its own box, the action first.
 * Where the user may open the Raw Network Analyzer, 'Show in RNA' is a second details element of
 * plain links (one filter each, or all of them) that open it in a new tab: the dialog's column
 * picker needs JavaScript, a link does not.
 */
import { Anchor, Button, Group, NativeSelect, Table, Text, TextInput } from "@mantine/core";
import type { LookingGlassRow } from "~/features/routing/route-columns";
import { MESSAGES } from "~/lib/messages";
import {
  ACTION_COLUMN,
  cellText,
  columnHeader,
  dataColumns,
  DEFAULT_COLUMNS,
  PAGE_SIZE,
  rnaRowLinks,
  type DataColumn,
  type RouterOf,
  type VrfOf,
} from "../columns";
import {
  applyPlainTableState,
  FILTER_MAX_LENGTH,
  PLAIN_TABLE_PARAMS,
  plainTableHref,
  sortedBy,
  type PlainTableState,
} from "../plain-table";
import { RouteCell } from "./RouteCell";

export function PlainResultsTable(props: {
  rows: readonly LookingGlassRow[];
  variant: "public" | "private";
  timezone: string;
  /** The table's page, sort and filter (from the URL). */
  state: PlainTableState;
  /** The page's path and its query's parameters (without the table's): links and the filter form keep them. */
  path: string;
  query: URLSearchParams;
  /** Show in RNA: offered with RAW_NETWORK_ANALYZER; not a link (the empty-database text as its title) while the flow records are empty. */
  rna?: { rawFlowsEmpty: boolean; routerOf: RouterOf; vrfOf?: VrfOf } | null;
}) {
  const rna = props.rna ?? null;
  const all = dataColumns(props.variant);
  const columns = all.filter((c) => DEFAULT_COLUMNS.includes(c));
  const filtered = applyPlainTableState(props.rows, props.state, props.variant, props.timezone);
  const pages = Math.max(1, Math.ceil(filtered.length / PAGE_SIZE));
  const page = Math.min(Math.max(1, props.state.page), pages);
  const shown = filtered.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const href = (next: PlainTableState) => plainTableHref(props.path, props.query, next);
  const sortHeader = (c: DataColumn) => {
    const active = props.state.sort?.column === c ? props.state.sort.order : null;
    return (
      <Table.Th key={c} aria-sort={active ? (active === "desc" ? "descending" : "ascending") : undefined}>
        <Anchor href={href(sortedBy(props.state, c))} size="sm" fw={600} c="inherit">
          {columnHeader(c, props.timezone)}
          {active ? (
            active === "desc" ? (
              " ↓"
            ) : (
              " ↑"
            )
          ) : (
            // A hint that the header sorts, drawn (no text: the header's name stays the column's; its state is aria-sort's).
            <svg aria-hidden="true" width="10" height="12" viewBox="0 0 10 12" style={{ marginLeft: 4, opacity: 0.45 }}>
              <path d="M5 0 9 5H1zM5 12 1 7h8z" fill="currentColor" />
            </svg>
          )}
        </Anchor>
      </Table.Th>
    );
  };
  return (
    <div>
      <form method="get" action={props.path} role="search" aria-label="Filter the routes">
        {[...props.query].map(([k, v], i) => (
          <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
        ))}
        {props.state.sort ? (
          <>
            <input type="hidden" name={PLAIN_TABLE_PARAMS.sort} value={props.state.sort.column} />
            <input type="hidden" name={PLAIN_TABLE_PARAMS.order} value={props.state.sort.order} />
          </>
        ) : null}
        <Group align="flex-end" gap="xs" mb="xs">
          <TextInput
            label="Show routes containing"
            name={PLAIN_TABLE_PARAMS.filter}
            defaultValue={props.state.filter?.text ?? ""}
            maxLength={FILTER_MAX_LENGTH}
            size="xs"
            w={220}
          />
          <NativeSelect
            label="in"
            name={PLAIN_TABLE_PARAMS.filterColumn}
            defaultValue={props.state.filter?.column ?? ""}
            data={[{ value: "", label: "any column" }, ...all.map((c) => ({ value: c, label: columnHeader(c, props.timezone) }))]}
            size="xs"
            w={180}
          />
          <Button type="submit" variant="light" size="xs">
            Filter
          </Button>
          {props.state.filter ? (
            <Anchor href={href({ ...props.state, page: 1, filter: null })} size="sm">
              Show all routes
            </Anchor>
          ) : null}
        </Group>
      </form>
      <div style={{ overflowX: "auto", maxWidth: "100%" }}>
        <Table striped withTableBorder data-testid="lookingglass-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th style={{ width: "1%" }}>{ACTION_COLUMN}</Table.Th>
              {columns.map(sortHeader)}
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
          {props.state.filter ? `${filtered.length} of ${props.rows.length} rows` : `${props.rows.length} rows`}
          {pages > 1 ? `, page ${page} of ${pages}` : ""}
        </Text>
        {pages > 1 ? (
          <Group gap="xs" component="nav" aria-label="Pages">
            {page > 1 ? <Anchor href={href({ ...props.state, page: page - 1 })}>Previous</Anchor> : null}
            {page < pages ? <Anchor href={href({ ...props.state, page: page + 1 })}>Next</Anchor> : null}
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
  const links = rnaRowLinks(row, rna.routerOf, rna.vrfOf);
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
