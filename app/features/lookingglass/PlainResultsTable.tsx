/**
 * The Looking Glass table as plain HTML: what the server renders, so the page is complete without
 * JavaScript (pages are links carrying `page=N`). Once JavaScript runs, the interactive table
 * (ResultsTable: filters, sorting, row details) replaces it.
 */
import { Anchor, Group, Table, Text } from "@mantine/core";
import { cellText, columnHeader, dataColumns, PAGE_SIZE, type LookingGlassRow } from "./columns";

export function PlainResultsTable(props: { rows: readonly LookingGlassRow[]; variant: "public" | "private"; page: number; pageHref: (page: number) => string }) {
  const columns = dataColumns(props.variant);
  const pages = Math.max(1, Math.ceil(props.rows.length / PAGE_SIZE));
  const page = Math.min(Math.max(1, props.page), pages);
  const shown = props.rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  return (
    <div>
      <Table.ScrollContainer minWidth={900}>
        <Table striped withTableBorder data-testid="lookingglass-table">
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c}>{columnHeader(c)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((row, i) => (
              <Table.Tr key={`${row.VantagePoint}-${row.Prefix}-${row["BGP next_hop"]}-${i}`}>
                {columns.map((c) => (
                  <Table.Td key={c} style={{ whiteSpace: c === "BGP as_path" || c === "BGP community" ? "normal" : "nowrap" }}>
                    {cellText(row, c)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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
