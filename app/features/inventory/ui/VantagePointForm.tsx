import { Button, Checkbox, Paper, SimpleGrid, Stack, TextInput, Title } from "@mantine/core";
import { Form } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { FormProblem, useFormReset } from "~/components/EditForms";
import { type FormState } from "./fields";

/** Adds a vantage point (no `current`) or edits the one keyed `current`. */
export function VantagePointForm({ current, state, action }: { current: string | null; state: FormState; action: string }) {
  const { values, errors } = state;
  const ref = useFormReset();
  const field = (name: string) => ({ name, defaultValue: values[name] ?? "", error: errors[name] });
  const title = current ? `Edit vantage point ${current}` : "Add a vantage point";
  return (
    <Paper withBorder p="md">
      <Form ref={ref} method="post" action={action} aria-label={title}>
        <CsrfField />
        <input type="hidden" name="intent" value={current ? "update-vantage-point" : "create-vantage-point"} />
        {current ? <input type="hidden" name="current" value={current} /> : null}
        <Stack>
          <Title order={2} size="h4">
            {title}
          </Title>
          <FormProblem errors={errors} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Key" required description="Letters, digits, '.', '_' or '-'." {...field("key")} />
            <TextInput label="Router" required description="The router whose table it is." {...field("router")} />
            <TextInput label="City" required {...field("city")} />
            <TextInput label="Country" required {...field("country")} />
            <TextInput label="Address" required {...field("ip")} />
            <TextInput label="Description" {...field("description")} />
            <TextInput label="Legacy description" {...field("legacy_description")} />
          </SimpleGrid>
          <Checkbox
            name="public"
            label="Public (shown in the public Looking Glass)"
            defaultChecked={Boolean(values.public)}
            error={errors.public}
          />
          <Button type="submit" w="fit-content">
            {current ? "Save the vantage point" : "Add the vantage point"}
          </Button>
        </Stack>
      </Form>
    </Paper>
  );
}
