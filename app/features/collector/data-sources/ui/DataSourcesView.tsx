import { Alert, Anchor, Button, Code, List, Stack, Table, Text, Title } from "@mantine/core";
import { Form, Link } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { ScrollBox } from "~/components/EditForms";
import type { DataSourcesScreen } from "../data-sources-screen.server";

const NUMBER = { style: { textAlign: "right", whiteSpace: "nowrap" } } as const;
const NOWRAP = { style: { whiteSpace: "nowrap" } } as const;

function Reasons({ items }: { items: { reason: string; label: string; count: string }[] }) {
  if (!items.length) return <>0</>;
  return (
    <List size="sm" listStyleType="none" spacing={0}>
      {items.map((i) => (
        <List.Item key={i.reason}>{`${i.label}: ${i.count}`}</List.Item>
      ))}
    </List>
  );
}

function Listeners({ data }: { data: DataSourcesScreen }) {
  return (
    <Stack gap="sm" data-tour="sources-listeners">
      <Title order={2} size="h3">
        Listeners
      </Title>
      {!data.anyRunning ? (
        <Alert color="yellow" title="No collector listener is running" data-testid="no-listener">
          <Text size="sm">
            Flows arrive only while a listener runs. Set{" "}
            {data.listenVariables.map((v, i) => (
              <span key={v.variable}>
                {i ? " or " : ""}
                <Code>{v.variable}</Code> ({v.label})
              </span>
            ))}{" "}
            to the address to listen on, e.g. <Code>FLOWS_NETFLOW_LISTEN=:2055</Code>, and restart the app (on server stores:{" "}
            <Code>npm run worker</Code>). See docs/operations.md, section 4a.
          </Text>
        </Alert>
      ) : null}
      {data.listeners.length ? (
        <ScrollBox label="Listeners">
          <Table striped miw={640} data-testid="listeners-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Flows</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>Host</Table.Th>
                <Table.Th>Since ({data.timezone})</Table.Th>
                <Table.Th>State</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.listeners.map((l) => (
                <Table.Tr key={l.key}>
                  <Table.Td>{l.component}</Table.Td>
                  <Table.Td {...NOWRAP}>{l.address}</Table.Td>
                  <Table.Td>{l.host}</Table.Td>
                  <Table.Td {...NOWRAP}>{l.since}</Table.Td>
                  <Table.Td>
                    {l.running ? (
                      <Text size="sm" fw={600}>
                        Running
                      </Text>
                    ) : (
                      <Text size="sm">
                        <Text span size="sm" c="red.9" fw={600}>
                          Not running
                        </Text>
                        , last heard {l.heartbeat}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      ) : null}
    </Stack>
  );
}

/** The UDP sources an exporter was heard from when they are not its address (an sFlow agent behind NAT or a relay). */
function UdpSources({ sources }: { sources: string[] }) {
  if (!sources.length) return <>Same as address</>;
  return (
    <Stack gap={0}>
      {sources.map((source) => (
        <span key={source}>{source}</span>
      ))}
    </Stack>
  );
}

function KnownExporters({ data }: { data: DataSourcesScreen }) {
  return (
    <Stack gap="sm" data-tour="sources-known">
      <Title order={2} size="h3">
        Exporters in the inventory
      </Title>
      {data.known.length ? (
        <ScrollBox label="Exporters in the inventory">
          <Table striped miw={1400} data-testid="exporters-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Router</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>UDP source</Table.Th>
                <Table.Th>Protocol</Table.Th>
                <Table.Th>Last packet ({data.timezone})</Table.Th>
                <Table.Th>Notes</Table.Th>
                <Table.Th {...NUMBER}>Datagrams</Table.Th>
                <Table.Th {...NUMBER}>Flows</Table.Th>
                <Table.Th {...NUMBER}>Stored</Table.Th>
                <Table.Th>Decode errors</Table.Th>
                <Table.Th {...NUMBER}>Template misses</Table.Th>
                <Table.Th>Dropped</Table.Th>
                <Table.Th>Sampling rates</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.known.map((e) => (
                <Table.Tr key={e.key}>
                  <Table.Td {...NOWRAP}>
                    <Anchor component={Link} to={e.routerLink}>
                      {e.router}
                    </Anchor>
                  </Table.Td>
                  <Table.Td {...NOWRAP}>
                    {e.address}
                    {e.subAgent !== null ? <Text size="xs">sub-agent {e.subAgent}</Text> : null}
                  </Table.Td>
                  <Table.Td {...NOWRAP}>
                    <UdpSources sources={e.udpSources} />
                  </Table.Td>
                  <Table.Td {...NOWRAP}>{e.protocol || "–"}</Table.Td>
                  <Table.Td {...NOWRAP}>{e.lastPacket ?? "No packet yet"}</Table.Td>
                  <Table.Td>
                    <Stack gap={4}>
                      {e.silent ? (
                        <Text size="sm" c="red.9" fw={600}>
                          {e.silent}
                        </Text>
                      ) : null}
                      {e.clockSkew ? <Text size="sm">{e.clockSkew}</Text> : null}
                    </Stack>
                  </Table.Td>
                  <Table.Td {...NUMBER}>{e.datagrams}</Table.Td>
                  <Table.Td {...NUMBER}>{e.flows}</Table.Td>
                  <Table.Td {...NUMBER}>{e.stored}</Table.Td>
                  <Table.Td>
                    <Reasons items={e.decodeErrors} />
                  </Table.Td>
                  <Table.Td {...NUMBER}>{e.templateMisses}</Table.Td>
                  <Table.Td>
                    <Reasons items={e.drops} />
                  </Table.Td>
                  <Table.Td>{e.samplingRates.join(", ") || "–"}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      ) : (
        <Text size="sm">
          No router in the inventory has an exporter address yet. Add them in{" "}
          <Anchor component={Link} to="/site-settings/inventory">
            the network inventory
          </Anchor>
          , or adopt an exporter below.
        </Text>
      )}
    </Stack>
  );
}

function UnknownExporters({ data }: { data: DataSourcesScreen }) {
  return (
    <Stack gap="sm" data-tour="sources-unknown">
      <Title order={2} size="h3">
        Not in inventory yet
      </Title>
      {data.unknown.length ? (
        <>
          <Text size="sm">
            These addresses send flows but are no router&apos;s exporter address: their flows have no router name. An sFlow exporter is
            listed by the agent address its datagrams name, with the UDP source they came from when that differs (NAT, a relay); a router
            whose exporter addresses hold either is its router. &quot;Adopt&quot; opens the inventory&apos;s form for a new router, filled
            in from the exporter; check it and save.
          </Text>
          <ScrollBox label="Exporters not in the inventory">
            <Table striped miw={860} data-testid="unknown-exporters-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Address</Table.Th>
                  <Table.Th>UDP source</Table.Th>
                  <Table.Th>Protocol</Table.Th>
                  <Table.Th {...NUMBER}>Datagrams</Table.Th>
                  <Table.Th>First seen ({data.timezone})</Table.Th>
                  <Table.Th>Last seen ({data.timezone})</Table.Th>
                  <Table.Th>ifIndexes seen</Table.Th>
                  <Table.Th>Action</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.unknown.map((u) => (
                  <Table.Tr key={u.address}>
                    <Table.Td {...NOWRAP}>{u.address}</Table.Td>
                    <Table.Td {...NOWRAP}>
                      <UdpSources sources={u.udpSources} />
                    </Table.Td>
                    <Table.Td>{u.protocols}</Table.Td>
                    <Table.Td {...NUMBER}>{u.packets}</Table.Td>
                    <Table.Td {...NOWRAP}>{u.firstSeen}</Table.Td>
                    <Table.Td {...NOWRAP}>{u.lastSeen}</Table.Td>
                    <Table.Td>{u.ifIndexes || "none"}</Table.Td>
                    <Table.Td>
                      <Button component={Link} to={u.adoptLink} size="xs" variant="light" aria-label={`Adopt ${u.address}`}>
                        Adopt
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollBox>
        </>
      ) : (
        <Text size="sm" data-testid="no-unknown-exporters">
          Every exporter that sent flows is in the inventory.
        </Text>
      )}
    </Stack>
  );
}

function SnmpPolls({ data }: { data: DataSourcesScreen }) {
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        SNMP polls
      </Title>
      {data.snmp.length ? (
        <>
          <Text size="sm">
            Interface counters read from the routers with SNMP settings while the SNMP poller runs (<Code>SNMP_POLL=on</Code>). Staff are
            told when two polls of a router in a row fail, and when it answers again. A capacity the device reports that differs from the
            inventory&apos;s is listed here; it changes the inventory (and the planners&apos; utilisation) only when staff apply it.
          </Text>
          <ScrollBox label="SNMP polls">
            <Table striped miw={1100} data-testid="snmp-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Router</Table.Th>
                  <Table.Th>Polled at</Table.Th>
                  <Table.Th>Last poll ({data.timezone})</Table.Th>
                  <Table.Th>Last success ({data.timezone})</Table.Th>
                  <Table.Th>Last error</Table.Th>
                  <Table.Th {...NUMBER}>Interfaces polled</Table.Th>
                  <Table.Th>Not found on the device</Table.Th>
                  <Table.Th>Capacity differs</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.snmp.map((r) => (
                  <Table.Tr key={r.router}>
                    <Table.Td {...NOWRAP}>
                      <Anchor component={Link} to={r.routerLink}>
                        {r.router}
                      </Anchor>
                    </Table.Td>
                    <Table.Td {...NOWRAP}>{`${r.target} (${r.version})`}</Table.Td>
                    <Table.Td {...NOWRAP}>{r.lastPoll ?? "Not polled yet"}</Table.Td>
                    <Table.Td {...NOWRAP}>{r.lastSuccess ?? "Never"}</Table.Td>
                    <Table.Td>
                      {r.lastError ? (
                        <Text size="sm">
                          {r.failing ? (
                            <Text span size="sm" c="red.9" fw={600}>
                              {`Failing (${r.failures} ${r.failures === 1 ? "poll" : "polls"}): `}
                            </Text>
                          ) : null}
                          {`${r.lastError.kind} at ${r.lastError.at}: ${r.lastError.text}`}
                        </Text>
                      ) : (
                        "None"
                      )}
                    </Table.Td>
                    <Table.Td {...NUMBER}>{r.interfacesPolled}</Table.Td>
                    <Table.Td>{r.missing.join(", ") || "–"}</Table.Td>
                    <Table.Td>
                      {r.capacityChanges.length ? (
                        <List size="sm" listStyleType="none" spacing={0}>
                          {r.capacityChanges.map((c) => (
                            <List.Item key={c.text}>
                              <Form method="post" style={{ display: "inline" }}>
                                <CsrfField />
                                <input type="hidden" name="intent" value="confirm-capacity" />
                                <input type="hidden" name="router" value={r.router} />
                                <input type="hidden" name="interface" value={c.interface} />
                                <input type="hidden" name="deviceBps" value={c.deviceBps} />
                                {c.text}{" "}
                                <Button type="submit" size="compact-xs" variant="default" aria-label={`Apply to the inventory: ${c.text}`}>
                                  Apply to the inventory
                                </Button>
                              </Form>
                            </List.Item>
                          ))}
                        </List>
                      ) : (
                        "–"
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollBox>
        </>
      ) : (
        <Text size="sm" data-testid="no-snmp-routers">
          No router in the inventory has SNMP settings. Add them in{" "}
          <Anchor component={Link} to="/site-settings/inventory">
            the network inventory
          </Anchor>{" "}
          to measure interface utilisation, and start the SNMP poller with <Code>SNMP_POLL=on</Code>.
        </Text>
      )}
    </Stack>
  );
}

function Figures({ items, none = "0" }: { items: { label: string; count: string }[]; none?: string }) {
  if (!items.length) return <>{none}</>;
  return (
    <List size="sm" listStyleType="none" spacing={0}>
      {items.map((i) => (
        <List.Item key={i.label}>{`${i.label}: ${i.count}`}</List.Item>
      ))}
    </List>
  );
}

function BmpStation({ data }: { data: DataSourcesScreen }) {
  const { bmp } = data;
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        BMP
      </Title>
      <Text size="sm">
        Routing tables the routers of the inventory stream over BMP (RFC 7854) to the BMP station, written to the routing tables as they
        change: the Looking Glass, the Control Plane and the flows&apos; enrichment use them at once. A router&apos;s routes stay while its
        session is down and are replaced by its next session; they are withdrawn when it does not come back within{" "}
        <Code>BMP_KEEP_AFTER_CLOSE</Code> minutes.
      </Text>
      {bmp.stations.length ? (
        <List size="sm" listStyleType="none" spacing={0} data-testid="bmp-stations">
          {bmp.stations.map((s) => (
            <List.Item key={s.key}>
              {s.running ? (
                `Station listening on ${s.address} (TCP) at ${s.host} since ${s.since} (${data.timezone}).`
              ) : (
                <>
                  <Text span size="sm" c="red.9" fw={600}>
                    Station not running
                  </Text>
                  {` (${s.address} at ${s.host}), last heard ${s.heartbeat} (${data.timezone}).`}
                </>
              )}
            </List.Item>
          ))}
        </List>
      ) : null}
      {!bmp.running ? (
        <Alert color="yellow" title="The BMP station is not running" data-testid="no-bmp-station">
          <Text size="sm">
            Set <Code>BMP_LISTEN</Code> to the address to listen on, e.g. <Code>BMP_LISTEN=:1790</Code>, point the routers&apos; BMP at it,
            and restart the app (on server stores: <Code>npm run worker</Code>). See docs/operations.md, section 4a.
          </Text>
        </Alert>
      ) : null}
      {bmp.routers.length ? (
        <ScrollBox label="BMP sessions">
          <Table striped miw={1300} data-testid="bmp-routers-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Router</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>Session ({data.timezone})</Table.Th>
                <Table.Th>System</Table.Th>
                <Table.Th>Peers</Table.Th>
                <Table.Th>Routes</Table.Th>
                <Table.Th>Messages</Table.Th>
                <Table.Th {...NUMBER}>Decode errors</Table.Th>
                <Table.Th>Not stored</Table.Th>
                <Table.Th>Last error ({data.timezone})</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {bmp.routers.map((r) => (
                <Table.Tr key={r.router}>
                  <Table.Td {...NOWRAP}>
                    <Anchor component={Link} to={r.routerLink}>
                      {r.router}
                    </Anchor>
                    <Text size="xs">{`Vantage point ${r.vantagePoint}`}</Text>
                  </Table.Td>
                  <Table.Td {...NOWRAP}>{r.address}</Table.Td>
                  <Table.Td>
                    {r.up ? (
                      <Text size="sm" fw={600}>
                        {r.session}
                      </Text>
                    ) : (
                      <Text size="sm" c="red.9">
                        {r.session}
                      </Text>
                    )}
                    <Text size="xs">{`${r.sessions} ${r.sessions === "1" ? "session" : "sessions"} so far`}</Text>
                  </Table.Td>
                  <Table.Td>{r.system || "–"}</Table.Td>
                  <Table.Td {...NOWRAP}>{r.peers}</Table.Td>
                  <Table.Td>
                    <Figures items={r.routes} none={r.routesCountedAt ? "None" : "Not counted yet"} />
                    {r.routesCountedAt ? <Text size="xs">{`Counted ${r.routesCountedAt}`}</Text> : null}
                  </Table.Td>
                  <Table.Td>
                    <Figures items={r.messages} />
                  </Table.Td>
                  <Table.Td {...NUMBER}>{r.decodeErrors}</Table.Td>
                  <Table.Td>
                    <Figures items={r.skipped} none="–" />
                  </Table.Td>
                  <Table.Td>{r.lastError ?? "None"}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      ) : (
        <Text size="sm" data-testid="no-bmp-routers">
          No router has streamed BMP yet.
        </Text>
      )}
      {bmp.peers.length ? (
        <>
          <Title order={3} size="h4">
            BMP peers
          </Title>
          <ScrollBox label="BMP peers">
            <Table striped miw={1200} data-testid="bmp-peers-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Router</Table.Th>
                  <Table.Th>Peer</Table.Th>
                  <Table.Th>AS</Table.Th>
                  <Table.Th>Instance</Table.Th>
                  <Table.Th>Tables</Table.Th>
                  <Table.Th>State ({data.timezone})</Table.Th>
                  <Table.Th>Routes</Table.Th>
                  <Table.Th>Last statistics ({data.timezone})</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {bmp.peers.map((p) => (
                  <Table.Tr key={p.key}>
                    <Table.Td {...NOWRAP}>{p.router}</Table.Td>
                    <Table.Td {...NOWRAP}>{p.address}</Table.Td>
                    <Table.Td {...NOWRAP}>{p.asn}</Table.Td>
                    <Table.Td>{p.kind}</Table.Td>
                    <Table.Td>{p.views}</Table.Td>
                    <Table.Td>
                      {p.down ? (
                        <Text size="sm" c="red.9">
                          {p.state}
                        </Text>
                      ) : (
                        p.state
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Figures items={p.routes} none="None" />
                    </Table.Td>
                    <Table.Td>
                      {p.statisticsAt ? (
                        <List size="sm" listStyleType="none" spacing={0}>
                          <List.Item>{p.statisticsAt}</List.Item>
                          {p.statistics.map((line) => (
                            <List.Item key={line}>{line}</List.Item>
                          ))}
                        </List>
                      ) : (
                        "None yet"
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollBox>
        </>
      ) : null}
      <Title order={3} size="h4">
        BMP sources not in inventory yet
      </Title>
      {bmp.unknown.length ? (
        <>
          <Text size="sm">
            These addresses opened BMP sessions but are no router&apos;s loopback or exporter address: their sessions were closed at once.
            &quot;Adopt&quot; opens the inventory&apos;s form for a new router, filled in from the address; check it and save, and the
            router&apos;s next session is taken.
          </Text>
          <ScrollBox label="BMP sources not in the inventory">
            <Table striped miw={760} data-testid="bmp-unknown-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Address</Table.Th>
                  <Table.Th {...NUMBER}>Sessions refused</Table.Th>
                  <Table.Th>First seen ({data.timezone})</Table.Th>
                  <Table.Th>Last seen ({data.timezone})</Table.Th>
                  <Table.Th>Action</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {bmp.unknown.map((u) => (
                  <Table.Tr key={u.address}>
                    <Table.Td {...NOWRAP}>{u.address}</Table.Td>
                    <Table.Td {...NUMBER}>{u.attempts}</Table.Td>
                    <Table.Td {...NOWRAP}>{u.firstSeen}</Table.Td>
                    <Table.Td {...NOWRAP}>{u.lastSeen}</Table.Td>
                    <Table.Td>
                      <Button component={Link} to={u.adoptLink} size="xs" variant="light" aria-label={`Adopt ${u.address}`}>
                        Adopt
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollBox>
        </>
      ) : (
        <Text size="sm" data-testid="no-bmp-unknown">
          Every address that opened a BMP session is in the inventory.
        </Text>
      )}
    </Stack>
  );
}

function FlowUtilisation({ data }: { data: DataSourcesScreen }) {
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        Utilisation from flows
      </Title>
      <Text size="sm" data-testid="flow-util">
        {!data.flowUtil.on ? (
          <>
            Off (<Code>FLOWS_UTIL=off</Code>): interfaces without SNMP have no utilisation figures from the flows.
          </>
        ) : data.flowUtil.through ? (
          `The bytes in and out of each interface, from the flows its router exported, are written up to ${data.flowUtil.through} (${data.timezone}). Where SNMP measures an interface, its figures are used.`
        ) : (
          "Not written yet: every 5 minutes the flows each router exported are rolled up into the bytes in and out of its interfaces."
        )}
      </Text>
    </Stack>
  );
}

/** The Data sources screen: listeners, the inventory's exporters with their figures, the exporters to adopt, BMP sessions, and the SNMP polls. */
export function DataSourcesView({ data }: { data: DataSourcesScreen }) {
  return (
    <Stack maw={1280} gap="lg">
      <Stack gap="xs">
        <Title order={1} size="h2">
          Data sources
        </Title>
        <Text size="sm">
          The flow collector&apos;s listeners, what each exporter sent since it was first heard, the routers&apos; BMP sessions, and the
          SNMP polls of the routers. An exporter that sent nothing for {data.silentAfterMinutes} minutes (<Code>FLOWS_SILENT_AFTER</Code>)
          is marked silent.{" "}
          <Anchor component={Link} to="/site-settings">
            Back to the site settings
          </Anchor>
        </Text>
      </Stack>
      {data.capacityNotice ? (
        <Alert color="blue" role="status" data-testid="capacity-notice">
          {data.capacityNotice}
        </Alert>
      ) : null}
      <Listeners data={data} />
      <KnownExporters data={data} />
      <UnknownExporters data={data} />
      <BmpStation data={data} />
      <SnmpPolls data={data} />
      <FlowUtilisation data={data} />
    </Stack>
  );
}
