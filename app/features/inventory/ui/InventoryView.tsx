import { WARNING_TEXT } from "~/lib/colors";
import { Alert, Anchor, Group, Stack, Table, Text, Title } from "@mantine/core";
import { Link } from "@remix-run/react";
import { gbps, interfaceValues, ROLE_LABELS, routerValues } from "../inventory-form";
import type { InventoryActionResult, InventoryIntent, InventoryScreen } from "../inventory-screen.server";
import { DeleteForm, ScrollBox } from "~/components/EditForms";
import { type FormState } from "./fields";
import { InterfaceForm } from "./InterfaceForm";
import { RouterForm } from "./RouterForm";
import { OperatorAsForm } from "./OperatorAsForm";
import { VantagePointForm } from "./VantagePointForm";

const PATH = "/site-settings/inventory";
const to = (params: Record<string, string>) => `${PATH}?${new URLSearchParams(params)}`;

/** The values a form shows: as typed when this form's post was refused, else `stored`. */
function formState(result: InventoryActionResult | undefined, intent: InventoryIntent, stored: Record<string, string>): FormState {
  return result?.intent === intent ? { values: result.values, errors: result.errors } : { values: stored, errors: {} };
}

function RouterPage({ data, result }: { data: InventoryScreen; result: InventoryActionResult | undefined }) {
  const router = data.router!;
  const here = to({ router: router.name });
  const edited = data.editedInterface;
  const { vantagePoints, remoteEnds } = data.dependents!;
  return (
    <Stack>
      <Anchor component={Link} to={PATH}>
        Back to the inventory
      </Anchor>
      {data.routerNoExporterWarning ? (
        <Alert color="yellow" title="Flows of this router are not attributed" data-testid="no-exporter-warning">
          {data.routerNoExporterWarning}
        </Alert>
      ) : null}
      <RouterForm
        stored={router}
        state={formState(result, "update-router", routerValues(router))}
        action={here}
        secretsEnabled={data.secretsEnabled}
      />
      <Group gap="sm" align="center">
        <DeleteForm intent="delete-router" fields={{ current: router.name }} label={`Delete router ${router.name}`} />
        <Text size="sm" c="dimmed" data-testid="router-dependents">
          {`Deleting it also deletes its ${router.exporters.length} exporter address(es), ${router.interfaces.length} interface(s) and ${router.vrfs.length} VRF(s)`}
          {remoteEnds.length ? `, and clears the remote end of ${remoteEnds.map((r) => `${r.router} ${r.interface}`).join(", ")}` : ""}.
          {vantagePoints.length ? ` Vantage points on it: ${vantagePoints.join(", ")} (it cannot be deleted while they are).` : ""}
        </Text>
      </Group>
      <Title order={2} size="h3">
        Interfaces of {router.name}
      </Title>
      {router.interfaces.length ? (
        <ScrollBox label={`Interfaces of ${router.name}`}>
          <Table striped miw={900} data-testid="interfaces-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>SNMP ifIndex</Table.Th>
                <Table.Th>Description</Table.Th>
                <Table.Th>Capacity</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Peering type</Table.Th>
                <Table.Th>Neighbour AS</Table.Th>
                <Table.Th>Remote end</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {router.interfaces.map((i) => (
                <Table.Tr key={i.name}>
                  <Table.Td>{i.name}</Table.Td>
                  <Table.Td>{i.ifindex}</Table.Td>
                  <Table.Td>{i.description}</Table.Td>
                  <Table.Td>{gbps(i.capacity)} Gbit/s</Table.Td>
                  <Table.Td>{i.kind}</Table.Td>
                  <Table.Td>{i.peering ? `${i.peering}${i.connection ? ` (${i.connection})` : ""}` : ""}</Table.Td>
                  <Table.Td>{i.neighbour_as ?? ""}</Table.Td>
                  <Table.Td>{i.remote ? `${i.remote.router} ${i.remote.interface}` : ""}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Anchor component={Link} to={to({ router: router.name, interface: i.name })} aria-label={`Edit interface ${i.name}`}>
                        Edit
                      </Anchor>
                      <DeleteForm
                        intent="delete-interface"
                        fields={{ router_name: router.name, current: i.name }}
                        label={`Delete ${i.name}`}
                      />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      ) : (
        <Text size="sm">No interfaces yet.</Text>
      )}
      {data.unnamedIfIndexes.length ? (
        <Alert color="blue" title="ifIndexes to name" data-testid="unnamed-ifindexes">
          <Text size="sm">
            The collector saw these ifIndexes in flows from {router.name}&apos;s exporter addresses, and no interface has them yet. Add each
            as an interface so its flows show the interface&apos;s name:{" "}
            {data.unnamedIfIndexes.map((n, i) => (
              <span key={n}>
                {i ? ", " : ""}
                <Anchor
                  component={Link}
                  to={to({ router: router.name, ifindex: String(n) })}
                  aria-label={`Add an interface with ifIndex ${n}`}
                >
                  {n}
                </Anchor>
              </span>
            ))}
            .
          </Text>
        </Alert>
      ) : null}
      {edited ? (
        <InterfaceForm
          routerName={router.name}
          current={edited.name}
          state={formState(result, "update-interface", interfaceValues(edited))}
          action={to({ router: router.name, interface: edited.name })}
        />
      ) : (
        <InterfaceForm
          routerName={router.name}
          current={null}
          state={formState(result, "create-interface", {
            kind: "external",
            ...(data.newInterfaceIfIndex ? { ifindex: data.newInterfaceIfIndex } : {}),
          })}
          action={here}
        />
      )}
    </Stack>
  );
}

function OverviewPage({ data, result }: { data: InventoryScreen; result: InventoryActionResult | undefined }) {
  const point = data.editedVantagePoint;
  const adopt = data.adopt;
  return (
    <Stack>
      {adopt ? (
        <>
          <Alert color="blue" title={`Adopting ${adopt.address}`} data-testid="adopt-notice">
            <Text size="sm">
              The form below is filled in from the address that sent flows or opened a BMP session: the name, the loopback and the exporter
              address from it, city and country &quot;Unknown&quot;. Correct what you know, then add the router.
              {adopt.ifIndexes.length
                ? ` Its flows carry the ifIndexes ${adopt.ifIndexes.join(", ")}: once the router exists, its page lists them to name as interfaces.`
                : ""}
            </Text>
          </Alert>
          <RouterForm
            stored={null}
            state={formState(result, "create-router", adopt.values)}
            action={to({ adopt: adopt.address })}
            secretsEnabled={data.secretsEnabled}
          />
        </>
      ) : null}
      <OperatorAsForm
        stored={data.operatorAs}
        state={formState(result, "set-operator-as", { operator_as: String(data.operatorAs?.asn ?? "") })}
      />
      <Title order={2} size="h3">
        Routers
      </Title>
      {data.noExporterWarning ? (
        <Alert color="yellow" title="Routers whose flows are not attributed" data-testid="no-exporter-warning">
          {data.noExporterWarning}
        </Alert>
      ) : null}
      {data.routers.length ? (
        <ScrollBox label="Routers">
          <Table striped miw={760} data-testid="routers-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>City</Table.Th>
                <Table.Th>Country</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Loopback</Table.Th>
                <Table.Th>Exporter addresses</Table.Th>
                <Table.Th>Interfaces</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.routers.map((r) => (
                <Table.Tr key={r.name}>
                  <Table.Td>
                    <Anchor component={Link} to={to({ router: r.name })}>
                      {r.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{r.city}</Table.Td>
                  <Table.Td>{r.country}</Table.Td>
                  <Table.Td>{ROLE_LABELS[r.role] ?? r.role}</Table.Td>
                  <Table.Td>{r.loopback}</Table.Td>
                  <Table.Td>
                    {r.exporters.length ? (
                      r.exporters.join(", ")
                    ) : (
                      <Text span size="sm" c={WARNING_TEXT} fw={500}>
                        none: flows not attributed
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{r.interfaceCount}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      ) : (
        <Text size="sm">No routers yet.</Text>
      )}
      {adopt ? null : (
        <RouterForm stored={null} state={formState(result, "create-router", {})} action={PATH} secretsEnabled={data.secretsEnabled} />
      )}
      <Title order={2} size="h3">
        Vantage points
      </Title>
      {data.vantagePoints.length ? (
        <ScrollBox label="Vantage points">
          <Table striped miw={760} data-testid="vantage-points-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Key</Table.Th>
                <Table.Th>Router</Table.Th>
                <Table.Th>City</Table.Th>
                <Table.Th>Country</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>Public</Table.Th>
                <Table.Th>Description</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.vantagePoints.map((v) => (
                <Table.Tr key={v.key}>
                  <Table.Td>{v.key}</Table.Td>
                  <Table.Td>{v.router}</Table.Td>
                  <Table.Td>{v.city}</Table.Td>
                  <Table.Td>{v.country}</Table.Td>
                  <Table.Td>{v.ip}</Table.Td>
                  <Table.Td>{v.public ? "yes" : "no"}</Table.Td>
                  <Table.Td>{v.description}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Anchor component={Link} to={to({ vantage_point: v.key })} aria-label={`Edit vantage point ${v.key}`}>
                        Edit
                      </Anchor>
                      <DeleteForm intent="delete-vantage-point" fields={{ current: v.key }} label={`Delete ${v.key}`} />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      ) : (
        <Text size="sm">No vantage points yet.</Text>
      )}
      {point ? (
        <VantagePointForm
          current={point.key}
          state={formState(result, "update-vantage-point", {
            key: point.key,
            router: point.router,
            city: point.city,
            country: point.country,
            ip: point.ip,
            public: point.public ? "on" : "",
            description: point.description,
            legacy_description: point.legacy_description,
          })}
          action={to({ vantage_point: point.key })}
        />
      ) : (
        <VantagePointForm current={null} state={formState(result, "create-vantage-point", {})} action={PATH} />
      )}
    </Stack>
  );
}

/** The inventory screen: the routers and vantage points, or one router with its interfaces. */
export function InventoryView({ data, result }: { data: InventoryScreen; result: InventoryActionResult | undefined }) {
  const refusedDelete = result?.intent.startsWith("delete-") || result?.intent === "" ? result.errors[""] : null;
  return (
    <Stack maw={1000}>
      <Title order={1} size="h2">
        Network inventory
      </Title>
      <Text size="sm">
        The routers that export flows (by their exporter addresses), their interfaces and the vantage points of the routing tables. The same
        inventory as <code>npm run inventory -- import/export</code>.{" "}
        <Anchor component={Link} to="/site-settings">
          Back to the site settings
        </Anchor>
      </Text>
      {data.savedMessage ? (
        <Alert color="green" role="status" data-testid="inventory-saved">
          {data.savedMessage}
        </Alert>
      ) : null}
      {data.missing ? <Alert color="yellow">{data.missing}</Alert> : null}
      {data.adoptNotice ? (
        <Alert color="yellow" data-testid="adopt-refused">
          {data.adoptNotice}
        </Alert>
      ) : null}
      {refusedDelete ? (
        <Alert color="red" role="alert" title="Not deleted" data-testid="inventory-refused">
          {refusedDelete}
        </Alert>
      ) : null}
      {data.router ? <RouterPage data={data} result={result} /> : <OverviewPage data={data} result={result} />}
    </Stack>
  );
}
