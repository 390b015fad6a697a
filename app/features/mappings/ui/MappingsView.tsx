import { Alert, Anchor, Button, Card, Group, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { Form, Link } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { CsvImportForm } from "~/components/CsvImportForm";
import { SavedNotices, ScrollBox, useFormReset } from "~/components/EditForms";
import type { MappingObject, MappingsActionResult, MappingsScreen } from "../mappings-screen.server";

type Props = { data: MappingsScreen; result: MappingsActionResult | undefined };

/** A colour as a small square and its code, so the value reads without seeing colours too. */
function Swatch({ color }: { color: string | null }) {
  if (!color)
    return (
      <Text span c="dimmed" size="sm">
        none
      </Text>
    );
  return (
    <Group gap={6} wrap="nowrap" component="span">
      <span
        aria-hidden
        style={{ display: "inline-block", width: 14, height: 14, borderRadius: 3, background: color, border: "1px solid #0003" }}
      />
      <Text span size="sm" ff="monospace">
        {color}
      </Text>
    </Group>
  );
}

function href(data: MappingsScreen, params: Record<string, string | number | null>) {
  const search = new URLSearchParams();
  if (data.search) search.set("q", data.search);
  if (data.page > 1) search.set("page", String(data.page));
  for (const [k, v] of Object.entries(params)) {
    if (v === null) search.delete(k);
    else search.set(k, String(v));
  }
  const text = search.toString();
  return `${data.screen.path}${text ? `?${text}` : ""}`;
}

/** The values a form shows: as typed when this form's post came back refused, else the stored ones. */
function formState(result: Props["result"], intent: string, match: Record<string, string>, stored: Record<string, string>) {
  const mine = result && result.intent === intent && Object.entries(match).every(([k, v]) => result.values[k] === v);
  return mine ? { values: result.values, errors: result.errors } : { values: stored, errors: {} as Record<string, string> };
}

function LayerForm({ data, object, layer, result }: Props & { object: MappingObject; layer: MappingObject["layers"][number] }) {
  const ref = useFormReset();
  const right = data.rights.layers.find((r) => r.layer === layer.layer)!;
  const state = formState(
    result,
    "save-layer",
    { layer: String(layer.layer) },
    {
      name: layer.name ?? "",
      color: layer.color ?? "",
    },
  );
  const title = `${layer.label[0].toUpperCase()}${layer.label.slice(1)} layer`;
  return (
    <Card withBorder padding="sm" data-testid={`layer-${layer.layer}`}>
      <Stack gap={6}>
        <Text fw={600}>{title}</Text>
        <Group gap="lg">
          <Text size="sm">
            Name:{" "}
            {layer.name ?? (
              <Text span c="dimmed" size="sm">
                not set
              </Text>
            )}
          </Text>
          <Text size="sm" component="div">
            <Group gap={6}>
              Colour: <Swatch color={layer.color} />
            </Group>
          </Text>
        </Group>
        {right.writable ? (
          <>
            <Form method="post" action={href(data, { id: object.id })} ref={ref} aria-label={`Save the ${layer.label} layer`}>
              <CsrfField />
              <input type="hidden" name="intent" value="save-layer" />
              <input type="hidden" name="id" value={object.id} />
              <input type="hidden" name="layer" value={layer.layer} />
              <Group align="flex-end" gap="sm">
                {right.canName ? (
                  <TextInput
                    name="name"
                    label="Name"
                    defaultValue={state.values.name ?? ""}
                    error={state.errors.name}
                    maxLength={data.nameMax}
                    w={260}
                  />
                ) : (
                  <Text size="sm" c="dimmed" maw={260}>
                    Renaming an AS in your own layer needs the API_CHANGE_AS_INFO permission; you may change its colour.
                  </Text>
                )}
                <TextInput
                  name="color"
                  label="Colour"
                  placeholder="#137cbd"
                  defaultValue={state.values.color ?? ""}
                  error={state.errors.color}
                  maxLength={7}
                  w={130}
                />
                <Button type="submit" size="sm">
                  Save the {layer.label} layer
                </Button>
              </Group>
              {state.errors[""] ? (
                <Text c="red" size="sm" role="alert">
                  {state.errors[""]}
                </Text>
              ) : null}
            </Form>
            {layer.set ? (
              <Form method="post" action={href(data, { id: object.id })} aria-label={`Remove the ${layer.label} layer`}>
                <CsrfField />
                <input type="hidden" name="intent" value="remove-layer" />
                <input type="hidden" name="id" value={object.id} />
                <input type="hidden" name="layer" value={layer.layer} />
                <Button type="submit" size="xs" color="red" variant="light">
                  Remove the {layer.label} layer
                </Button>
              </Form>
            ) : null}
          </>
        ) : null}
      </Stack>
    </Card>
  );
}

function AssignForm({ data, object, result }: Props & { object: MappingObject }) {
  const ref = useFormReset();
  const state = formState(result, "assign", {}, { application: object.application ?? "", infrastructure: object.infrastructure ?? "" });
  if (!data.rights.assign) {
    return (
      <Text size="sm" data-testid="assignment">
        Serves the application {object.application ?? "none"} and the infrastructure {object.infrastructure ?? "none"}. Moderators, staff
        and superusers change this.
      </Text>
    );
  }
  return (
    <Form method="post" action={href(data, { id: object.id })} ref={ref} aria-label={`Assign ${object.label}`}>
      <CsrfField />
      <input type="hidden" name="intent" value="assign" />
      <input type="hidden" name="id" value={object.id} />
      <Group align="flex-end" gap="sm">
        <TextInput
          name="application"
          label="Application"
          description="Empty: none"
          defaultValue={state.values.application ?? ""}
          error={state.errors.application}
          maxLength={data.nameMax}
          w={220}
        />
        <TextInput
          name="infrastructure"
          label="Infrastructure"
          description="Empty: none"
          defaultValue={state.values.infrastructure ?? ""}
          error={state.errors.infrastructure}
          maxLength={data.nameMax}
          w={220}
        />
        <Button type="submit" size="sm">
          Save the assignment
        </Button>
      </Group>
      {state.errors[""] ? (
        <Text c="red" size="sm" role="alert">
          {state.errors[""]}
        </Text>
      ) : null}
    </Form>
  );
}

function ObjectPage({ data, result }: Props) {
  const object = data.selected!;
  const { model, noun } = data.screen;
  const refusedId = result?.intent !== "import" ? result?.errors.id : null;
  return (
    <Stack data-testid="mapping-object">
      <Anchor component={Link} to={href(data, { id: null })}>
        Back to the list
      </Anchor>
      <Title order={2} size="h3">
        {object.label}
      </Title>
      {refusedId ? (
        <Alert color="red" role="alert">
          {refusedId}
        </Alert>
      ) : null}
      <Text size="sm" data-testid="effective">
        Shown as <strong>{object.effective.name ?? (model === "AS" ? (object.registryName ?? object.label) : object.label)}</strong>
        {object.effective.nameFrom ? ` (name from the ${object.effective.nameFrom} layer)` : " (no layer names it)"}, colour{" "}
        {object.effective.color ?? "none"}
        {object.effective.colorFrom ? ` (from the ${object.effective.colorFrom} layer)` : ""}.
        {model === "AS" && object.registryName ? ` The AS registry calls it ${object.registryName}.` : ""}
      </Text>
      {model === "AS" ? (
        <>
          <Title order={3} size="h4">
            Application and infrastructure
          </Title>
          <AssignForm data={data} result={result} object={object} />
        </>
      ) : (
        <Text size="sm">
          {object.servedBy.length
            ? `Served by ${object.servedBy.map((a) => `AS${a}`).join(", ")} (assigned on the AS Mappings screen).`
            : `No AS is assigned to this ${noun} (on the AS Mappings screen).`}
        </Text>
      )}
      <Title order={3} size="h4">
        Layers
      </Title>
      <Text size="sm" c="dimmed">
        Per name and per colour the highest layer that sets it wins. Your own layer (user, 30) only you see.
      </Text>
      {[...object.layers].reverse().map((layer) => (
        <LayerForm key={layer.layer} data={data} result={result} object={object} layer={layer} />
      ))}
    </Stack>
  );
}

function ListPage({ data }: Props) {
  const { model, noun } = data.screen;
  return (
    <Stack>
      {data.objects.length ? (
        <ScrollBox label={data.screen.title}>
          <Table striped miw={720} data-testid="mappings-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{model === "AS" ? "AS" : "Id"}</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Name from</Table.Th>
                <Table.Th>Colour</Table.Th>
                <Table.Th>Colour from</Table.Th>
                {model === "AS" ? (
                  <>
                    <Table.Th>AS registry name</Table.Th>
                    <Table.Th>Application</Table.Th>
                    <Table.Th>Infrastructure</Table.Th>
                  </>
                ) : (
                  <Table.Th>Served by</Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.objects.map((o) => (
                <Table.Tr key={o.id}>
                  <Table.Td>
                    <Anchor component={Link} to={href(data, { id: o.id })}>
                      {o.label}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{o.effective.name ?? ""}</Table.Td>
                  <Table.Td>{o.effective.nameFrom ?? ""}</Table.Td>
                  <Table.Td>
                    <Swatch color={o.effective.color} />
                  </Table.Td>
                  <Table.Td>{o.effective.colorFrom ?? ""}</Table.Td>
                  {model === "AS" ? (
                    <>
                      <Table.Td>{o.registryName ?? ""}</Table.Td>
                      <Table.Td>{o.application ?? ""}</Table.Td>
                      <Table.Td>{o.infrastructure ?? ""}</Table.Td>
                    </>
                  ) : (
                    <Table.Td>
                      {o.servedBy.length > 5
                        ? `${o.servedBy
                            .slice(0, 5)
                            .map((a) => `AS${a}`)
                            .join(", ")} and ${o.servedBy.length - 5} more`
                        : o.servedBy.map((a) => `AS${a}`).join(", ")}
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      ) : (
        <Text size="sm">{data.search ? `No ${noun} matches "${data.search}".` : `No ${noun} has a mapping yet.`}</Text>
      )}
      <Group gap="md" data-testid="pager">
        {data.page > 1 ? (
          <Anchor component={Link} to={href(data, { page: data.page - 1 })}>
            Previous page
          </Anchor>
        ) : null}
        <Text size="sm">
          Page {data.page} of {data.pageCount} ({data.total} in all)
        </Text>
        {data.page < data.pageCount ? (
          <Anchor component={Link} to={href(data, { page: data.page + 1 })}>
            Next page
          </Anchor>
        ) : null}
      </Group>
    </Stack>
  );
}

function ImportForm({ data, result }: Props) {
  const { model } = data.screen;
  const refused = result?.intent === "import" ? result : null;
  const columns = model === "AS" ? "id,layer,name,color,application,infrastructure" : "id,layer,name,color";
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        Import from CSV
      </Title>
      <Text size="sm">
        First line: the columns, e.g. <code style={{ overflowWrap: "anywhere" }}>{columns}</code> (comma or semicolon). <code>id</code>:{" "}
        {model === "AS" ? "an AS number (2906 or AS2906)" : "the name"}; <code>layer</code>: 0/base, 10/product, 20/site or 30/user, as you
        may write them; <code>name</code> and <code>color</code> (#rrggbb): at least one.
        {model === "AS" ? ` application and infrastructure: what the AS serves (empty leaves it, "${data.removeMark}" removes it).` : ""} A
        line replaces that layer of that object. One bad line and nothing is imported.
      </Text>
      <CsvImportForm
        action={data.screen.path}
        label="Import from CSV"
        pasted={refused?.values.csv ?? ""}
        error={refused?.errors.csv}
        problems={refused?.problems ?? []}
        problemsTestId="import-problems"
      />
    </Stack>
  );
}

/** Applications, Infrastructures and AS Mappings: one view over the three mapping models. */
export function MappingsView({ data, result }: Props) {
  const { screen } = data;
  const writable = data.rights.layers.filter((r) => r.writable).map((r) => `${r.layer}`);
  const refusedForm = result && result.intent !== "import" && !data.selected ? (result.errors[""] ?? result.errors.id) : null;
  return (
    <Stack maw={1100}>
      <Title order={1} size="h2">
        {screen.title}
      </Title>
      <Text size="sm">
        Names and colours of {screen.model === "AS" ? "ASes" : `${screen.noun === "application" ? "applications" : "infrastructures"}`} in
        four layers: base (0), product (10), site (20) and your own (user, 30); the highest layer that sets a name or a colour wins. You may
        change the layers {writable.join(", ")}.
      </Text>
      <SavedNotices saved={data.savedMessage} notices={data.notices} testId="mappings" />
      {refusedForm ? (
        <Alert color="red" role="alert" title="Not saved">
          {refusedForm}
        </Alert>
      ) : null}
      <Group align="flex-end" gap="xl">
        <Form method="get" action={screen.path} aria-label={`Search ${screen.title}`}>
          <Group align="flex-end" gap="sm">
            <TextInput name="q" label="Search" defaultValue={data.search} maxLength={100} w={240} />
            <Button type="submit" variant="light" size="sm">
              Search
            </Button>
          </Group>
        </Form>
        <Form method="get" action={screen.path} aria-label={`Open ${screen.noun === "AS" ? "an AS" : `an ${screen.noun}`}`}>
          <Group align="flex-end" gap="sm">
            <TextInput
              name="id"
              label={screen.model === "AS" ? "Open or add an AS" : `Open or add an ${screen.noun}`}
              placeholder={screen.model === "AS" ? "AS2906" : "Name"}
              maxLength={200}
              w={240}
            />
            <Button type="submit" variant="light" size="sm">
              Open
            </Button>
          </Group>
        </Form>
      </Group>
      {data.selected ? <ObjectPage data={data} result={result} /> : <ListPage data={data} result={result} />}
      <ImportForm data={data} result={result} />
    </Stack>
  );
}
