import { Alert, Anchor, Badge, Button, Code, Group, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { Form, Link } from "@remix-run/react";
import type { MRT_ColumnDef } from "mantine-react-table";
import { useMemo } from "react";
import { NotAppliedNotice } from "~/components/NotAppliedNotice";
import { DeferredDataTable } from "~/features/shared/table/DeferredDataTable";
import { exportHref, ExportMenu } from "~/features/shared/table/ExportMenu";
import { numericColumn } from "~/features/shared/table/numeric-column";
import { formatDateLong } from "~/lib/date-format";
import { TABLE_FORMATS } from "~/lib/export-files";
import { formatBitsPerSecond } from "~/lib/units";
import type { CandidatesResult } from "../candidates.server";
import type { AsRelationDetail, AsRelationRow, AsRelationsScreen } from "../screen.server";

export const EXPORT_PATH = "/as-relations/export";
const count = new Intl.NumberFormat("en-US");

function detailHref(path: string, month: string, asn: number) {
  return `${path}?${new URLSearchParams({ month, asn: String(asn) })}#as-detail`;
}

function useColumns(path: string, month: string): MRT_ColumnDef<AsRelationRow>[] {
  return useMemo<MRT_ColumnDef<AsRelationRow>[]>(
    () => [
      {
        accessorKey: "as_label",
        header: "AS",
        sortingFn: (a, b) => a.original.asn - b.original.asn,
        Cell: ({ row }) => (
          <Anchor component={Link} to={detailHref(path, month, row.original.asn)} size="sm" data-testid={`as-link-${row.original.asn}`}>
            {row.original.as_label}
          </Anchor>
        ),
      },
      { accessorKey: "relations", header: "Relation" },
      { accessorKey: "connections", header: "Connection" },
      { accessorKey: "links", header: "Links" },
      { accessorKey: "routers", header: "Routers" },
      { accessorKey: "policy", header: "PeeringDB policy" },
      { accessorKey: "declared_ratio", header: "Declared ratio" },
      numericColumn<AsRelationRow>({
        accessorKey: "outbound_p95_bps",
        header: "Observed 95th in",
        Cell: ({ row }) => row.original.outbound_text,
      }),
      numericColumn<AsRelationRow>({
        accessorKey: "inbound_p95_bps",
        header: "Observed 95th out",
        Cell: ({ row }) => row.original.inbound_text,
      }),
      { accessorKey: "observed_ratio", header: "Observed ratio" },
      {
        accessorFn: (r) => (r.disagrees ? "Disagrees" : "Agrees"),
        id: "disagrees",
        header: "Declared vs observed",
        Cell: ({ row }) =>
          row.original.disagrees ? (
            <Badge color="orange" variant="light" data-testid="ratio-disagrees">
              Disagrees
            </Badge>
          ) : (
            "Agrees"
          ),
      },
    ],
    [path, month],
  );
}

function MonthForm({ data, path }: { data: AsRelationsScreen; path: string }) {
  return (
    <Form method="get" action={path} data-testid="month-form" data-tour="asrelations-month">
      <Group align="flex-end" gap="sm">
        <TextInput type="month" name="month" label="Month (UTC)" defaultValue={data.month} data-testid="month-input" />
        <Button type="submit" variant="default">
          Show
        </Button>
      </Group>
    </Form>
  );
}

function ImportState({ data }: { data: AsRelationsScreen }) {
  if (!data.peeringdb)
    return (
      <Alert color="yellow" title="No PeeringDB data yet" data-testid="no-peeringdb">
        No PeeringDB import has run, so names, policies and declared ratios are missing. Staff import PeeringDB's JSON on the{" "}
        <Anchor component={Link} to="/site-settings/routing-data">
          routing data page
        </Anchor>{" "}
        or with <Code>npm run peeringdb:import FILE</Code> (see docs/routing-import.md).
      </Alert>
    );
  return (
    <Text size="sm" c="dimmed" data-testid="peeringdb-state">
      PeeringDB data of {data.peeringdb.dump_date ? formatDateLong(Date.parse(data.peeringdb.dump_date), data.timezone) : "an undated dump"}
      , imported {formatDateLong(Date.parse(data.peeringdb.imported_at), data.timezone)}.
    </Text>
  );
}

function Detail({ detail, path, month }: { detail: AsRelationDetail; path: string; month: string }) {
  const pdb = detail.peeringdb;
  return (
    <Stack gap="xs" id="as-detail" data-testid="as-detail">
      <Group justify="space-between">
        <Title order={2} size="h3">
          AS{detail.asn} {detail.name ?? ""}
        </Title>
        <Anchor component={Link} to={`${path}?${new URLSearchParams({ month })}`} size="sm">
          Close the detail
        </Anchor>
      </Group>
      {pdb ? (
        <Stack gap={4} data-testid="as-detail-peeringdb">
          <Text size="sm">
            Policy: {pdb.policy_general || "Not stated"} · Declared ratio: {pdb.info_ratio} · Traffic: {pdb.info_traffic || "Not stated"} ·
            Type: {pdb.info_type || "Not stated"}
            {pdb.irr_as_set ? ` · IRR as-set: ${pdb.irr_as_set}` : ""}
          </Text>
          <Text size="sm" data-testid="as-detail-noc">
            NOC contact: {pdb.noc_email ? <Anchor href={`mailto:${pdb.noc_email}`}>{pdb.noc_email}</Anchor> : "None listed"}
          </Text>
          <Text size="sm" fw={600}>
            Internet exchanges ({pdb.ix_presence.length})
          </Text>
          {pdb.ix_presence.length ? (
            <Table fz="sm" data-testid="as-detail-ixes" withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Exchange</Table.Th>
                  <Table.Th>City</Table.Th>
                  <Table.Th>Port speed</Table.Th>
                  <Table.Th>Route server</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {pdb.ix_presence.map((ix, i) => (
                  <Table.Tr key={`${ix.ix_id}-${i}`}>
                    <Table.Td>{ix.name}</Table.Td>
                    <Table.Td>{[ix.city, ix.country].filter(Boolean).join(", ")}</Table.Td>
                    <Table.Td>{ix.speed === null ? "" : `${count.format(ix.speed)} Mbit/s`}</Table.Td>
                    <Table.Td>{ix.is_rs_peer ? "Yes" : "No"}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : (
            <Text size="sm">None listed.</Text>
          )}
          <Text size="sm" fw={600}>
            Facilities ({pdb.facility_presence.length})
          </Text>
          <Text size="sm" data-testid="as-detail-facilities">
            {pdb.facility_presence.map((f) => [f.name, f.city, f.country].filter(Boolean).join(", ")).join(" · ") || "None listed."}
          </Text>
          <Anchor href={`/api/peering_db/?asn=${detail.asn}`} size="sm">
            Every PeeringDB fact (JSON)
          </Anchor>
        </Stack>
      ) : (
        <Text size="sm" data-testid="as-detail-peeringdb">
          {"The requested ASN was not found in PeeringDB."}
        </Text>
      )}
      <Text size="sm" fw={600}>
        Originated prefixes
      </Text>
      <Text size="sm" data-testid="as-detail-routing">
        {count.format(detail.routing.prefixes)} prefixes ({count.format(detail.routing.ipv4)} IPv4, {count.format(detail.routing.ipv6)}{" "}
        IPv6) seen at {count.format(detail.routing.vantage_points)} vantage points in the current routing tables
        {detail.routing.prefixes > detail.routing.listed.length ? `; the first ${detail.routing.listed.length} below` : ""}.
      </Text>
      {detail.routing.listed.length ? (
        <Text size="sm" ff="monospace" data-testid="as-detail-prefixes">
          {detail.routing.listed.map((p) => p.prefix).join(", ")}
        </Text>
      ) : null}
      <Anchor href={`/api/routingstreams/?asn=${detail.asn}`} size="sm">
        Every prefix with its neighbours and paths per vantage point (JSON)
      </Anchor>
    </Stack>
  );
}

const eur = new Intl.NumberFormat("en-US", { style: "currency", currency: "EUR", maximumFractionDigits: 0 });
const place = (p: { name: string; city: string }) => (p.city ? `${p.name} (${p.city})` : p.name);

/** The month's peering candidates: ASes reaching us through a transit that share an exchange or a facility with us. */
function Candidates({ result }: { result: CandidatesResult }) {
  return (
    <Stack gap="xs" data-testid="peering-candidates">
      <Title order={2} size="h3" id="peering-candidates">
        Peering candidates
      </Title>
      {"unavailable" in result ? (
        <Text size="sm" data-testid="peering-candidates-unavailable">
          {result.unavailable}
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            ASes that send us traffic through a transit and are at an exchange or a facility where we are too, ranked by the transit cost a
            direct session would save{result.priced ? "" : " (prices need the Revenues & Costs permission: ranked by traffic)"}; general
            policies Restrictive and No come last. Traffic is the month&apos;s mean rate through transit.
            {result.not_shared
              ? ` ${count.format(result.not_shared)} more ASes reach us through transit but share no exchange or facility with us.`
              : ""}
            {result.others_bps > 0
              ? ` ${formatBitsPerSecond(result.others_bps)} through transit comes from ASes outside the tracked set (Others).`
              : ""}
          </Text>
          {result.candidates.length ? (
            <div style={{ overflowX: "auto" }} role="region" aria-label="Peering candidates" tabIndex={0}>
              <Table fz="sm" withTableBorder data-testid="peering-candidates-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>AS</Table.Th>
                    <Table.Th>PeeringDB policy</Table.Th>
                    <Table.Th>Through transit</Table.Th>
                    <Table.Th>Via</Table.Th>
                    <Table.Th>Estimated saving per month</Table.Th>
                    <Table.Th>Where we could meet</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {result.candidates.map((c) => (
                    <Table.Tr key={c.asn} data-testid={`candidate-${c.asn}`}>
                      <Table.Td>
                        <Anchor
                          component={Link}
                          to={`/flow-explorer?${new URLSearchParams({ filter: `AS_SRC_INGRESS:${c.asn}` })}`}
                          size="sm"
                        >
                          {c.name ? `AS${c.asn} ${c.name}` : `AS${c.asn}`}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{c.policy}</Table.Td>
                      <Table.Td>{formatBitsPerSecond(c.transit_bps)}</Table.Td>
                      <Table.Td>{c.via.map((v) => `AS${v.asn} ${formatBitsPerSecond(v.bps)}`).join(", ")}</Table.Td>
                      <Table.Td>{c.saving_eur === null ? "Not priced" : eur.format(c.saving_eur)}</Table.Td>
                      <Table.Td>{[...c.shared_ixes, ...c.shared_facilities].map(place).join(" · ")}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </div>
          ) : (
            <Text size="sm" data-testid="peering-candidates-none">
              No AS that reaches us through transit is at one of our exchanges or facilities this month.
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}

/** AS Relations: the month, the PeeringDB import's state, the neighbours' table with its export, and one neighbour's detail. */
export function AsRelationsView({ data, path }: { data: AsRelationsScreen; path: string }) {
  const columns = useColumns(path, data.month);
  const search = new URLSearchParams({ month: data.month }).toString();
  return (
    <Stack data-testid="as-relations-screen" data-state={`${search}&asn=${data.detail?.asn ?? ""}`}>
      <Title order={1} size="h2">
        AS Relations
      </Title>
      <MonthForm data={data} path={path} />
      <NotAppliedNotice notices={data.notices} testId="as-relations-notices" />
      <ImportState data={data} />
      <Text size="sm" data-testid="as-relations-summary" data-tour="asrelations-summary">
        {count.format(data.rows.length)} neighbour {data.rows.length === 1 ? "AS" : "ASes"} · {count.format(data.samples)} hours with flows
        in {data.month} (the 95th of each direction is over these hours; in = what the AS hands over to us, out = what we hand over to it)
      </Text>
      {data.detail ? <Detail detail={data.detail} path={path} month={data.month} /> : null}
      <ExportMenu
        formats={TABLE_FORMATS}
        blocked={data.rows.length ? null : "empty"}
        href={(format) => exportHref(EXPORT_PATH, search, format)}
      />
      {data.rows.length ? (
        <div data-tour="asrelations-table">
          <DeferredDataTable
            columns={columns}
            data={data.rows}
            getRowId={(r) => String(r.asn)}
            sorting={[{ id: "outbound_p95_bps", desc: true }]}
            testId="as-relations-table"
          />
        </div>
      ) : (
        <Alert color="gray" data-testid="as-relations-empty">
          The inventory has no external link with a neighbour AS: add the neighbours' AS numbers to the external links on the inventory
          page.
        </Alert>
      )}
      {data.candidates ? <Candidates result={data.candidates} /> : null}
    </Stack>
  );
}
