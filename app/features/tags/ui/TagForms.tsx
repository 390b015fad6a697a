import { Button, Checkbox, Fieldset, Group, Paper, Radio, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from "@mantine/core";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { CsrfField } from "~/components/CsrfField";
import { FormProblem, useFormReset, type FormErrors } from "~/components/EditForms";
import type { TagListScreen } from "../tag-list-screen.server";

/** What a form shows: the values typed when its post was refused, else the stored ones. */
export type TagFormState = { values: Record<string, string>; errors: FormErrors };

function ScopeField({ values, errors, mayEditShared, what }: TagFormState & { mayEditShared: boolean; what: string }) {
  return (
    <Radio.Group
      name="scope"
      label="Who sees it"
      defaultValue={values.scope || "personal"}
      error={errors.scope}
      description={mayEditShared ? undefined : `Only staff, superusers and moderators may make a shared ${what}.`}
    >
      <Group mt={4}>
        <Radio value="personal" label="Only me (personal)" />
        <Radio value="shared" label="Every user (shared)" disabled={!mayEditShared && values.scope !== "shared"} />
      </Group>
    </Radio.Group>
  );
}

/**
 * What the tag and tag group forms share: the hidden intent, kind and id, the title and the form's
 * problem, the name and colour, and who sees it; `children` are the item's own fields.
 */
function ItemForm({
  data,
  id,
  state,
  action,
  what,
  intent,
  title,
  children,
}: {
  data: TagListScreen;
  id: number | null;
  state: TagFormState;
  action: string;
  what: "tag" | "tag group";
  intent: string;
  title: string;
  children: ReactNode;
}) {
  const { values, errors } = state;
  const ref = useFormReset();
  return (
    <Paper withBorder p="md">
      <Form
        ref={ref}
        method="post"
        action={action}
        aria-label={id ? `Edit the ${what}` : `Add a ${what}`}
        data-tour={id ? undefined : `${what === "tag" ? "tag" : "tag-group"}-form`}
      >
        <CsrfField />
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="kind" value={data.kind} />
        {id ? <input type="hidden" name="id" value={id} /> : null}
        <Stack>
          <Title order={2} size="h4">
            {title}
          </Title>
          <FormProblem errors={errors} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Name" required maxLength={100} name="name" defaultValue={values.name ?? ""} error={errors.name} />
            <TextInput label="Colour" type="color" name="color" defaultValue={values.color || "#5c7080"} error={errors.color} w={120} />
          </SimpleGrid>
          <ScopeField values={values} errors={errors} mayEditShared={data.mayEditShared} what={what} />
          {children}
          <Button type="submit" w="fit-content">
            {id ? `Save the ${what}` : `Add the ${what}`}
          </Button>
        </Stack>
      </Form>
    </Paper>
  );
}

/** Adds a tag of the screen's kind (no `id`) or edits tag `id`. */
export function TagForm({ data, id, state, action }: { data: TagListScreen; id: number | null; state: TagFormState; action: string }) {
  const { values, errors } = state;
  const title = id ? `Edit tag ${values.name || data.editedTag?.name || ""}`.trim() : `Add a tag of ${data.kindLabel.toLowerCase()}`;
  return (
    <ItemForm data={data} id={id} state={state} action={action} what="tag" intent={id ? "update-tag" : "create-tag"} title={title}>
      <Textarea
        label="Values"
        required
        name="values"
        autosize
        minRows={4}
        maxRows={16}
        spellCheck={false}
        description={`${data.valuesHint} Paste a whole list; repeats are kept once.`}
        defaultValue={values.values ?? ""}
        error={errors.values}
      />
    </ItemForm>
  );
}

/** Adds a tag group of the screen's kind (no `id`) or edits group `id`. */
export function TagGroupForm({ data, id, state, action }: { data: TagListScreen; id: number | null; state: TagFormState; action: string }) {
  const { values, errors } = state;
  const chosen = new Set((values.tags ?? "").split(",").filter(Boolean).map(Number));
  const title = id
    ? `Edit tag group ${values.name || data.editedGroup?.name || ""}`.trim()
    : `Add a tag group of ${data.kindLabel.toLowerCase()}`;
  return (
    <ItemForm
      data={data}
      id={id}
      state={state}
      action={action}
      what="tag group"
      intent={id ? "update-group" : "create-group"}
      title={title}
    >
      {/* Plain checkboxes (no Checkbox.Group state): the browser posts them and a form reset restores them. */}
      <Fieldset legend="Tags in the group" variant="unstyled" p={0}>
        <Text size="xs" c="dimmed">
          A shared group holds shared tags only.
        </Text>
        {errors.tags ? (
          <Text size="sm" c="red" role="alert">
            {errors.tags}
          </Text>
        ) : null}
        <Stack gap={4} mt={4}>
          {data.tags.length ? (
            data.tags.map((t) => (
              <Checkbox
                key={t.id}
                name="tags"
                value={String(t.id)}
                defaultChecked={chosen.has(t.id)}
                label={`${t.name} (${t.reference}, ${t.personal ? "personal" : "shared"})`}
              />
            ))
          ) : (
            <Text size="sm">There are no tags of this kind yet: add one first.</Text>
          )}
        </Stack>
      </Fieldset>
    </ItemForm>
  );
}
