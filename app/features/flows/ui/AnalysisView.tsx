import { Alert, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { COUNTED_ONCE_NOTE } from "../counted-traffic";
import { Form, useLocation, useNavigation } from "@remix-run/react";
import { useHydrated } from "~/components/use-hydrated";
import { formatUnixRange } from "~/lib/date-format";
import { formatBitsPerSecond } from "~/lib/units";
import type { AsFlowsAnalysisData } from "../analysis.server";
import { CUSTOM_RANGE, DEFAULT_DATE_RANGE } from "../range-params";
import { SankeyChart } from "./sankey-chart";
import { DateRangeField } from "./DateRangeField";
import { IpVersionField } from "./IpVersionField";
import { ValueName } from "./ValueName";

/** The four columns of the analysis Sankey (FOUR_DIMENSIONS of analysis.server.ts). */
const ANALYSIS_STAGES = ["Source AS", "Handover AS", "Next-hop AS", "Destination AS"];

const pct = (share: number) => `${(share * 100).toFixed(1)} %`;

function AnalysisOptionsForm({ data, title, path }: { data: AsFlowsAnalysisData; title: string; path: string }) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const { params } = data;
  const rangeValue = params.dateRange ?? (params.start !== null && params.end !== null ? CUSTOM_RANGE : DEFAULT_DATE_RANGE);
  return (
    <Form method="get" aria-label={`${title} options`} data-tour="analysis-options">
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group align="flex-end" gap="md" wrap="wrap">
            <TextInput
              label="AS numbers"
              name="as"
              defaultValue={params.as}
              placeholder="2906, AS15169"
              description="Separated by commas or spaces"
              w={260}
              required
            />
            <IpVersionField value={params.ipVersion} />
          </Group>
          {/* The same date inputs as the Flow Explorer; the analysis reads date ranges only. */}
          <DateRangeField
            rangeValue={rangeValue}
            start={params.start ?? undefined}
            end={params.end ?? undefined}
            shown={data.range ?? data.requested}
            timezone={data.timezone}
            error={data.rangeError}
            hydrated={hydrated}
            onChange={() => undefined}
            datesOnly
          />
          <Group>
            <Button type="submit" loading={navigation.state === "loading" && navigation.location?.pathname === path}>
              Show
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Form>
  );
}

/** Direct vs indirect ingress traffic of each chosen AS, with the neighbours that hand the indirect part over. */
function IndirectTable({ data }: { data: AsFlowsAnalysisData }) {
  if (!data.indirect) return null;
  return (
    <Table striped withTableBorder data-testid="indirect-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Source AS</Table.Th>
          <Table.Th ta="right">Total</Table.Th>
          <Table.Th ta="right">Direct</Table.Th>
          <Table.Th ta="right">Indirect</Table.Th>
          <Table.Th>Indirect via handover AS</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {data.indirect.map((r) => (
          <Table.Tr key={r.asn} data-asn={r.asn}>
            <Table.Td>
              <ValueName row={{ key: String(r.asn), name: r.name }} dimension="AS_SRC_INGRESS" /> (AS{r.asn})
            </Table.Td>
            <Table.Td ta="right" data-testid="total-bps">
              {formatBitsPerSecond(r.total_bps)}
            </Table.Td>
            <Table.Td ta="right">
              {formatBitsPerSecond(r.direct_bps)} ({pct(r.direct_share)})
            </Table.Td>
            <Table.Td ta="right">
              {formatBitsPerSecond(r.indirect_bps)} ({pct(r.indirect_share)})
            </Table.Td>
            <Table.Td>
              {r.via.length ? (
                <Stack gap={0}>
                  {r.via.map((v) => (
                    <Text key={v.asn} size="sm">
                      <ValueName row={{ key: String(v.asn), name: v.name }} dimension="AS_HND_INGRESS" /> (AS{v.asn}):{" "}
                      {formatBitsPerSecond(v.bps)}, {pct(v.share)}
                    </Text>
                  ))}
                </Stack>
              ) : (
                "—"
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The AS Flows Analysis screen: options form, messages, range, the four-AS Sankey and the direct/indirect table. */
export function AnalysisView({ data, title, path }: { data: AsFlowsAnalysisData; title: string; path: string }) {
  const location = useLocation();
  const tz = data.timezone;
  return (
    <Stack>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        The ingress traffic of the chosen source ASes along its four ASes — source, handover, next hop, destination — and how much of it
        each AS hands over itself (direct) or reaches the network through other neighbours (indirect).
      </Text>
      {/* Keyed by the URL: Back/Forward reset the uncontrolled controls to the URL's state. */}
      <AnalysisOptionsForm key={location.search} data={data} title={title} path={path} />
      {data.errors.length ? (
        <Alert color="red" title="Some options could not be applied" data-testid="errors">
          {data.errors.map((e, i) => (
            <Text key={i} size="sm">
              {e}
            </Text>
          ))}
        </Alert>
      ) : null}
      {data.notices.length ? (
        <Alert color="yellow" data-testid="notices">
          {data.notices.map((n, i) => (
            <Text key={i} size="sm">
              {n}
            </Text>
          ))}
        </Alert>
      ) : null}
      {data.withheld.length ? (
        <Alert color="gray" data-testid="withheld">
          {data.withheld.map((w, i) => (
            <Text key={i} size="sm">
              {w}
            </Text>
          ))}
        </Alert>
      ) : null}
      {!data.asns.length ? <Text c="dimmed">Enter one or more AS numbers and click Show.</Text> : null}
      {data.filters.some((f) => f.locked) ? (
        <Text size="sm" data-testid="locked-filters">
          Restricted to: {data.lockedLabels.join("; ")}
        </Text>
      ) : null}
      {data.range ? (
        <Text size="sm" data-testid="range">
          {formatUnixRange(data.range.start, data.range.end, tz)}
        </Text>
      ) : data.asns.length && !data.errors.length && (data.parts.sankey || data.parts.indirect) ? (
        <Alert color="gray">No flow data is available yet.</Alert>
      ) : null}
      {data.sankey ? (
        <>
          <Title order={4}>Source AS → handover AS → next-hop AS → destination AS</Title>
          <SankeyChart sankey={data.sankey} height={560} stages={ANALYSIS_STAGES} />
        </>
      ) : null}
      {data.indirect ? (
        <>
          <Title order={4}>Direct and indirect traffic</Title>
          <IndirectTable data={data} />
        </>
      ) : null}
      {data.sankey || data.indirect ? (
        <Text size="xs" data-testid="counted-once">
          {COUNTED_ONCE_NOTE}
        </Text>
      ) : null}
    </Stack>
  );
}
