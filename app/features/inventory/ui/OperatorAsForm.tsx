import { Button, Group, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { Form } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import type { OperatorAs } from "../inventory.server";
import { FormProblem, useFormReset } from "~/components/EditForms";
import { type FormState } from "./fields";

/** "Your network": the operator's own AS number, by which the flows screens tell ingress from egress. */
export function OperatorAsForm({ stored, state }: { stored: OperatorAs | null; state: FormState }) {
  const { values, errors } = state;
  const ref = useFormReset();
  return (
    <Paper withBorder p="md" data-testid="operator-as">
      <Form ref={ref} method="post" action="/site-settings/inventory" aria-label="Your network">
        <CsrfField />
        <input type="hidden" name="intent" value="set-operator-as" />
        <Stack>
          <Title order={2} size="h3">
            Your network
          </Title>
          <Text size="sm" data-testid="operator-as-current">
            {stored
              ? `Your AS number: AS${stored.asn} (${stored.name}).`
              : "Your AS number is not set: the Flow Explorer and the other flows screens cannot split traffic into ingress and egress until it is."}
          </Text>
          <FormProblem errors={errors} />
          <Group align="flex-start">
            <TextInput
              label="Your AS number"
              description="Public or private, for example 64500."
              name="operator_as"
              inputMode="numeric"
              required
              defaultValue={values.operator_as ?? ""}
              error={errors.operator_as}
            />
          </Group>
          <Button type="submit" w="fit-content">
            Save the AS number
          </Button>
        </Stack>
      </Form>
    </Paper>
  );
}
