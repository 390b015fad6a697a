import { Alert, Anchor, Button, Center, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { isValidEmail, normalizeEmail } from "~/lib/email";
import { MESSAGES } from "~/lib/messages";
import { takeAnonymousCall } from "~/server/auth/anonymous-limits.server";
import { getRequestContext, readPageForm } from "~/server/auth/guard.server";
import { requestReset, RESET_TEXTS } from "~/server/auth/password-reset.server";

export const meta: MetaFunction = () => [{ title: "Reset your password · flowlens" }];

/** "Forgot your password?" (shell §2: session initialised only; logged-in users may use it too). */
export async function loader({ request }: LoaderFunctionArgs) {
  await getRequestContext(request);
  return null;
}

type ActionResult = { sent: true; message: string } | { sent: false; error: string; email: string };

export async function action({ request }: ActionFunctionArgs) {
  const read = await readPageForm(request);
  if (!read.ok)
    return data<ActionResult>(
      { sent: false, error: read.field === "email" ? MESSAGES.emailFormat : read.error, email: "" },
      { status: read.status },
    );
  const { services } = await getRequestContext(request);
  const email = String(read.form.get("email") ?? "");
  // The format can be judged without revealing anything; whether an account exists cannot.
  if (!isValidEmail(normalizeEmail(email))) return data<ActionResult>({ sent: false, error: MESSAGES.emailFormat, email }, { status: 400 });
  const limit = takeAnonymousCall("passwordReset", request);
  if (!limit.allowed) {
    return data<ActionResult>(
      { sent: false, error: limit.message, email },
      { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } },
    );
  }
  await requestReset(services.pg.db, email);
  return data<ActionResult>({ sent: true, message: RESET_TEXTS.requested });
}

export default function PasswordReset() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const failed = result && !result.sent ? result : null;
  return (
    <Center mih="100vh" bg="gray.0" p="md">
      <Paper withBorder shadow="sm" p="xl" w={420} radius="md" component="main">
        <Stack>
          <Title order={1} size="h2">
            Reset your password
          </Title>
          {result?.sent ? (
            <Alert color="green">{result.message}</Alert>
          ) : (
            <Form method="post" action="/password-reset" noValidate>
              <Stack>
                <Text c="dimmed" size="sm">
                  Enter the e-mail address of your account. We will send you a link to choose a new password.
                </Text>
                <TextInput
                  name="email"
                  type="email"
                  label="E-mail"
                  autoComplete="username"
                  required
                  defaultValue={failed?.email}
                  error={failed?.error}
                />
                <CsrfField />
                <Button type="submit" loading={navigation.state === "submitting"}>
                  Send reset link
                </Button>
              </Stack>
            </Form>
          )}
          <Anchor href="/login" size="sm">
            Back to login
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
