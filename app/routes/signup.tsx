import { Alert, Anchor, Button, Center, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { takeAnonymousCall } from "~/server/auth/anonymous-limits.server";
import { getRequestContext, readPageForm } from "~/server/auth/guard.server";
import { createUserRequest, NAME_MAX_LENGTH, selfSignupEnabled, SIGNUP_TEXTS, type FieldError } from "~/server/auth/user-requests.server";

export const meta: MetaFunction = () => [{ title: "Sign up · flowlens" }];

/** Logged-in users go to their first route ("/" decides); with self-signup off, visitors go to login (shell §2). */
async function guard(request: Request) {
  const context = await getRequestContext(request);
  if (context.session.status === "LOGGED_IN" && context.session.user) throw redirect("/");
  if (!(await selfSignupEnabled(context.services.pg.db))) throw redirect("/login");
  return context;
}

export async function loader({ request }: LoaderFunctionArgs) {
  await guard(request);
  return { nameMaxLength: NAME_MAX_LENGTH };
}

type ActionResult =
  | { sent: true; message: string }
  | { sent: false; detail: string; errors: FieldError[]; values: { email: string; first_name: string; last_name: string } };

export async function action({ request }: ActionFunctionArgs) {
  const read = await readPageForm(request);
  const { services } = await guard(request);
  const empty = { email: "", first_name: "", last_name: "" };
  if (!read.ok) {
    const errors = read.field && read.field in empty ? [{ field: read.field as FieldError["field"], message: read.error }] : [];
    return data<ActionResult>({ sent: false, detail: read.error, errors, values: empty }, { status: read.status });
  }
  const form = read.form;
  const values = {
    email: String(form.get("email") ?? ""),
    first_name: String(form.get("first_name") ?? ""),
    last_name: String(form.get("last_name") ?? ""),
  };
  const limit = takeAnonymousCall("signup", request);
  if (!limit.allowed) {
    return data<ActionResult>(
      { sent: false, detail: limit.message, errors: [], values },
      { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } },
    );
  }
  const result = await createUserRequest(services.pg.db, values);
  if (!result.ok) return data<ActionResult>({ sent: false, detail: result.detail, errors: result.errors, values }, { status: 400 });
  return data<ActionResult>({ sent: true, message: SIGNUP_TEXTS.sent });
}

export default function Signup() {
  const { nameMaxLength } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const failed = result && !result.sent ? result : null;
  const fieldError = (field: FieldError["field"]) => failed?.errors.find((e) => e.field === field)?.message;
  return (
    <Center mih="100vh" bg="gray.0" p="md">
      <Paper withBorder shadow="sm" p="xl" w={420} radius="md" component="main">
        <Stack>
          <Title order={1} size="h2">
            Request an account
          </Title>
          {result?.sent ? (
            <>
              <Alert color="green">{result.message}</Alert>
              <Anchor href="/login" size="sm">
                Back to login
              </Anchor>
            </>
          ) : (
            <Form method="post" action="/signup" noValidate>
              <Stack>
                <Text c="dimmed" size="sm">
                  Tell us who you are. An administrator reviews every request.
                </Text>
                {failed ? <Alert color="red">{failed.detail}</Alert> : null}
                <TextInput
                  name="email"
                  type="email"
                  label="E-mail"
                  autoComplete="email"
                  required
                  defaultValue={failed?.values.email}
                  error={fieldError("email")}
                />
                <TextInput
                  name="first_name"
                  label="First name"
                  autoComplete="given-name"
                  required
                  maxLength={nameMaxLength}
                  defaultValue={failed?.values.first_name}
                  error={fieldError("first_name")}
                />
                <TextInput
                  name="last_name"
                  label="Last name"
                  autoComplete="family-name"
                  required
                  maxLength={nameMaxLength}
                  defaultValue={failed?.values.last_name}
                  error={fieldError("last_name")}
                />
                <CsrfField />
                <Button type="submit" loading={navigation.state === "submitting"}>
                  Send request
                </Button>
                <Anchor href="/login" size="sm">
                  Already have an account? Log in
                </Anchor>
              </Stack>
            </Form>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
