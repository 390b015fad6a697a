import { Alert, Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { Form } from "@remix-run/react";
import { ExportMenu, exportHref } from "~/features/shared/table/ExportMenu";
import { TABLE_FORMATS } from "~/lib/export-files";
import type { ContractActionResult } from "../contract-form";
import type { RevenuesScreen } from "../screen.server";
import { ContractsSection } from "./ContractsSection";

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

function BillTable({ data }: { data: RevenuesScreen }) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped withTableBorder fz="xs" data-testid="bills-table">
        <Table.Caption>Bills of {data.monthLabel}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Contract</Table.Th>
            <Table.Th scope="col">Partner AS</Table.Th>
            <Table.Th scope="col">Direction</Table.Th>
            <Table.Th scope="col">Method</Table.Th>
            <Table.Th scope="col">Ports</Table.Th>
            <Table.Th scope="col">Billed 95th</Table.Th>
            <Table.Th scope="col">Completeness</Table.Th>
            <Table.Th scope="col">Charges</Table.Th>
            <Table.Th scope="col">Effective price</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.bills.map((b) => (
            <Table.Tr key={b.id} data-testid="bill-row">
              <Table.Td>{b.contract}</Table.Td>
              <Table.Td>{b.partner}</Table.Td>
              <Table.Td>{b.directionLabel}</Table.Td>
              <Table.Td>{b.method}</Table.Td>
              <Table.Td>{b.ports}</Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{b.billed95th}</Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>
                {b.completenessLabel}{" "}
                {b.incomplete ? (
                  <Badge color="orange" variant="light" size="xs" title="Under 99 % of the month's samples: the 95th may change">
                    Under 99 %
                  </Badge>
                ) : null}
              </Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{b.total}</Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{b.perBilledMbps}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
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
        </>
      ) : null}
      {data.contracts ? <ContractsSection part={data.contracts} month={data.month} path={path} result={result} /> : null}
    </Stack>
  );
}
