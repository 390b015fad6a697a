import { Alert, Badge, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { Form } from "@remix-run/react";
import { ExportMenu, exportHref } from "~/features/shared/table/ExportMenu";
import { TABLE_FORMATS } from "~/lib/export-files";
import type { ContractActionResult } from "../contract-form";
import type { MRT_ColumnDef } from "mantine-react-table";
import { DeferredDataTable } from "~/features/shared/table/DeferredDataTable";
import { numericColumn } from "~/features/shared/table/numeric-column";
import { lazy, Suspense } from "react";
import { ScrollBox } from "~/components/EditForms";
import { useHydrated } from "~/components/use-hydrated";
import { HISTORY_MONTHS } from "../history";
import type { BillRow, MarginRow, RevenuesScreen } from "../screen.server";
import { ContractsSection } from "./ContractsSection";
import { CsrfField } from "~/components/CsrfField";

/** Whether the month is frozen, and (for those who edit contracts) the recompute form: works without JavaScript. */
function MonthState({ data, path }: { data: RevenuesScreen; path: string }) {
  if (!data.closed)
    return (
      <Text size="xs" c="dimmed" data-testid="month-state">
        Open month: computed afresh from the contracts and samples as they are now; it is frozen once it is over.
      </Text>
    );
  return (
    <Paper withBorder p="xs" data-testid="month-state">
      <Text size="sm">
        Closed month: bills frozen on {data.closed.closedAt}
        {data.closed.recomputedAt ? `, recomputed on ${data.closed.recomputedAt} by ${data.closed.recomputedBy ?? "–"}` : ""}. Contract
        edits and late samples change open months only.
      </Text>
      {data.canManage ? (
        <Form method="post" action={`${path}?month=${data.month}`} aria-label={`Recompute the bills of ${data.monthLabel}`}>
          <CsrfField />
          <input type="hidden" name="intent" value="recompute" />
          <input type="hidden" name="month" value={data.month} />
          <Group align="end" gap="sm" mt="xs">
            <TextInput name="reason" label="Reason for recomputing" size="xs" maxLength={500} />
            <label style={{ fontSize: 12 }}>
              <input type="checkbox" name="confirm" value="yes" /> Replace the frozen bills (audited)
            </label>
            <Button type="submit" size="xs" variant="default">
              Recompute {data.monthLabel}
            </Button>
          </Group>
        </Form>
      ) : null}
    </Paper>
  );
}

function Figure({ label, value, change, testId }: { label: string; value: string; change: string; testId: string }) {
  return (
    <Paper withBorder p="sm" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" data-testid={`${testId}-value`}>
        {value}
      </Text>
      <Text size="xs" data-testid={`${testId}-change`}>
        {change} against the previous month
      </Text>
    </Paper>
  );
}

const BILL_COLUMNS: MRT_ColumnDef<BillRow>[] = [
  { accessorKey: "contract", header: "Contract" },
  { accessorKey: "partner", header: "Partner AS" },
  { accessorKey: "directionLabel", header: "Direction" },
  { accessorKey: "method", header: "Method" },
  { accessorKey: "ports", header: "Ports" },
  numericColumn<BillRow>(
    { id: "billed95th", accessorFn: (b) => b.billed95thMbps ?? 0, header: "Billed 95th", Cell: ({ row }) => row.original.billed95th },
    "> 1000",
  ),
  numericColumn<BillRow>(
    {
      id: "completeness",
      accessorFn: (b) => Math.round(b.completeness * 10000) / 100,
      header: "Completeness",
      Cell: ({ row }) => (
        <span style={{ whiteSpace: "nowrap" }}>
          {row.original.completenessLabel}{" "}
          {row.original.incomplete ? (
            <Badge color="orange" variant="light" size="xs" title="Under 99 % of the month's samples: the 95th may change">
              Under 99 %
            </Badge>
          ) : null}
        </span>
      ),
    },
    "< 99",
  ),
  numericColumn<BillRow>(
    { id: "charges", accessorFn: (b) => b.totalEur, header: "Charges", Cell: ({ row }) => row.original.total },
    "> 500",
  ),
  numericColumn<BillRow>(
    {
      id: "effectivePrice",
      accessorFn: (b) => b.perBilledMbpsEur ?? 0,
      header: "Effective price",
      Cell: ({ row }) => row.original.perBilledMbps,
    },
    "> 0.5",
  ),
];

/** The month's bills: sorted, filtered ('>'/'<' on the figures) and columns picked with JavaScript; a plain table without. */
function BillTable({ data }: { data: RevenuesScreen }) {
  return (
    <DeferredDataTable
      columns={BILL_COLUMNS}
      data={data.bills}
      getRowId={(b) => String(b.id)}
      sorting={[{ id: "charges", desc: true }]}
      testId="bills-table"
    />
  );
}

const MARGIN_COLUMNS: MRT_ColumnDef<MarginRow>[] = [
  {
    accessorKey: "neighbour",
    header: "Neighbour AS",
    Cell: ({ row }) => (
      <>
        {row.original.neighbour}{" "}
        {row.original.foldedIntoOthers ? (
          <Badge color="gray" variant="light" size="xs" title="Outside the tracked set: its traffic and cost are in the Others row">
            Folded into Others
          </Badge>
        ) : null}
      </>
    ),
  },
  numericColumn<MarginRow>({ accessorKey: "revenueEur", header: "Revenue", Cell: ({ row }) => row.original.revenue }, "> 500"),
  numericColumn<MarginRow>({ accessorKey: "costEur", header: "Allocated cost", Cell: ({ row }) => row.original.cost }, "> 500"),
  numericColumn<MarginRow>({ accessorKey: "marginEur", header: "Margin", Cell: ({ row }) => row.original.margin }, "< 0"),
  { accessorKey: "links", header: "Cost by link (share)" },
];

/** The margin per neighbour AS, with the allocation method as a GET form (URL state, works without JavaScript). */
function MarginSection({ data, path }: { data: RevenuesScreen; path: string }) {
  return (
    <Stack gap="xs" data-testid="margin-section">
      <Title order={2} size="h4">
        Margin per neighbour AS
      </Title>
      <Form method="get" action={path}>
        <input type="hidden" name="month" value={data.month} />
        <Group align="end" gap="sm">
          <NativeSelect
            name="allocation"
            label="A link's cost is allocated to the ASes using it by"
            defaultValue={data.allocation}
            key={data.allocation}
            data={data.allocations.map((a) => ({ value: a.value, label: a.label }))}
          />
          <Button type="submit" variant="default">
            {data.margins ? "Allocate" : "Show the margin"}
          </Button>
        </Group>
      </Form>
      {data.margins === null ? null : data.margins.length ? (
        <Stack gap={4}>
          <Text size="xs" c="dimmed">
            Margin per neighbour AS, {data.monthLabel}: cost allocated by {data.allocations.find((a) => a.value === data.allocation)?.label}
          </Text>
          <DeferredDataTable
            columns={MARGIN_COLUMNS}
            data={data.margins}
            getRowId={(r) => String(r.asn)}
            sorting={[{ id: "revenueEur", desc: true }]}
            testId="margin-table"
          />
        </Stack>
      ) : (
        <Text c="dimmed">No revenue or allocated cost in this month.</Text>
      )}
      {data.unallocated.length ? (
        <Text size="xs" data-testid="margin-unallocated">
          Not allocated (no flows on the link this month): {data.unallocated.join(", ")}.
        </Text>
      ) : null}
    </Stack>
  );
}

// nivo is loaded only when the history is shown with JavaScript; its table is the chart without it.
const HistoryChart = lazy(() => import("./HistoryChart").then((m) => ({ default: m.HistoryChart })));

/** The last 12 months' cost, revenue and margin: a GET button (URL history=12), a table, and with JavaScript a chart. */
function HistorySection({ data, path }: { data: RevenuesScreen; path: string }) {
  const hydrated = useHydrated();
  return (
    <Stack gap="xs" data-testid="history-section">
      <Title order={2} size="h4">
        The last {HISTORY_MONTHS} months
      </Title>
      {data.history === null ? (
        <Form method="get" action={path}>
          <input type="hidden" name="month" value={data.month} />
          {data.margins ? <input type="hidden" name="allocation" value={data.allocation} /> : null}
          <input type="hidden" name="history" value={HISTORY_MONTHS} />
          <Button type="submit" variant="default">
            Show cost and revenue of the last {HISTORY_MONTHS} months
          </Button>
        </Form>
      ) : (
        <>
          {hydrated ? (
            <Suspense fallback={null}>
              <HistoryChart rows={data.history} />
            </Suspense>
          ) : null}
          <ScrollBox label="Cost and revenue by month">
            <Table striped withTableBorder fz="xs" data-testid="history-table" miw={520}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Month</Table.Th>
                  <Table.Th scope="col">Cost</Table.Th>
                  <Table.Th scope="col">Revenue</Table.Th>
                  <Table.Th scope="col">Margin</Table.Th>
                  <Table.Th scope="col">Bills</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.history.map((h) => (
                  <Table.Tr key={h.key} data-testid="history-row">
                    <Table.Td>{h.label}</Table.Td>
                    <Table.Td style={{ whiteSpace: "nowrap" }}>{h.cost}</Table.Td>
                    <Table.Td style={{ whiteSpace: "nowrap" }}>{h.revenue}</Table.Td>
                    <Table.Td style={{ whiteSpace: "nowrap" }}>{h.margin}</Table.Td>
                    <Table.Td>{h.costEur === null ? "Before any data" : h.closed ? "Frozen" : "Open"}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollBox>
        </>
      )}
    </Stack>
  );
}

/** What-if (GET form, URL state): a share of one AS's traffic moved between two of the month's contracts, both bills again. */
function WhatIfSection({ data, path }: { data: RevenuesScreen; path: string }) {
  const w = data.whatIf;
  const err = (k: string) => w.errors[k] || undefined;
  const choose = [{ value: "", label: "Choose a contract" }, ...w.options];
  // Keyed by the asked fields, so a new answer shows its own values without JavaScript's help.
  const key = JSON.stringify(w.fields);
  return (
    <Stack gap="xs" data-testid="what-if-section">
      <Title order={2} size="h4">
        What-if: move an AS&apos;s traffic
      </Title>
      <Text size="xs" c="dimmed">
        Both bills recomputed on the moved 5-minute series of {data.monthLabel}, interval by interval: never from averages.
      </Text>
      <Form method="get" action={path} aria-label="What-if" key={key}>
        <input type="hidden" name="month" value={data.month} />
        {data.margins ? <input type="hidden" name="allocation" value={data.allocation} /> : null}
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
          <TextInput name="whatIfAs" label="AS" placeholder="2906 or AS2906" defaultValue={w.fields.as} error={err("as")} required />
          <NativeSelect name="whatIfFrom" label="From the contract" data={choose} defaultValue={w.fields.from} error={err("from")} />
          <NativeSelect name="whatIfTo" label="To the contract" data={choose} defaultValue={w.fields.to} error={err("to")} />
          <TextInput name="whatIfShare" label="Share moved (%)" inputMode="decimal" defaultValue={w.fields.share} error={err("share")} />
        </SimpleGrid>
        <Group mt="xs">
          <Button type="submit" variant="default">
            Compute
          </Button>
        </Group>
      </Form>
      {w.result ? (
        <Stack gap={4} data-testid="what-if-result">
          <Text size="sm">{w.result.summary}</Text>
          <Table.ScrollContainer minWidth={700}>
            <Table striped withTableBorder fz="xs" data-testid="what-if-table">
              <Table.Caption>What-if, {data.monthLabel}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Contract</Table.Th>
                  <Table.Th scope="col">Direction</Table.Th>
                  <Table.Th scope="col">Billed 95th now</Table.Th>
                  <Table.Th scope="col">Billed 95th after</Table.Th>
                  <Table.Th scope="col">Charges now</Table.Th>
                  <Table.Th scope="col">Charges after</Table.Th>
                  <Table.Th scope="col">Change</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {w.result.rows.map((r) => (
                  <Table.Tr key={r.contract} data-testid="what-if-row">
                    <Table.Td>{r.contract}</Table.Td>
                    <Table.Td>{r.direction}</Table.Td>
                    <Table.Td style={{ whiteSpace: "nowrap" }}>{r.before95th}</Table.Td>
                    <Table.Td style={{ whiteSpace: "nowrap" }}>{r.after95th}</Table.Td>
                    <Table.Td style={{ whiteSpace: "nowrap" }}>{r.before}</Table.Td>
                    <Table.Td style={{ whiteSpace: "nowrap" }}>{r.after}</Table.Td>
                    <Table.Td style={{ whiteSpace: "nowrap" }}>{r.change}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Text size="sm" fw={500} data-testid="what-if-margin">
            Margin change: {w.result.marginChange}
          </Text>
          {w.result.notices.map((n) => (
            <Text key={n} size="xs">
              {n}
            </Text>
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
}

/** The Revenues & Costs screen: month picker (GET form), totals with their change, the month's bills, exports. */
export function RevenuesView({ data, result, path }: { data: RevenuesScreen; result?: ContractActionResult; path: string }) {
  const search = `?month=${data.month}`;
  return (
    <Stack gap="md">
      <Title order={1} size="h3">
        Revenues &amp; Costs
      </Title>
      <Form method="get" action={path} data-tour="revenues-month">
        {data.margins ? <input type="hidden" name="allocation" value={data.allocation} /> : null}
        <Group align="end" gap="sm">
          <TextInput
            type="month"
            name="month"
            label="Month"
            description="YYYY-MM, billed in the contract's timezone (UTC by default)"
            defaultValue={data.month}
            key={data.month}
            pattern="\d{4}-\d{2}"
          />
          <Button type="submit">Show</Button>
        </Group>
      </Form>
      {data.notices.length ? (
        <Alert color="yellow" title="Not applied as asked" data-testid="revenues-notices">
          {data.notices.map((n) => (
            <Text key={n} size="sm">
              {n}
            </Text>
          ))}
        </Alert>
      ) : null}
      {data.totals ? (
        <>
          <Title order={2} size="h4">
            {data.monthLabel}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }} data-tour="revenues-totals">
            <Figure label="Cost" value={data.totals.view.cost} change={data.totals.change.cost} testId="total-cost" />
            <Figure label="Revenue" value={data.totals.view.revenue} change={data.totals.change.revenue} testId="total-revenue" />
            <Figure label="Margin" value={data.totals.view.margin} change={data.totals.change.margin} testId="total-margin" />
          </SimpleGrid>
          <MonthState data={data} path={path} />
          <Text size="xs" c="dimmed">
            {data.previousLabel}: cost {data.totals.previous.cost}, revenue {data.totals.previous.revenue}, margin{" "}
            {data.totals.previous.margin}.
          </Text>
          <Group justify="space-between" data-tour="revenues-bills">
            <Text size="sm" data-testid="bills-count">
              {data.bills.length} {data.bills.length === 1 ? "bill" : "bills"}
            </Text>
            <ExportMenu
              href={(f) => exportHref(`${path}/export`, search, f)}
              blocked={data.bills.length ? null : "empty"}
              formats={TABLE_FORMATS}
            />
          </Group>
          {data.bills.length ? <BillTable data={data} /> : <Text c="dimmed">No contract is valid in this month.</Text>}
          <MarginSection data={data} path={path} />
          {data.bills.length > 1 ? <WhatIfSection data={data} path={path} /> : null}
          <HistorySection data={data} path={path} />
        </>
      ) : null}
      {data.contracts ? <ContractsSection part={data.contracts} month={data.month} path={path} result={result} /> : null}
    </Stack>
  );
}
