import { WARNING_TEXT } from "~/lib/colors";
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Fieldset,
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
import { MESSAGES } from "~/lib/messages";
import { FormProblem, ScrollBox, useFormReset, type FormErrors } from "~/components/EditForms";
import { formatBitsPerSecond as formatBps } from "~/lib/units";
import { useRef, useState } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { isDimensionId } from "~/features/filter/dimensions";
import { FilterInput } from "~/features/filter/ui/FilterInput";
import { unbuiltToolOf } from "~/lib/routes";
import { DELEGABLE_PERMISSIONS, delegatedUsersUrl, type DelegatedUserForm, type RestrictionRow as RestrictionRowValue } from "../params";
import type { DelegatedUsersActionResult, DelegatedUsersScreen, Preview } from "../delegated-users-screen.server";

/** The Delegated Users screen: list, create/edit form with the restrictions editor and preview, deletion step. */
/** The border-planner lists of external_links_views_restrictions, as the form names them. */
const BORDER_LISTS = [
  {
    name: "asNumbers",
    label: "AS numbers",
    description: "One per line or comma-separated. Without any, the account gets no Border Planner.",
  },
  { name: "routers", label: "Routers", description: "As in the network inventory. The Looking Glass uses only their vantage points." },
  { name: "interfaces", label: "Interfaces", description: "router|interface, as in the network inventory." },
] as const;

export function DelegatedUsersView({ data, result }: { data: DelegatedUsersScreen; result: DelegatedUsersActionResult | undefined }) {
  const { params } = data;
  const editing = data.edited;
  // The form shows what was posted when the answer is about it (a refusal, one more row, a preview), else the stored values.
  const about = (id: number | null) => (result && result.id === id && result.form ? result : null);
  return (
    <Stack>
      <Title order={1} size="h2">
        Delegated Users
      </Title>
      <Text size="sm" c="dimmed">
        Accounts for your customers: each sees only the traffic of its restrictions.{" "}
        {data.managesAll ? "You manage every delegated account." : "You manage the delegated accounts you created."}
      </Text>
      {data.savedMessage ? (
        <Alert color="green" role="status" data-testid="delegated-users-saved">
          {data.savedMessage}
        </Alert>
      ) : null}
      {data.notices.map((n) => (
        <Alert key={n} color="orange">
          {n}
        </Alert>
      ))}
      {data.toDelete ? <ConfirmDelete account={data.toDelete} /> : null}
      <ListSection data={data} />
      {data.creating || (result && result.id === null && result.form) ? (
        <AccountForm data={data} id={null} stored={data.creating ?? result!.form!} posted={about(null)} />
      ) : (
        <Anchor component={Link} to={delegatedUsersUrl({ q: params.q, creating: true })}>
          Add a delegated account
        </Anchor>
      )}
      {editing ? (
        <>
          <AccountForm data={data} id={editing.id} stored={editing.form} posted={about(editing.id)} />
          <AccountActions id={editing.id} active={editing.active} invited={editing.invited} email={editing.form.email} />
        </>
      ) : null}
    </Stack>
  );
}

function ListSection({ data }: { data: DelegatedUsersScreen }) {
  const { params, list } = data;
  return (
    <Stack gap="xs">
      <Form method="get" role="search" aria-label="Search delegated accounts" data-tour="delegated-search">
        <Group align="end" gap="xs">
          <TextInput label="Search" name="q" defaultValue={params.q} placeholder="E-mail or name" maxLength={200} />
          <Button type="submit" variant="light">
            Search
          </Button>
        </Group>
      </Form>
      <Text size="sm">
        {list.total === 0 ? "No delegated accounts" : `${list.total} delegated account${list.total === 1 ? "" : "s"}`}
        {params.q ? ` matching “${params.q}”` : ""}.
      </Text>
      {list.rows.length ? (
        <ScrollBox label="Delegated accounts">
          <Table striped miw={640} data-testid="delegated-users-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>E-mail</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Restrictions</Table.Th>
                {data.managesAll ? <Table.Th>Managed by</Table.Th> : null}
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.rows.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>{r.email}</Table.Td>
                  <Table.Td>{r.name}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={r.active ? (r.invited ? "blue" : "green") : "gray"}>
                      {r.active ? (r.invited ? "Invited" : "Active") : "Deactivated"}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {r.restrictions > 0 ? (
                      r.restrictions
                    ) : (
                      // Without a flows restriction the account sees no traffic at all (deny by default).
                      <Text size="sm" c={WARNING_TEXT} data-testid="missing-profile">
                        {MESSAGES.missingProfile}
                      </Text>
                    )}
                  </Table.Td>
                  {data.managesAll ? <Table.Td>{r.managedBy}</Table.Td> : null}
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Anchor
                        component={Link}
                        to={delegatedUsersUrl({ q: params.q, page: params.page, id: r.id })}
                        aria-label={`Edit ${r.email}`}
                      >
                        Edit
                      </Anchor>
                      <Anchor
                        component={Link}
                        to={delegatedUsersUrl({ q: params.q, page: params.page, confirmDelete: r.id })}
                        aria-label={`Delete ${r.email}`}
                        c="red"
                      >
                        Delete
                      </Anchor>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      ) : null}
      {list.pages > 1 ? (
        <Group gap="xs" aria-label="Pages">
          {list.page > 1 ? (
            <Anchor component={Link} to={delegatedUsersUrl({ q: params.q, page: list.page - 1 })}>
              Previous page
            </Anchor>
          ) : null}
          <Text size="sm">
            Page {list.page} of {list.pages}
          </Text>
          {list.page < list.pages ? (
            <Anchor component={Link} to={delegatedUsersUrl({ q: params.q, page: list.page + 1 })}>
              Next page
            </Anchor>
          ) : null}
        </Group>
      ) : null}
    </Stack>
  );
}

function ConfirmDelete({ account }: { account: { id: number; email: string } }) {
  return (
    <Paper withBorder p="md" role="alertdialog" aria-labelledby="confirm-delete-title">
      <Form method="post">
        <CsrfField />
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={account.id} />
        <input type="hidden" name="confirm" value="yes" />
        <Stack gap="xs">
          <Title order={2} size="h4" id="confirm-delete-title">
            Delete {account.email}?
          </Title>
          <Text size="sm">
            The account is removed with its restrictions; its sessions and API tokens end at once. This cannot be undone.
          </Text>
          <Group>
            <Button type="submit" color="red">
              Delete the account
            </Button>
            <Anchor component={Link} to={delegatedUsersUrl({})}>
              Cancel
            </Anchor>
          </Group>
        </Stack>
      </Form>
    </Paper>
  );
}

/** Deactivate / reactivate and a new invitation: one-button forms of their own. */
function AccountActions({ id, active, invited, email }: { id: number; active: boolean; invited: boolean; email: string }) {
  const one = (intent: string, label: string, color?: string) => (
    <Form method="post" aria-label={`${label} ${email}`}>
      <CsrfField />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <Button type="submit" variant="light" color={color}>
        {label}
      </Button>
    </Form>
  );
  return (
    <Group gap="xs">
      {active ? one("deactivate", "Deactivate", "orange") : one("reactivate", "Reactivate")}
      {invited || active ? one("reinvite", "Send a new invitation") : null}
    </Group>
  );
}

function AccountForm({
  data,
  id,
  stored,
  posted,
}: {
  data: DelegatedUsersScreen;
  id: number | null;
  stored: DelegatedUserForm;
  posted: DelegatedUsersActionResult | null;
}) {
  const form = posted?.form ?? stored;
  // Reset when the values change, not on every navigation: a late revalidation must not wipe a row being typed.
  const ref = useFormReset(form);
  const errors: FormErrors = posted?.errors ?? {};
  const saveIntent = id ? "update" : "create";
  const title = id ? `Edit ${stored.email}` : "Add a delegated account";
  return (
    <Paper withBorder p="md">
      <Form ref={ref} method="post" aria-label={title}>
        <CsrfField />
        {id ? <input type="hidden" name="id" value={id} /> : null}
        {/* The default button (Enter in a field) saves, whatever other buttons the editor has. */}
        <button type="submit" name="intent" value={saveIntent} tabIndex={-1} aria-hidden style={{ position: "absolute", left: -9999 }}>
          Save
        </button>
        <Stack>
          <Title order={2} size="h4">
            {title}
          </Title>
          <FormProblem errors={errors} />
          <SimpleGrid cols={{ base: 1, sm: 3 }} data-tour="delegated-account">
            <TextInput
              label="E-mail"
              name="email"
              type="email"
              required={!id}
              readOnly={!!id}
              defaultValue={form.email}
              error={errors.email}
              description={id ? "The login; it cannot be changed." : "The invitation goes to this address."}
            />
            <TextInput
              label="First name"
              name="firstName"
              required
              maxLength={150}
              defaultValue={form.firstName}
              error={errors.firstName}
            />
            <TextInput label="Last name" name="lastName" required maxLength={150} defaultValue={form.lastName} error={errors.lastName} />
          </SimpleGrid>
          <Fieldset legend="Permissions" data-tour="delegated-permissions">
            <Stack gap={6}>
              {DELEGABLE_PERMISSIONS.filter(
                // What the manager may grant, and what the account holds already (it may keep that); never a grant
                // of a tool this version does not have (routes.ts UNBUILT_TOOL_GRANTS).
                (p) =>
                  !unbuiltToolOf(p.permission) &&
                  (data.permissions.some((mine) => mine.permission === p.permission) || stored.permissions.includes(p.permission)),
              ).map((p) => (
                <Checkbox
                  key={p.permission}
                  name="permissions"
                  value={p.permission}
                  defaultChecked={form.permissions.includes(p.permission)}
                  label={p.title}
                  description={p.explanation}
                />
              ))}
              {errors.permissions ? (
                <Text c="red" size="sm" role="alert">
                  {errors.permissions}
                </Text>
              ) : null}
            </Stack>
          </Fieldset>
          <RestrictionsEditor data={data} form={form} errors={errors} preview={posted?.preview ?? null} />
          <Fieldset legend="Border Planner and Looking Glass" data-tour="delegated-border">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              {BORDER_LISTS.map((list) => (
                <Textarea
                  key={list.name}
                  label={list.label}
                  name={list.name}
                  autosize
                  minRows={2}
                  description={list.description}
                  defaultValue={form[list.name]}
                  error={errors[list.name]}
                />
              ))}
            </SimpleGrid>
          </Fieldset>
          <Textarea
            label="Welcome page text"
            name="welcomeText"
            autosize
            minRows={3}
            maxLength={5000}
            description="What /welcome says to this account (when the site shows the welcome page); empty: the default text."
            defaultValue={form.welcomeText}
            error={errors.welcomeText}
          />
          <Group>
            <Button type="submit" name="intent" value={saveIntent}>
              {id ? "Save" : "Create and send the invitation"}
            </Button>
            <Anchor component={Link} to={delegatedUsersUrl({})}>
              Cancel
            </Anchor>
          </Group>
        </Stack>
      </Form>
    </Paper>
  );
}

function RestrictionsEditor({
  data,
  form,
  errors,
  preview,
}: {
  data: DelegatedUsersScreen;
  form: DelegatedUserForm;
  errors: FormErrors;
  preview: Preview | null;
}) {
  return (
    <Fieldset legend="Flows restrictions" data-tour="delegated-restrictions">
      <Stack>
        <Text size="sm" c="dimmed">
          Each restriction locks a dimension to the values given; the account sees that traffic broken down by the output. After login the
          first is current; the account cycles through them with “Next” in its header.
        </Text>
        {errors.restrictions ? (
          <Text c="red" size="sm" role="alert">
            {errors.restrictions}
          </Text>
        ) : null}
        {form.restrictions.map((r, i) => (
          <RestrictionRow key={`${i}-${form.restrictions.length}`} data={data} row={r} index={i} errors={errors} preview={preview} />
        ))}
        <Group>
          <Button type="submit" name="intent" value="add-restriction" variant="light" data-tour="delegated-add-restriction">
            Add restriction
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}

/** One restriction's fieldset; with JavaScript the values field gets an autocomplete (api/autocomplete/) that appends what is picked. */
function RestrictionRow({
  data,
  row,
  index: i,
  errors,
  preview,
}: {
  data: DelegatedUsersScreen;
  row: RestrictionRowValue;
  index: number;
  errors: FormErrors;
  preview: Preview | null;
}) {
  const hydrated = useHydrated();
  const [dimension, setDimension] = useState(row.dimension);
  const values = useRef<HTMLTextAreaElement>(null);
  const append = (value: string) => {
    // Restrictions list values: no negation, no tag.
    if (!values.current || value.startsWith("!") || value.startsWith("#")) return false;
    const current = values.current.value.trim();
    values.current.value = current ? `${current}\n${value}` : value;
    return true;
  };
  return (
    <Fieldset legend={`Restriction ${i + 1}`} data-testid={`restriction-${i}`}>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <NativeSelect
          label="Dimension"
          name={`r.${i}.dimension`}
          defaultValue={row.dimension}
          data={data.dimensions}
          error={errors[`r.${i}.dimension`]}
          onChange={(e) => setDimension(e.currentTarget.value)}
          wrapperProps={i === 0 ? { "data-tour": "delegated-restriction-dimension" } : undefined}
        />
        <Stack gap={4}>
          <Textarea
            ref={values}
            label="Allowed values"
            name={`r.${i}.values`}
            autosize
            minRows={2}
            spellCheck={false}
            description="One per line or comma-separated, e.g. AS64501."
            defaultValue={row.values}
            error={errors[`r.${i}.values`]}
          />
          {hydrated && isDimensionId(dimension) ? (
            <FilterInput
              dimension={dimension}
              onPick={append}
              ariaLabel={`Find values for restriction ${i + 1}`}
              placeholder="Search a value to add"
              width={240}
            />
          ) : null}
        </Stack>
        <NativeSelect
          label="Output (broken down by)"
          name={`r.${i}.output`}
          defaultValue={row.output}
          data={data.dimensions}
          error={errors[`r.${i}.output`]}
        />
      </SimpleGrid>
      <Group mt="xs" gap="xs">
        <Button type="submit" name="intent" value={`preview-${i}`} variant="light" size="xs">
          Preview restriction {i + 1}
        </Button>
        <Button type="submit" name="intent" value={`remove-restriction-${i}`} variant="subtle" color="red" size="xs">
          Remove restriction {i + 1}
        </Button>
      </Group>
      {preview && preview.restriction === i ? <PreviewBox preview={preview} /> : null}
    </Fieldset>
  );
}

function PreviewBox({ preview }: { preview: Preview }) {
  return (
    <Stack gap="xs" mt="sm" data-testid="preview" role="region" aria-label="What this account sees">
      <Title order={3} size="h5">
        What this account sees (last 24 complete hours)
      </Title>
      {preview.errors.map((e) => (
        <Text key={e} c="red" size="sm">
          {e}
        </Text>
      ))}
      {!preview.errors.length ? (
        <>
          <Text size="sm" data-testid="preview-total">
            Total: {formatBps(preview.total)}
          </Text>
          {preview.rows.length ? (
            <ScrollBox label="Preview rows">
              <Table miw={360}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{preview.output}</Table.Th>
                    <Table.Th>Bits per second</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.rows.map((r) => (
                    <Table.Tr key={r.key}>
                      <Table.Td>{r.name}</Table.Td>
                      <Table.Td>{formatBps(r.bps)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollBox>
          ) : (
            <Text size="sm">No traffic in the last 24 complete hours.</Text>
          )}
        </>
      ) : null}
      <Text size="sm">Menu: {preview.menu.length ? preview.menu.join(", ") : "nothing (the account could not log in usefully)"}</Text>
    </Stack>
  );
}
