import { Anchor, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { Link } from "@remix-run/react";
import { alertOnViewHref } from "~/lib/alert-link";
import { DATE_FORMATS, formatUnix } from "~/lib/date-format";
import { formatBitsPerSecond, formatPercent, formatUtilisation } from "~/lib/units";
import type { InterfaceStatisticsRow } from "../interface-statistics.server";
import { plannerSearch } from "../params";
import type { PlannerDetail, PlannerScreenData } from "../screen.server";
import type { Rate } from "../types";
import { UtilisationChart } from "./PlannerCharts";
import { StatusBadge } from "./StatusBadge";

const rate = (r: Rate | null) => (r ? `${formatBitsPerSecond(r.bps)} (${formatUtilisation(r.utilisation)})` : "–");
const dayText = (day: string) => formatUnix(Date.parse(`${day}T12:00:00Z`) / 1000, "UTC", DATE_FORMATS.short);

function Figure({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) {
  return (
    <div data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} component="div">
        {value}
      </Text>
    </div>
  );
}

function TrafficByAs({ title, rows }: { title: string; rows: InterfaceStatisticsRow[] }) {
  return (
    <div data-testid="planner-detail-traffic">
      <Text size="sm" fw={600}>
        {title}
      </Text>
      {rows.length ? (
        <Table fz="xs" withTableBorder data-testid="planner-detail-as">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>AS</Table.Th>
              <Table.Th style={{ textAlign: "right" }}>Mean rate</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.asn}>
                <Table.Td>{r.asn < 0 ? r.name : `AS${r.asn}${r.name ? ` ${r.name}` : ""}`}</Table.Td>
                <Table.Td style={{ textAlign: "right", whiteSpace: "nowrap" }}>{formatBitsPerSecond(r.bps)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="dimmed">
          No flows on this link in the range.
        </Text>
      )}
    </div>
  );
}

/** One link: its figures, the 5-minute chart with the thresholds, the daily peak hours and (external links) the traffic by AS. */
export function LinkDetailView({ data, detail }: { data: PlannerScreenData; detail: PlannerDetail }) {
  const { plan } = detail;
  const core = data.screen === "core";
  const inName = core ? "b → a" : "In";
  const outName = core ? "a → b" : "Out";
  const tz = data.timezone;
  return (
    <Paper withBorder p="md" data-testid="planner-detail" aria-labelledby="planner-detail-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id="planner-detail-title">
            {detail.title}
          </Title>
          <Group gap="md">
            {data.showAlertOnView && plan.link.kind === "external" ? (
              // The link's ingress traffic as a Flow Explorer view: the new-rule form prefilled with it (a plain link).
              <Anchor
                href={alertOnViewHref({ dimension: "INTERFACE_IN", filter: [], ipVersion: "all", value: detail.key })}
                data-testid="planner-alert-on-link"
              >
                Alert on this link&apos;s traffic
              </Anchor>
            ) : null}
            <Anchor component={Link} to={plannerSearch(data.params, { link: null }) || "?"} data-testid="planner-close-detail">
              Close the detail
            </Anchor>
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <Figure label="Status" value={<StatusBadge status={plan.status} />} />
          <Figure label="Capacity" value={plan.capacityBps === null ? "Not known" : formatBitsPerSecond(plan.capacityBps)} />
          <Figure label="Billed 95th" value={rate(plan.billedP95)} testId="detail-billed" />
          <Figure label="Forecast" value={plan.forecast.words} testId="detail-forecast" />
          <Figure label={`${inName} 95th`} value={rate(plan.in.p95)} testId="detail-in-p95" />
          <Figure label={`${outName} 95th`} value={rate(plan.out.p95)} testId="detail-out-p95" />
          <Figure
            label={`${inName} peak hour (max)`}
            value={plan.in.maxDaily ? `${rate(plan.in.maxDaily)} on ${dayText(plan.in.maxDaily.day)}` : "–"}
          />
          <Figure
            label={`${outName} peak hour (max)`}
            value={plan.out.maxDaily ? `${rate(plan.out.maxDaily)} on ${dayText(plan.out.maxDaily.day)}` : "–"}
          />
          <Figure
            label="Samples"
            value={`${plan.samples} five-minute samples${plan.interpolated ? `, ${plan.interpolated} interpolated` : ""}${plan.sources.length ? ` (from ${plan.sources.join(", ")})` : ""}`}
          />
          <Figure
            label="Sampling confidence"
            value={
              plan.samplingConfidence
                ? `Flows count ${formatPercent(plan.samplingConfidence.ratio)} of the counters' bytes over ${plan.samplingConfidence.intervals} intervals`
                : "Not measured (needs both flows and interface counters)"
            }
          />
        </SimpleGrid>
        <UtilisationChart samples={detail.samples} timezone={tz} thresholds={data.thresholds} />
        <details data-testid="planner-detail-daily">
          <summary style={{ cursor: "pointer" }}>
            <Text component="span" size="sm">
              Daily peak-hour utilisation ({plan.in.daily.length} days, {tz})
            </Text>
          </summary>
          <div style={{ overflowX: "auto" }} tabIndex={0} role="region" aria-label="Daily peak-hour utilisation">
            <Table fz="xs" withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Day</Table.Th>
                  <Table.Th>{inName}</Table.Th>
                  <Table.Th>{inName} peak hour from</Table.Th>
                  <Table.Th>{outName}</Table.Th>
                  <Table.Th>{outName} peak hour from</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {plan.in.daily.map((d, i) => {
                  const o = plan.out.daily[i];
                  return (
                    <Table.Tr key={d.day}>
                      <Table.Td>{dayText(d.day)}</Table.Td>
                      <Table.Td>{d.bps === null ? "–" : rate({ bps: d.bps, utilisation: d.utilisation })}</Table.Td>
                      <Table.Td>{d.windowStart === null ? "–" : formatUnix(d.windowStart, tz, DATE_FORMATS.time)}</Table.Td>
                      <Table.Td>{o?.bps == null ? "–" : rate({ bps: o.bps, utilisation: o.utilisation })}</Table.Td>
                      <Table.Td>{o?.windowStart == null ? "–" : formatUnix(o.windowStart, tz, DATE_FORMATS.time)}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </div>
        </details>
        {detail.trafficIn && detail.trafficOut ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TrafficByAs title="Incoming traffic by source AS (flows)" rows={detail.trafficIn} />
            <TrafficByAs title="Outgoing traffic by destination AS (flows)" rows={detail.trafficOut} />
          </SimpleGrid>
        ) : null}
      </Stack>
    </Paper>
  );
}
