import { Anchor, Badge, Table } from "@mantine/core";
import { Link } from "@remix-run/react";
import { IconArrowDown, IconArrowsSort, IconArrowUp } from "@tabler/icons-react";
import { Fragment } from "react";
import { nextSort, rnaSearch } from "../params";
import type { RnaScreen, RnaScreenColumn, RnaScreenRow } from "../screen.server";
import { RouteAtTime } from "./RouteAtTime";

const ARIA_SORT = { asc: "ascending", desc: "descending" } as const;

/** Headers: the time says its timezone. */
export const headerText = (column: Pick<RnaScreenColumn, "id" | "label">, tz: string) =>
  column.id === "time_received" ? `${column.label} (${tz})` : column.label;

/** A header that sorts by its column (a plain link: the next sort, from the first page); aria-sort says the order. */
function SortableHeader({ data, column, path }: { data: RnaScreen; column: RnaScreenColumn; path: string }) {
  const sort = data.params.sort;
  const sorted = sort?.column === column.id;
  const Icon = !sorted ? IconArrowsSort : sort.direction === "asc" ? IconArrowUp : IconArrowDown;
  const label = headerText(column, data.timezone);
  return (
    <Table.Th
      aria-sort={sorted ? ARIA_SORT[sort.direction] : "none"}
      style={{ textAlign: column.numeric ? "right" : undefined }}
      title={column.description}
    >
      <Anchor
        component={Link}
        to={`${path}?${rnaSearch(data.params, data.timezone, { sort: nextSort(sort, column) })}`}
        c="inherit"
        fw={700}
        underline="hover"
        aria-label={`Sort by ${label}`}
        style={{ display: "inline-flex", alignItems: "center", gap: 4 }}
        data-testid={`rna-sort-${column.id}`}
      >
        {label}
        <Icon size={14} aria-hidden="true" style={{ flex: "none", opacity: sorted ? 1 : 0.6 }} />
      </Anchor>
    </Table.Th>
  );
}

/**
 * One page of raw records (or prefix-aggregated rows) as plain HTML, the same with and without
 * JavaScript: the picked columns; a record the router dropped says so, a re-exported copy too.
 * Wider than the screen (a phone), the table scrolls inside its own box.
 */
export function RnaTable({ data, path }: { data: RnaScreen; path: string }) {
  const columns = data.params.columns.map((id) => data.catalogue.find((c) => c.id === id)!).filter(Boolean);
  // Records (not groups) link to the route that carried them: the same page, its route below the row.
  const routes = !data.aggregated;
  const routeHref = (row: RnaScreenRow) => {
    const search = rnaSearch(data.params, data.timezone, data.params.after ? { after: data.params.after } : {});
    search.set("route", row.key);
    return `${path}?${search}#route`;
  };
  // Two records identical in every stored field share a key (the row hash is of the fields): React's keys must differ, or
  // a client-side navigation leaves the old page's rows in the table.
  const seen = new Map<string, number>();
  const reactKey = (row: RnaScreenRow) => {
    const n = (seen.get(row.key) ?? 0) + 1;
    seen.set(row.key, n);
    return n === 1 ? row.key : `${row.key}#${n}`;
  };
  return (
    <div style={{ overflowX: "auto", maxWidth: "100%" }} data-testid="rna-scroll" tabIndex={0} role="region" aria-label="Raw flow records">
      <Table striped withTableBorder fz="xs" data-testid="rna-table">
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <SortableHeader key={c.id} data={data} column={c} path={path} />
            ))}
            {routes ? <Table.Th>Route at the time</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.rows.map((row) => (
            <Fragment key={reactKey(row)}>
              <Table.Tr data-dropped={row.dropped || undefined} data-copy={row.copy || undefined} data-others={row.isOthers || undefined}>
                {row.cells.map((cell, i) => (
                  <Table.Td
                    key={columns[i].id}
                    style={{ textAlign: columns[i].numeric ? "right" : undefined, whiteSpace: "nowrap", verticalAlign: "top" }}
                  >
                    {cell}
                    {i === 0 && row.dropped ? (
                      <Badge ml={6} color="red" variant="light" size="xs" tt="none" data-testid="rna-dropped">
                        dropped by the router
                      </Badge>
                    ) : null}
                    {i === 0 && row.copy ? (
                      <Badge ml={6} color="gray" variant="light" size="xs" tt="none" data-testid="rna-copy">
                        re-exported copy
                      </Badge>
                    ) : null}
                  </Table.Td>
                ))}
                {routes ? (
                  <Table.Td style={{ verticalAlign: "top", whiteSpace: "nowrap" }}>
                    {row.isOthers ? null : (
                      <Anchor component={Link} to={routeHref(row)} size="xs" aria-current={data.route?.key === row.key || undefined}>
                        Route
                      </Anchor>
                    )}
                  </Table.Td>
                ) : null}
              </Table.Tr>
              {data.route && data.route.key === row.key ? (
                <Table.Tr data-testid="rna-route-row">
                  <Table.Td colSpan={columns.length + 1} id="route">
                    <RouteAtTime result={data.route.result} timezone={data.timezone} />
                  </Table.Td>
                </Table.Tr>
              ) : null}
            </Fragment>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}
