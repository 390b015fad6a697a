import { Alert, Anchor, Button, NativeSelect, Stack, Text, Textarea, Title } from "@mantine/core";
import { Form, Link, useNavigation } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { FormProblem } from "~/components/EditForms";
import type { SupportFormResult, supportFormScreen } from "~/server/support-messages.server";

/** The support form: what the message is about and the message; a plain form post (works without JavaScript). */
export function SupportFormView({ data, result }: { data: ReturnType<typeof supportFormScreen>; result: SupportFormResult | undefined }) {
  const busy = useNavigation().state === "submitting";
  const errors = result?.errors ?? {};
  return (
    <Stack maw={720} gap="md">
      <Title order={1} size="h2">
        Contact support
      </Title>
      <Text size="sm">
        Write to the team that runs this installation: a problem, a question or an idea. The answer comes by e-mail to the address of your
        account. Many questions are answered in the{" "}
        <Anchor component={Link} to="/faq">
          FAQ
        </Anchor>
        .
      </Text>
      {data.sent && !result ? (
        <Alert color="green" role="status" data-testid="support-sent">
          Thank you: your message was sent. You will get the answer by e-mail.
        </Alert>
      ) : null}
      <Form method="post">
        <CsrfField />
        <Stack gap="sm">
          <FormProblem errors={errors} />
          <NativeSelect
            name="type"
            label="What is it about?"
            data={data.types}
            defaultValue={result?.values.type ?? data.type}
            error={errors.type}
          />
          <Textarea
            name="message"
            label="Your message"
            required
            autosize
            minRows={6}
            maxLength={10_000}
            defaultValue={result?.values.message ?? ""}
            error={errors.message}
          />
          <div>
            <Button type="submit" loading={busy}>
              Send message
            </Button>
          </div>
        </Stack>
      </Form>
    </Stack>
  );
}
