/**
 * "Community labels" on /site-settings/routing-data: the operator's names for communities, which the
 * private Looking Glass shows beside each community of a route. A table of the labels (edit opens
 * the label in the form below through a link, delete is a one-button POST form) and one form to add
 * or change a label. Plain forms: everything works without JavaScript.
 */
import { Alert, Anchor, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { Form, Link, useNavigation } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { FormProblem, ScrollBox, useFormReset } from "~/components/EditForms";
import { COMMUNITY_KIND_LABELS, COMMUNITY_MAX_LENGTH } from "~/lib/bgp-communities";
import type { CommunityLabelActionResult, CommunityLabelsSection as SectionData } from "../community-labels-screen.server";
import { COMMUNITY_LABELS_ANCHOR, EDIT_LABEL_PARAM, LABEL_MAX_LENGTH, ROUTING_DATA_PATH } from "../community-labels";

function DeleteLabel({ id, pattern }: { id: number; pattern: string }) {
  return (
    <Form method="post" style={{ display: "inline" }} aria-label={`Delete the label of ${pattern}`}>
      <CsrfField />
      <input type="hidden" name="intent" value="delete-label" />
      <input type="hidden" name="id" value={String(id)} />
      <Button type="submit" color="red" variant="light" size="compact-xs" aria-label={`Delete ${pattern}`}>
        Delete
      </Button>
    </Form>
  );
}

export function CommunityLabelsSection({ data, result }: { data: SectionData; result: CommunityLabelActionResult | null }) {
  const navigation = useNavigation();
  const formRef = useFormReset();
  const editing = data.editing;
  // A refused save keeps what was typed; after a save or on a fresh page the form holds the stored label (or nothing).
  const refused = result && (result.intent === "create-label" || result.intent === "update-label") ? result : null;
  const errors = refused?.errors ?? {};
  const values = refused?.values ?? { pattern: editing?.pattern ?? "", label: editing?.label ?? "" };
  const otherProblem = result && !refused ? result.errors[""] : null;
  const submitting = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
  const busy = submitting === "create-label" || submitting === "update-label";
  return (
    <Stack gap="sm" id={COMMUNITY_LABELS_ANCHOR}>
      <Title order={2} size="h3">
        Community labels
      </Title>
      <Text size="sm">
        Names the private Looking Glass shows beside the communities of a route, for example 64496:100 Customer routes. A pattern is a
        standard (64496:100), large (64496:1:2) or extended (RT:64497:42) community, or one whose last part is * (64496:*, 64496:1:*,
        RT:64497:*). A label for exactly one community wins over the well-known names (NO_EXPORT, BLACKHOLE, …), which win over a pattern
        with *.
      </Text>
      {data.savedMessage ? (
        <Alert color="green" role="status" data-testid="community-labels-saved">
          {data.savedMessage}
        </Alert>
      ) : null}
      {data.missing || otherProblem ? (
        <Alert color="red" data-testid="community-labels-problem">
          {otherProblem ?? data.missing}
        </Alert>
      ) : null}
      {data.labels.length ? (
        <ScrollBox label="Community labels">
          <Table striped withTableBorder data-testid="community-labels">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Pattern</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Label</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.labels.map((l) => (
                <Table.Tr key={l.id}>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>{l.pattern}</Table.Td>
                  <Table.Td>{COMMUNITY_KIND_LABELS[l.kind]}</Table.Td>
                  <Table.Td>{l.label}</Table.Td>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>
                    <Group gap="xs" wrap="nowrap">
                      <Anchor
                        component={Link}
                        to={`${ROUTING_DATA_PATH}?${EDIT_LABEL_PARAM}=${l.id}#${COMMUNITY_LABELS_ANCHOR}`}
                        size="sm"
                        aria-label={`Edit ${l.pattern}`}
                      >
                        Edit
                      </Anchor>
                      <DeleteLabel id={l.id} pattern={l.pattern} />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      ) : (
        <Text size="sm" data-testid="community-labels-empty">
          No community labels yet.
        </Text>
      )}
      <Form method="post" ref={formRef} aria-label={editing ? `Edit the label of ${editing.pattern}` : "Add a community label"}>
        <CsrfField />
        <input type="hidden" name="intent" value={editing ? "update-label" : "create-label"} />
        {editing ? <input type="hidden" name="id" value={String(editing.id)} /> : null}
        <Paper withBorder p="md">
          <Stack gap="xs">
            <Text fw={600} size="sm">
              {editing ? `Edit the label of ${editing.pattern}` : "Add a label"}
            </Text>
            <FormProblem errors={errors} />
            <Group align="flex-start" wrap="wrap">
              <TextInput
                label="Pattern"
                name="pattern"
                required
                defaultValue={values.pattern ?? ""}
                placeholder="64496:100"
                maxLength={COMMUNITY_MAX_LENGTH}
                error={errors.pattern}
                w={{ base: "100%", xs: 220 }}
                autoComplete="off"
              />
              <TextInput
                label="Label"
                name="label"
                required
                defaultValue={values.label ?? ""}
                placeholder="Customer routes"
                maxLength={LABEL_MAX_LENGTH}
                error={errors.label}
                w={{ base: "100%", xs: 320 }}
                autoComplete="off"
              />
              <Button type="submit" mt={25} loading={busy}>
                {editing ? "Save" : "Add"}
              </Button>
              {editing ? (
                <Anchor component={Link} to={`${ROUTING_DATA_PATH}#${COMMUNITY_LABELS_ANCHOR}`} mt={32} size="sm">
                  Cancel
                </Anchor>
              ) : null}
            </Group>
          </Stack>
        </Paper>
      </Form>
    </Stack>
  );
}
