import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { Form, Link } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { CsvImportForm } from "~/components/CsvImportForm";
import { FormProblem, ScrollBox, useFormReset } from "~/components/EditForms";
import {
  BILLED_DIRECTION_LABELS,
  BILLED_DIRECTIONS,
  BILLING_METHODS,
  CONTRACT_DIRECTIONS,
  DIRECTION_LABELS,
  GROUP_MODE_LABELS,
  GROUP_MODES,
} from "../contract-input";
import { CONTRACT_CSV_COLUMNS, CONTRACT_CSV_EXAMPLE, INTERFACE_SEPARATOR } from "../contract-csv";
import { EMPTY_CONTRACT, type ContractActionResult, type ContractFormValues, type ContractsPart } from "../contract-form";

type Part = NonNullable<ContractsPart>;

const NUMBER_FIELDS: { name: keyof ContractFormValues; label: string }[] = [
  { name: "commitMbps", label: "Commit (Mbit/s)" },
  { name: "commitPriceEur", label: "Commit price (EUR per Mbit/s)" },
  { name: "burstPriceEur", label: "Burst price (EUR per Mbit/s above the commit)" },
  { name: "flatPriceEur", label: "Flat price (EUR per month)" },
  { name: "portFeeEur", label: "Port fee (EUR per month)" },
  { name: "crossConnectFeeEur", label: "Cross-connect fee (EUR per month)" },
  { name: "minimumFeeEur", label: "Minimum fee (EUR per month)" },
];

function ContractForm({
  part,
  editing,
  values,
  errors,
  cancelHref,
}: {
  part: Part;
  editing: { id: number; name: string } | null;
  values: ContractFormValues;
  errors: Record<string, string>;
  cancelHref: string;
}) {
  const ref = useFormReset();
  const err = (name: string) => errors[name] || undefined;
  const chosen = new Set(values.interfaceIds);
  const title = editing ? `Edit contract ${editing.name}` : "Add a contract";
  return (
    <Paper withBorder p="sm" id="contract-form">
      <Form method="post" ref={ref} aria-label={title} data-testid="contract-form">
        <CsrfField />
        <input type="hidden" name="intent" value={editing ? "update" : "create"} />
        {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
        <Stack gap="sm">
          <Title order={3} size="h5">
            {title}
          </Title>
          <FormProblem errors={errors} />
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            <TextInput name="name" label="Name" required defaultValue={values.name} error={err("name")} />
            <NativeSelect
              name="direction"
              label="Direction"
              defaultValue={values.direction}
              error={err("direction")}
              data={CONTRACT_DIRECTIONS.map((d) => ({ value: d, label: DIRECTION_LABELS[d] }))}
            />
            <TextInput
              name="partnerAsn"
              label="Partner AS number"
              description="Empty: none"
              defaultValue={values.partnerAsn}
              error={err("partnerAsn")}
            />
            <NativeSelect
              name="method"
              label="Billing method"
              defaultValue={values.method}
              error={err("method")}
              data={[...BILLING_METHODS]}
            />
            <NativeSelect
              name="billedDirection"
              label="Billed direction"
              defaultValue={values.billedDirection}
              error={err("billedDirection")}
              data={BILLED_DIRECTIONS.map((d) => ({ value: d, label: BILLED_DIRECTION_LABELS[d] }))}
            />
            <NativeSelect
              name="groupMode"
              label="Billing group"
              defaultValue={values.groupMode}
              error={err("groupMode")}
              data={GROUP_MODES.map((d) => ({ value: d, label: GROUP_MODE_LABELS[d] }))}
            />
            {NUMBER_FIELDS.map((f) => (
              <TextInput
                key={f.name}
                name={f.name}
                label={f.label}
                inputMode="decimal"
                defaultValue={values[f.name] as string}
                error={err(f.name)}
              />
            ))}
            <TextInput name="validFrom" label="Valid from (YYYY-MM-DD)" required defaultValue={values.validFrom} error={err("validFrom")} />
            <TextInput
              name="validTo"
              label="Valid to (YYYY-MM-DD)"
              description="Empty: open-ended"
              defaultValue={values.validTo}
              error={err("validTo")}
            />
            <TextInput name="timezone" label="Billing timezone" defaultValue={values.timezone} error={err("timezone")} />
          </SimpleGrid>
          <Textarea name="notes" label="Notes" defaultValue={values.notes} error={err("notes")} autosize minRows={2} />
          <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
            <legend>
              <Text size="sm" fw={500}>
                Interfaces of the billing group
              </Text>
            </legend>
            {err("interfaceIds") ? (
              <Text c="red" size="sm" id="interfaceIds-error">
                {err("interfaceIds")}
              </Text>
            ) : null}
            <div style={{ maxHeight: 220, overflowY: "auto" }} role="group" aria-label="Interfaces of the billing group" tabIndex={0}>
              <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing={4}>
                {part.interfaces.map((i) => (
                  <Checkbox
                    key={i.id}
                    name="interfaceIds"
                    value={String(i.id)}
                    label={i.label}
                    defaultChecked={chosen.has(String(i.id))}
                    size="xs"
                  />
                ))}
              </SimpleGrid>
            </div>
          </fieldset>
          <Group>
            <Button type="submit">{editing ? "Save contract" : "Add contract"}</Button>
            {editing ? (
              <Anchor component={Link} to={cancelHref} size="sm">
                Cancel
              </Anchor>
            ) : null}
          </Group>
        </Stack>
      </Form>
    </Paper>
  );
}

/** The contracts with their edit and delete links, the delete confirmation and the add/edit form (staff and superusers with MANAGE_CONTRACTS). */
export function ContractsSection({
  part,
  month,
  path,
  result,
}: {
  part: Part;
  month: string;
  path: string;
  result: ContractActionResult | undefined;
}) {
  const here = `${path}?month=${month}`;
  const refused = result && !result.ok ? result : null;
  const editId = refused?.intent === "update" ? refused.id : part.editId;
  const editing = editId === null ? null : (part.contracts.find((c) => c.id === editId) ?? null);
  const deleting = part.deleteId === null ? null : (part.contracts.find((c) => c.id === part.deleteId) ?? null);
  const formErrors = refused && (refused.intent === "create" || refused.intent === "update") ? refused.errors : {};
  const importRefused = refused?.intent === "import" ? refused : null;
  const values = refused?.values ?? editing?.values ?? EMPTY_CONTRACT;
  return (
    <Stack gap="sm" data-testid="contracts-section" data-tour="revenues-contracts">
      <Title order={2} size="h4">
        Contracts
      </Title>
      {result?.ok ? (
        <Alert color="green" role="status" data-testid="contracts-saved">
          {result.saved}
        </Alert>
      ) : null}
      {refused && !importRefused && (refused.intent === "delete" || !refused.values) ? (
        <Alert color="red" role="alert" data-testid="contracts-refused">
          {Object.values(refused.errors).join(" ")}
        </Alert>
      ) : null}
      {deleting ? (
        <Alert color="red" title={`Delete contract ${deleting.name}?`} data-testid="delete-confirm">
          <Text size="sm" mb="xs">
            Its bills of open months go; the change is audited.
          </Text>
          <Group>
            <Form method="post" action={here} aria-label={`Delete contract ${deleting.name}`}>
              <CsrfField />
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="id" value={deleting.id} />
              <input type="hidden" name="confirm" value="yes" />
              <Button type="submit" color="red">
                Delete {deleting.name}
              </Button>
            </Form>
            <Anchor component={Link} to={here} size="sm">
              Keep it
            </Anchor>
          </Group>
        </Alert>
      ) : null}
      {part.contracts.length ? (
        <ScrollBox label="Contracts">
          <Table striped withTableBorder fz="xs" data-testid="contracts-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Terms</Table.Th>
                <Table.Th scope="col">Ports</Table.Th>
                <Table.Th scope="col">Validity</Table.Th>
                <Table.Th scope="col">Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {part.contracts.map((c) => (
                <Table.Tr key={c.id} data-testid="contract-row">
                  <Table.Td>{c.name}</Table.Td>
                  <Table.Td>{c.summary}</Table.Td>
                  <Table.Td>{c.ports}</Table.Td>
                  <Table.Td>{c.validity}</Table.Td>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>
                    <Anchor component={Link} to={`${here}&edit=${c.id}#contract-form`} size="xs" aria-label={`Edit ${c.name}`}>
                      Edit
                    </Anchor>{" "}
                    ·{" "}
                    <Anchor component={Link} to={`${here}&delete=${c.id}`} size="xs" c="red" aria-label={`Delete ${c.name}`}>
                      Delete
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      ) : (
        <Text c="dimmed">No contract yet.</Text>
      )}
      <ContractForm
        part={part}
        editing={editing ? { id: editing.id, name: editing.name } : null}
        values={values}
        errors={formErrors}
        cancelHref={here}
      />
      <ImportForm here={here} refused={importRefused} />
    </Stack>
  );
}

/** The CSV import (a file or pasted lines); one bad line and nothing is imported, each bad line named. */
function ImportForm({ here, refused }: { here: string; refused: Extract<ContractActionResult, { ok: false }> | null }) {
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Title order={3} size="h5">
          Import contracts from CSV
        </Title>
        <Text size="sm">
          First line: the columns, e.g. <code style={{ overflowWrap: "anywhere" }}>{CONTRACT_CSV_EXAMPLE}</code> (comma or semicolon; every
          column: {Object.keys(CONTRACT_CSV_COLUMNS).join(", ")}). <code>interfaces</code>: the billing group as router and interface,
          several separated by <code>{INTERFACE_SEPARATOR}</code>. A line with the name of an existing contract replaces it. Decimals with a
          dot. One bad line and nothing is imported.{" "}
          <Anchor href={`${here.replace(/\?.*$/, "")}/export?table=contracts&format=csv`} size="sm">
            Download the contracts in this format
          </Anchor>
          .
        </Text>
        <CsvImportForm
          action={here}
          label="Import contracts from CSV"
          pasted={refused?.csv ?? ""}
          error={refused?.errors.csv}
          problems={refused?.problems ?? []}
          problemsTestId="contract-import-problems"
        />
      </Stack>
    </Paper>
  );
}
