import { Alert, Anchor, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { CsrfField } from "~/components/CsrfField";
import { MESSAGES } from "~/lib/messages";
import { notifications } from "@mantine/notifications";
import { accountContactLink, type ContactLink } from "~/server/auth/account-contact.server";
import {
  AccountDeactivatedError,
  authenticateLoginForm,
  InvalidCredentialsError,
  LoginThrottledError,
  retryAfterHeader,
} from "~/server/auth/authenticator.server";
import { getRequestContext, landingRoute, readPageForm } from "~/server/auth/guard.server";
import { safeFragment, safeNext } from "~/server/auth/redirect-target.server";
import { selfSignupEnabled } from "~/server/auth/user-requests.server";
import { HashingBusyError } from "~/server/password.server";
import { sessionStateAfterPassword } from "~/server/auth/second-factor-gate.server";
import { clearLoggedInCookieHeader, createSession } from "~/server/auth/session.server";

/** Shown when the second login step gave up (too many codes, or its 5 minutes ran out). */
const TWO_FACTOR_RESTART = "The two-factor step was not completed. Please log in again.";

export const meta: MetaFunction = () => [{ title: "Log in · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, session } = await getRequestContext(request);
  const url = new URL(request.url);
  // Password given, second factor outstanding: that step, keeping the destination.
  if (session.status === "PENDING_2FA" && session.user) throw redirect(`/login/2fa${url.search}`);
  if (session.status === "LOGGED_IN" && session.user) {
    throw redirect(safeNext(url.searchParams.get("next")) ?? (await landingRoute(services, session.user)));
  }
  const twoFactorRestart = url.searchParams.get("reason") === "2fa";
  // A lapsed second step also leaves the logged_in cookie behind: say what happened, not "inactivity".
  const expired = !twoFactorRestart && (session.status === "EXPIRED" || url.searchParams.get("expired") === "1");
  const signupEnabled = await selfSignupEnabled(services.pg.db);
  return data(
    {
      next: safeNext(url.searchParams.get("next")),
      expired,
      noPermissions: url.searchParams.get("reason") === "no-permissions",
      twoFactorRestart,
      signupEnabled,
    },
    // The inactivity message is shown once: the marker of the old session goes with it.
    { headers: session.status === "EXPIRED" ? { "Set-Cookie": clearLoggedInCookieHeader(request) } : undefined },
  );
}

/** Field names as the form labels them, for messages about one field. */
const FIELD_LABELS: Record<string, string> = { email: "E-mail", password: "Password" };

export async function action({ request }: ActionFunctionArgs) {
  const read = await readPageForm(request);
  if (!read.ok) {
    const error = read.field ? `${FIELD_LABELS[read.field] ?? read.field}: ${read.error}` : read.error;
    return data({ error, email: "" }, { status: read.status });
  }
  const form = read.form;
  const email = String(form.get("email") ?? "");
  const next = safeNext(String(form.get("next") ?? ""));
  try {
    const { id } = await authenticateLoginForm(request, form);
    const { services } = await getRequestContext(request);
    const db = services.pg.db;
    const fragment = safeFragment(String(form.get("hash") ?? ""));
    if ((await sessionStateAfterPassword(db, id)) === "PENDING_2FA") {
      // The password alone is not enough: a short-lived PENDING_2FA session until the code is given.
      const headers = await createSession(db, services.config.sessionSecret, request, id, "PENDING_2FA");
      return redirect(`/login/2fa${next ? `?next=${encodeURIComponent(next)}` : ""}${fragment}`, { headers });
    }
    const headers = await createSession(db, services.config.sessionSecret, request, id, "LOGGED_IN");
    return redirect(next ? next + fragment : "/", { headers });
  } catch (error) {
    // Too many failures (429) or the server busy checking other logins (503): say when to retry.
    if (error instanceof LoginThrottledError)
      return data({ error: error.message, email }, { status: 429, headers: retryAfterHeader(error) });
    if (error instanceof HashingBusyError) return data({ error: error.message, email }, { status: 503, headers: retryAfterHeader(error) });
    // The right password for a deactivated account: its own message, with where to turn.
    if (error instanceof AccountDeactivatedError) {
      const { services } = await getRequestContext(request);
      const contact: ContactLink = await accountContactLink(services.pg.db, error.userId, services.config.SUPPORT_EMAIL);
      return data({ error: error.message, email, contact }, { status: error.status });
    }
    if (error instanceof InvalidCredentialsError) return data({ error: error.message, email }, { status: error.status });
    throw error;
  }
}

export default function Login() {
  const { next, expired, noPermissions, twoFactorRestart, signupEnabled } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const contact = actionData && "contact" in actionData ? (actionData.contact as ContactLink) : null;
  const navigation = useNavigation();
  // The URL hash never reaches the server: a script copies it into the form so it survives login.
  const [hash, setHash] = useState("");
  useEffect(() => setHash(window.location.hash), []);
  // With JavaScript the spec's 'No Permissions' toast accompanies the notice on the page.
  useEffect(() => {
    if (noPermissions) notifications.show({ color: "red", title: MESSAGES.noPermissionsTitle, message: MESSAGES.noPermissions });
  }, [noPermissions]);
  return (
    <Center component="main" mih="100vh" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" w={380} radius="md">
        <Form method="post" action={`/login${next ? `?next=${encodeURIComponent(next)}` : ""}`}>
          <Stack>
            <Title order={1} size="h2">
              flowlens
            </Title>
            <Text c="dimmed" size="sm">
              Log in to analyse your network's traffic.
            </Text>
            {expired ? <Alert color="yellow">{MESSAGES.sessionExpired}</Alert> : null}
            {twoFactorRestart ? <Alert color="yellow">{TWO_FACTOR_RESTART}</Alert> : null}
            {noPermissions ? (
              <Alert color="red" title={MESSAGES.noPermissionsTitle}>
                {MESSAGES.noPermissions}
              </Alert>
            ) : null}
            {/* The answer to the previous attempt goes as soon as the next one is on its way. */}
            {actionData?.error && navigation.state === "idle" ? (
              <Alert color="red" role="alert">
                {actionData.error}
                {contact ? (
                  <>
                    {" "}
                    <Anchor href={contact.href} size="sm" data-testid="deactivated-contact">
                      {contact.label}
                    </Anchor>
                  </>
                ) : null}
              </Alert>
            ) : null}
            <TextInput name="email" type="email" label="E-mail" autoComplete="username" required defaultValue={actionData?.email} />
            <PasswordInput name="password" label="Password" autoComplete="current-password" required />
            <CsrfField />
            <input type="hidden" name="next" value={next ?? ""} />
            <input type="hidden" name="hash" value={hash} />
            <Button type="submit" loading={navigation.state === "submitting"}>
              Log in
            </Button>
            <Anchor href="/password-reset" size="sm">
              Forgot your password?
            </Anchor>
            {signupEnabled ? (
              <Anchor href="/signup" size="sm">
                Request an account
              </Anchor>
            ) : null}
          </Stack>
        </Form>
      </Paper>
    </Center>
  );
}
