import { Alert, Anchor, Badge, Box, Button, Group, List, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { Form, Link } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { SavedNotices, ScrollBox } from "~/components/EditForms";
import { tagListUrl } from "../tag-list-params";
import type { TagListActionResult, TagListIntent, TagListScreen } from "../tag-list-screen.server";
import { TagForm, TagGroupForm, type TagFormState } from "./TagForms";

/** Values shown in a row of the list; the edit form has them all. */
const SHOWN_VALUES = 8;

function formState(result: TagListActionResult | undefined, intents: TagListIntent[], stored: Record<string, string>): TagFormState {
  return result && intents.includes(result.intent as TagListIntent)
    ? { values: result.values, errors: result.errors }
    : { values: stored, errors: {} };
}

function Swatch({ color }: { color: string }) {
  return (
    <Box
      component="span"
      aria-hidden
      w={14}
      h={14}
      display="inline-block"
      style={{ background: color, borderRadius: 3, verticalAlign: "middle" }}
    />
  );
}

function Scope({ personal }: { personal: boolean }) {
  return (
    <Badge variant="light" color={personal ? "gray" : "blue"}>
      {personal ? "Personal" : "Shared"}
    </Badge>
  );
}

/** The first three columns of both tables: name with its colour, the filter value that names it, its scope. */
function NameCells({ item }: { item: { name: string; color: string; reference: string; personal: boolean } }) {
  return (
    <>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Swatch color={item.color} />
          <span>{item.name}</span>
        </Group>
      </Table.Td>
      <Table.Td>
        <code>{item.reference}</code>
      </Table.Td>
      <Table.Td>
        <Scope personal={item.personal} />
      </Table.Td>
    </>
  );
}

function TagsTable({ data }: { data: TagListScreen }) {
  if (!data.tags.length)
    return (
      <Text size="sm" data-tour="tags-table">
        No tags of {data.kindLabel.toLowerCase()} yet.
      </Text>
    );
  return (
    <ScrollBox label="Tags">
      <Table striped miw={760} data-testid="tags-table" data-tour="tags-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Filter value</Table.Th>
            <Table.Th>Scope</Table.Th>
            <Table.Th>Values</Table.Th>
            <Table.Th>In groups</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.tags.map((t) => (
            <Table.Tr key={t.id}>
              <NameCells item={t} />
              <Table.Td>
                {t.values.slice(0, SHOWN_VALUES).join(", ")}
                {t.values.length > SHOWN_VALUES ? ` … (${t.values.length} values)` : ""}
              </Table.Td>
              <Table.Td>{t.groups.join(", ")}</Table.Td>
              <Table.Td>
                {t.editable ? (
                  <Group gap="xs" wrap="nowrap">
                    <Anchor component={Link} to={tagListUrl({ kind: data.kind, tag: t.id })} aria-label={`Edit tag ${t.name}`}>
                      Edit
                    </Anchor>
                    <Anchor
                      component={Link}
                      to={tagListUrl({ kind: data.kind, deleteTag: t.id })}
                      c="red"
                      aria-label={`Delete tag ${t.name}`}
                    >
                      Delete
                    </Anchor>
                  </Group>
                ) : (
                  <Text size="xs" c="dimmed">
                    Shared: staff and moderators edit it
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollBox>
  );
}

function GroupsTable({ data }: { data: TagListScreen }) {
  if (!data.groups.length) return <Text size="sm">No tag groups of {data.kindLabel.toLowerCase()} yet.</Text>;
  return (
    <ScrollBox label="Tag groups">
      <Table striped miw={640} data-testid="groups-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Filter value</Table.Th>
            <Table.Th>Scope</Table.Th>
            <Table.Th>Tags</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.groups.map((g) => (
            <Table.Tr key={g.id}>
              <NameCells item={g} />
              <Table.Td>
                {g.tags.map((t) => t.name).join(", ")} ({g.valueCount} values)
              </Table.Td>
              <Table.Td>
                {g.editable ? (
                  <Group gap="xs" wrap="nowrap">
                    <Anchor component={Link} to={tagListUrl({ kind: data.kind, group: g.id })} aria-label={`Edit tag group ${g.name}`}>
                      Edit
                    </Anchor>
                    <Anchor
                      component={Link}
                      to={tagListUrl({ kind: data.kind, deleteGroup: g.id })}
                      c="red"
                      aria-label={`Delete tag group ${g.name}`}
                    >
                      Delete
                    </Anchor>
                  </Group>
                ) : (
                  <Text size="xs" c="dimmed">
                    Shared: staff and moderators edit it
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollBox>
  );
}

/** The confirm step of a delete: what happens, the form that deletes, and the way back. */
function DeleteStep({ step, back }: { step: NonNullable<TagListScreen["deleting"]>; back: string }) {
  const what = step.type === "tag" ? "tag" : "tag group";
  return (
    <Paper withBorder p="md" data-testid="delete-step" role="region" aria-labelledby="delete-step-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="delete-step-title">
          Delete {what} {step.name} ({step.reference})?
        </Title>
        <List size="sm">
          {step.effects.map((e) => (
            <List.Item key={e}>{e}</List.Item>
          ))}
        </List>
        <Group gap="sm">
          <Form method="post" action={back} aria-label={`Delete ${what} ${step.name}`}>
            <CsrfField />
            <input type="hidden" name="intent" value={step.intent} />
            <input type="hidden" name="id" value={step.id} />
            <input type="hidden" name="confirm" value="yes" />
            <Button type="submit" color="red">
              Delete the {what}
            </Button>
          </Form>
          <Anchor component={Link} to={back}>
            Cancel, keep it
          </Anchor>
        </Group>
      </Stack>
    </Paper>
  );
}

export function TagListView({ data, result }: { data: TagListScreen; result: TagListActionResult | undefined }) {
  const here = tagListUrl({ kind: data.kind });
  const tag = data.editedTag;
  const group = data.editedGroup;
  return (
    <Stack>
      <Title order={1} size="h2">
        Tag list
      </Title>
      <Text size="sm">
        A tag names a set of values of one kind — AS numbers, routers, interfaces … — and filters the flows tools by all of them at once:
        type its name in a filter, or write its filter value (<code>#12</code>; <code>!#12</code> excludes it). Personal tags are seen by
        you only, shared ones by every user.
      </Text>
      <SavedNotices saved={data.savedMessage} notices={data.notices} testId="tags" />
      {result && result.intent.startsWith("delete") && Object.keys(result.errors).length ? (
        <Alert color="red" role="alert">
          {Object.values(result.errors).join(" ")}
        </Alert>
      ) : null}
      {data.deleting ? <DeleteStep step={data.deleting} back={here} /> : null}
      <nav aria-label="Kinds of tags" data-tour="tags-kinds">
        <Group gap="xs">
          {data.kinds.map((k) => (
            <Anchor
              key={k.kind}
              component={Link}
              to={tagListUrl({ kind: k.kind })}
              aria-current={k.kind === data.kind ? "page" : undefined}
              fw={k.kind === data.kind ? 700 : undefined}
              size="sm"
            >
              {`${k.label} (${k.tags}${data.withGroups ? ` / ${k.groups}` : ""})`}
            </Anchor>
          ))}
        </Group>
      </nav>
      <Title order={2} size="h3">
        Tags of {data.kindLabel.toLowerCase()}
      </Title>
      <TagsTable data={data} />
      {tag ? (
        <Stack>
          <Anchor component={Link} to={here}>
            Back to the list
          </Anchor>
          <TagForm
            data={data}
            id={tag.id}
            action={tagListUrl({ kind: data.kind, tag: tag.id })}
            state={formState(result, ["update-tag"], {
              name: tag.name,
              color: tag.color,
              scope: tag.personal ? "personal" : "shared",
              values: tag.values.join("\n"),
            })}
          />
          <Group gap="sm" align="center">
            <Anchor component={Link} to={tagListUrl({ kind: data.kind, deleteTag: tag.id })} c="red">
              Delete this tag…
            </Anchor>
            <Text size="sm" c="dimmed" data-testid="tag-delete-effect">
              {tag.groups.length ? `Deleting it takes it out of the tag groups ${tag.groups.join(", ")}. ` : ""}
              Saved links and bookmarks that filter by {tag.reference} then show a notice that the tag is gone, in place of its values.
            </Text>
          </Group>
        </Stack>
      ) : (
        <TagForm data={data} id={null} action={here} state={formState(result, ["create-tag"], {})} />
      )}
      {data.withGroups ? (
        <>
          <Title order={2} size="h3">
            Tag groups of {data.kindLabel.toLowerCase()}
          </Title>
          <Text size="sm">As a filter a group stands for the values of all its tags.</Text>
          <GroupsTable data={data} />
          {group ? (
            <Stack>
              <Anchor component={Link} to={here}>
                Back to the list
              </Anchor>
              <TagGroupForm
                data={data}
                id={group.id}
                action={tagListUrl({ kind: data.kind, group: group.id })}
                state={formState(result, ["update-group"], {
                  name: group.name,
                  color: group.color,
                  scope: group.personal ? "personal" : "shared",
                  tags: group.tagIds.join(","),
                })}
              />
            </Stack>
          ) : (
            <TagGroupForm data={data} id={null} action={here} state={formState(result, ["create-group"], {})} />
          )}
        </>
      ) : null}
    </Stack>
  );
}
