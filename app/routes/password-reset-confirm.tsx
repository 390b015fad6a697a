import { Alert, Anchor, Button, Center, Paper, PasswordInput, Stack, Text, Title } from "@mantine/core";
import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { MESSAGES } from "~/lib/messages";
import { getRequestContext, readProtectedForm } from "~/server/auth/guard.server";
import { checkResetToken, confirmReset, PASSWORD_MIN_LENGTH, RESET_TEXTS } from "~/server/auth/password-reset.server";
import { destroySession } from "~/server/auth/session.server";

// The token is in the URL: it must not travel on in a Referer header, not even to this site's own
// assets (the meta tag holds even where a global header policy is looser). "strict-origin" sends
// the origin only, never the path and query; not "no-referrer", under which browsers send
// `Origin: null` with the form's POST, which the framework's own CSRF check refuses (the page then
// failed without JavaScript).
export const meta: MetaFunction = () => [{ title: "Choose a new password · flowlens" }, { name: "referrer", content: "strict-origin" }];

const NO_REFERRER = { "Referrer-Policy": "strict-origin", "Cache-Control": "no-store" };
export const headers: HeadersFunction = () => NO_REFERRER;

/**
 * The page a reset, invitation or welcome mail links to (shell §2: session initialised only). A link
 * that fails — expired, used, replaced by a newer one, or its account deactivated — shows the
 * catalogue's e-mail verification failure (shell §8) with its hint.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { services } = await getRequestContext(request);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const valid = Boolean(await checkResetToken(services.pg.db, token));
  return data(
    {
      token,
      valid,
      error: valid ? null : MESSAGES.emailVerificationFailed,
      hint: MESSAGES.emailVerificationHint,
      minLength: PASSWORD_MIN_LENGTH,
    },
    { headers: NO_REFERRER },
  );
}

type ActionResult = { done: true; message: string } | { done: false; error: string; tokenProblem: boolean };

export async function action({ request }: ActionFunctionArgs) {
  const form = await readProtectedForm(request);
  const { services, session } = await getRequestContext(request);
  const token = String(form.get("token") ?? "");
  const password = String(form.get("new_password") ?? "");
  const repeated = String(form.get("new_password_repeat") ?? "");
  if (password !== repeated && (await checkResetToken(services.pg.db, token))) {
    return data<ActionResult>(
      { done: false, error: RESET_TEXTS.passwordsDiffer, tokenProblem: false },
      { status: 400, headers: NO_REFERRER },
    );
  }
  const result = await confirmReset(services.pg.db, token, password);
  if (!result.ok) {
    const tokenProblem = result.reason === "token";
    return data<ActionResult>(
      { done: false, error: tokenProblem ? MESSAGES.emailVerificationFailed : result.message, tokenProblem },
      { status: 400, headers: NO_REFERRER },
    );
  }
  // All sessions of the account were ended; if this browser held one of them, clear its cookies too.
  const headers = new Headers(NO_REFERRER);
  if (session.user?.id === result.userId) {
    const cleared = await destroySession(services.pg.db, services.config.sessionSecret, request, session.idHash);
    for (const cookie of cleared.getSetCookie()) headers.append("Set-Cookie", cookie);
  }
  return data<ActionResult>({ done: true, message: RESET_TEXTS.done }, { headers });
}

export default function PasswordResetConfirm() {
  const { token, valid, error, hint, minLength } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const tokenProblem = !valid || (result && !result.done && result.tokenProblem);
  return (
    <Center mih="100vh" bg="gray.0" p="md">
      <Paper withBorder shadow="sm" p="xl" w={420} radius="md" component="main">
        <Stack>
          <Title order={1} size="h2">
            Choose a new password
          </Title>
          {result?.done ? (
            <>
              <Alert color="green">{result.message}</Alert>
              <Button component="a" href="/login">
                Log in
              </Button>
            </>
          ) : tokenProblem ? (
            <>
              <Alert color="red" title={result && !result.done ? result.error : error}>
                {hint}
              </Alert>
              <Anchor href="/password-reset" size="sm">
                Request a new link
              </Anchor>
              <Anchor href="/login" size="sm">
                Log in
              </Anchor>
            </>
          ) : (
            <Form method="post" action={`/password-reset-confirm?token=${encodeURIComponent(token)}`} noValidate>
              <Stack>
                <Text c="dimmed" size="sm">
                  Choose a password of at least {minLength} characters.
                </Text>
                {result && !result.done ? <Alert color="red">{result.error}</Alert> : null}
                <PasswordInput name="new_password" label="New password" autoComplete="new-password" required minLength={minLength} />
                <PasswordInput name="new_password_repeat" label="Repeat the new password" autoComplete="new-password" required />
                <input type="hidden" name="token" value={token} />
                <CsrfField />
                <Button type="submit" loading={navigation.state === "submitting"}>
                  Set password
                </Button>
              </Stack>
            </Form>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
