import { Alert, Anchor, Badge, Button, Group, NativeSelect, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { ScrollBox } from "~/components/EditForms";
import { Form, Link, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import type { AnomalySection, RootCauseScreen } from "../rootcause/screen.server";

/** How often the page asks again while the week's anomalies are computed (with JavaScript; without it, the reload link). */
const ANOMALY_POLL_MS = 5_000;

/** The week's anomalies, each a link to its analysis: the operator's starting point on the empty form. */
function AnomalyList({ section }: { section: AnomalySection }) {
  const revalidator = useRevalidator();
  const computing = section.state === "computing";
  useEffect(() => {
    if (!computing) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, ANOMALY_POLL_MS);
    return () => clearInterval(timer);
  }, [computing, revalidator]);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="week-anomalies" data-testid="week-anomalies">
      <Title order={2} size="h3" id="week-anomalies">
        This week&apos;s anomalies
      </Title>
      {section.state === "unavailable" && <Text>{section.message}</Text>}
      {section.state === "computing" && (
        <Text role="status">
          The anomalies of the last 7 days are being computed in the background.{" "}
          <Anchor component={Link} to={section.reloadHref} reloadDocument>
            Reload
          </Anchor>
        </Text>
      )}
      {section.state === "ready" && (
        <>
          <Text size="sm">The largest deviations from the seasonal baseline, {section.range}, newest first; each opens its analysis.</Text>
          {section.notes.map((n) => (
            <Text key={n} c="dimmed" data-testid="week-anomalies-note">
              {n}
            </Text>
          ))}
          {section.rows.length === 0 ? (
            <Text>No anomalies found in the last 7 days.</Text>
          ) : (
            <ScrollBox label="This week's anomalies">
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Object</Table.Th>
                    <Table.Th>Start</Table.Th>
                    <Table.Th>Duration</Table.Th>
                    <Table.Th>Peak deviation</Table.Th>
                    <Table.Th>Classification</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {section.rows.map((r) => (
                    <Table.Tr key={r.key}>
                      <Table.Td>
                        <Anchor component={Link} to={r.href}>
                          {r.object}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{r.start}</Table.Td>
                      <Table.Td>{r.duration}</Table.Td>
                      <Table.Td>{r.deviation}</Table.Td>
                      <Table.Td>{r.classification}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollBox>
          )}
        </>
      )}
    </Paper>
  );
}

const WIDTH = 720;
const HEIGHT = 200;

/** The period's traffic against the seasonal baseline and its band, as SVG drawn on the server. */
function BaselineChart({ chart }: { chart: NonNullable<NonNullable<RootCauseScreen["view"]>["chart"]> }) {
  const n = chart.points.length;
  const x = (i: number) => (n <= 1 ? 0 : (i / (n - 1)) * WIDTH);
  const y = (v: number) => HEIGHT - (v / chart.max) * HEIGHT;
  const line = (pick: (p: (typeof chart.points)[number]) => number | null) =>
    chart.points
      .map((p, i) => [i, pick(p)] as const)
      .filter(([, v]) => v !== null)
      .map(([i, v], k) => `${k ? "L" : "M"}${x(i).toFixed(1)},${y(v as number).toFixed(1)}`)
      .join(" ");
  const known = chart.points.map((p, i) => [i, p] as const).filter(([, p]) => p.low !== null && p.high !== null);
  const band = [
    ...known.map(([i, p]) => `${x(i).toFixed(1)},${y(p.high as number).toFixed(1)}`),
    ...[...known].reverse().map(([i, p]) => `${x(i).toFixed(1)},${y(p.low as number).toFixed(1)}`),
  ].join(" ");
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-label="Traffic of the period against the baseline and its band">
      {band && <polygon points={band} fill="rgba(34, 139, 230, 0.18)" />}
      <path d={line((p) => p.baseline)} fill="none" stroke="#1c7ed6" strokeDasharray="6 4" strokeWidth={2} />
      <path d={line((p) => p.actual)} fill="none" stroke="#e8590c" strokeWidth={2} />
    </svg>
  );
}

export function RootCauseView({ data, explorerHref }: { data: RootCauseScreen; explorerHref: string }) {
  const v = data.view;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1}>Root-cause analysis</Title>
        <Anchor component={Link} to={explorerHref}>
          Back to the Flow Explorer
        </Anchor>
      </Group>
      <Paper withBorder p="md">
        <Form method="get">
          <Group align="flex-end" wrap="wrap">
            <NativeSelect
              label="Dimension"
              name="dimension"
              defaultValue={data.params.dimension}
              data={data.dimensions.map((d) => ({ value: d.id, label: d.label }))}
            />
            <TextInput
              label="Value"
              name="value"
              defaultValue={data.params.value}
              placeholder="AS2906, a router, router|interface"
              required
            />
            <TextInput label="Start (ISO)" name="start" defaultValue={data.params.start} placeholder="2026-11-20T18:00:00Z" required />
            <TextInput label="Duration" name="duration" defaultValue={data.params.duration} placeholder="10h20m" required />
            <Button type="submit">Analyse</Button>
          </Group>
        </Form>
      </Paper>
      {data.errors.length > 0 && (
        <Alert color="red" title="Not analysed" role="alert">
          {data.errors.map((e) => (
            <Text key={e}>{e}</Text>
          ))}
        </Alert>
      )}
      {data.anomalies && <AnomalyList section={data.anomalies} />}
      {v && data.result && (
        <>
          <Paper withBorder p="md">
            <Stack gap="xs">
              <Text fw={600}>{v.objectLabel}</Text>
              <Text>{v.period}</Text>
              <Group>
                <Text>Classification:</Text>
                <Badge size="lg" data-testid="classification">
                  {data.result.classification}
                </Badge>
              </Group>
              <Text>{data.result.reason}</Text>
              {data.result.notes.map((n) => (
                <Text key={n} c="dimmed">
                  {n}
                </Text>
              ))}
            </Stack>
          </Paper>
          <Paper withBorder p="md">
            <Title order={2} size="h3">
              Baseline
            </Title>
            <Text>
              Baseline {v.totals.baseline} · period {v.totals.anomaly} · change {v.totals.change} ({v.totals.changeShare})
            </Text>
            {v.chart ? (
              <>
                <BaselineChart chart={v.chart} />
                <Text size="sm" c="dimmed">
                  Solid: the period. Dashed: the seasonal baseline (median of the same hours of the previous weeks with their trend).
                  Shaded: the band from the lowest to the highest of those weeks.
                </Text>
              </>
            ) : (
              <Text>No seasonal baseline: less than a week of history before the period.</Text>
            )}
          </Paper>
          {v.levels.map((level) => (
            <Paper withBorder p="md" key={level.id}>
              <Title order={2} size="h3">
                {level.title}
              </Title>
              <Text size="sm">Share of the traffic that changed hands: {level.moved}</Text>
              <ScrollBox label={level.title}>
                <Table striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Value</Table.Th>
                      <Table.Th>Baseline</Table.Th>
                      <Table.Th>Period</Table.Th>
                      <Table.Th>Change</Table.Th>
                      <Table.Th>Share before</Table.Th>
                      <Table.Th>Share in the period</Table.Th>
                      <Table.Th>Explains</Table.Th>
                      <Table.Th>Conclusion</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {level.rows.map((r) => (
                      <Table.Tr key={r.name}>
                        <Table.Td>{r.name}</Table.Td>
                        <Table.Td>{r.baseline}</Table.Td>
                        <Table.Td>{r.anomaly}</Table.Td>
                        <Table.Td>{r.change}</Table.Td>
                        <Table.Td>{r.baselineShare}</Table.Td>
                        <Table.Td>{r.anomalyShare}</Table.Td>
                        <Table.Td>{r.explains}</Table.Td>
                        <Table.Td>{r.conclusion}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollBox>
            </Paper>
          ))}
          {v.path && (
            <Paper withBorder p="md">
              <Title order={2} size="h3">
                Direct and indirect
              </Title>
              <ScrollBox label={"Direct and indirect traffic"}>
                <Table>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Path</Table.Th>
                      <Table.Th>Baseline</Table.Th>
                      <Table.Th>Period</Table.Th>
                      <Table.Th>Change</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    <Table.Tr>
                      <Table.Td>Direct (handed over by the AS itself)</Table.Td>
                      <Table.Td>{v.path.direct.baseline}</Table.Td>
                      <Table.Td>{v.path.direct.anomaly}</Table.Td>
                      <Table.Td>{v.path.direct.change}</Table.Td>
                    </Table.Tr>
                    <Table.Tr>
                      <Table.Td>Indirect (other neighbours)</Table.Td>
                      <Table.Td>{v.path.indirect.baseline}</Table.Td>
                      <Table.Td>{v.path.indirect.anomaly}</Table.Td>
                      <Table.Td>{v.path.indirect.change}</Table.Td>
                    </Table.Tr>
                  </Table.Tbody>
                </Table>
              </ScrollBox>
              <Text size="sm">Busiest direct interface, utilisation over the period: {v.path.utilisation}</Text>
            </Paper>
          )}
          <Paper withBorder p="md">
            <Title order={2} size="h3">
              Routing evidence
            </Title>
            <Text size="sm">
              Window {v.routing.window}; prefixes originated by {v.routing.origins} and the longest matches of the top source addresses{" "}
              {v.routing.topAddresses}; vantage points {v.routing.vantagePoints}. Routing changes of these prefixes: {v.routing.conclusion}
            </Text>
            {v.routing.changes.length > 0 && (
              <ScrollBox label={"Routing changes"}>
                <Table striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Time</Table.Th>
                      <Table.Th>Vantage point</Table.Th>
                      <Table.Th>Peer</Table.Th>
                      <Table.Th>Prefix</Table.Th>
                      <Table.Th>Change</Table.Th>
                      <Table.Th>AS path</Table.Th>
                      <Table.Th>Previous AS path</Table.Th>
                      <Table.Th>Listed because</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {v.routing.changes.map((c, i) => (
                      <Table.Tr key={`${c.time}-${c.vantagePoint}-${c.prefix}-${i}`}>
                        <Table.Td>{c.time}</Table.Td>
                        <Table.Td>{c.vantagePoint}</Table.Td>
                        <Table.Td>{c.peer}</Table.Td>
                        <Table.Td>
                          <Anchor component={Link} to={c.href}>
                            {c.prefix}
                          </Anchor>
                        </Table.Td>
                        <Table.Td>{c.kind}</Table.Td>
                        <Table.Td>{c.asPath}</Table.Td>
                        <Table.Td>{c.previous}</Table.Td>
                        <Table.Td>{c.listedFor}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollBox>
            )}
          </Paper>
        </>
      )}
    </Stack>
  );
}
