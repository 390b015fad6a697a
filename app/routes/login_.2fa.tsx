import { Alert, Anchor, Button, Center, Code, Group, Image, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { CsrfField } from "~/components/CsrfField";
import { getRequestContext, readProtectedForm, type RequestContext } from "~/server/auth/guard.server";
import { redirectTarget, safeNext } from "~/server/auth/redirect-target.server";
import { clientAddress } from "~/server/auth/session.server";
import { neverCachedHeaders } from "~/server/security-headers.server";
import {
  confirmDevice,
  enrolmentKey,
  promoteSession,
  secondFactorError,
  twoFactorStatus,
  TwoFactorError,
  verifySecondFactor,
} from "~/server/auth/two-factor.server";

/** The second login step (shell spec §4 PENDING_2FA): a TOTP or recovery code, or enrolment when 2FA is mandatory. */

export const meta: MetaFunction = () => [{ title: "Two-factor authentication · flowlens" }];

/** Secrets and one-time data: never cached. */
export const headers = neverCachedHeaders;

/** Where a session that is not waiting for its second factor belongs. */
function notPending({ session }: RequestContext, next: string | null): string {
  const query = new URLSearchParams();
  if (next) query.set("next", next);
  // A pending step that lapsed (5 minutes) leaves the logged_in cookie: EXPIRED.
  if (session.status === "EXPIRED") query.set("reason", "2fa");
  const search = query.toString();
  return `/login${search ? `?${search}` : ""}`;
}

function target(next: string | null, hash: string): string {
  return redirectTarget(next, hash, "/");
}

export async function loader({ request }: LoaderFunctionArgs) {
  const context = await getRequestContext(request);
  const { services, session } = context;
  const next = safeNext(new URL(request.url).searchParams.get("next"));
  if (session.status !== "PENDING_2FA" || !session.user || !session.idHash) throw redirect(notPending(context, next));
  const db = services.pg.db;
  const status = await twoFactorStatus(db, session.user.id);
  if (!status.required) {
    // 2FA was switched off (or reset) since the password was checked: nothing left to ask.
    const headers = await promoteSession(db, services.config.sessionSecret, request, session.idHash, session.user.id);
    throw redirect(target(next, ""), { headers });
  }
  if (status.mustEnrol) {
    const key = await enrolmentKey(db, session.user.id);
    return { mode: "enrol" as const, next, email: session.user.email, key: { id: key.id, secret: key.secret, qrDataUrl: key.qrDataUrl } };
  }
  return { mode: "verify" as const, next, email: session.user.email, key: null };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readProtectedForm(request);
  const context = await getRequestContext(request);
  const { services, session } = context;
  const next = safeNext(String(form.get("next") ?? ""));
  if (session.status !== "PENDING_2FA" || !session.user || !session.idHash) throw redirect(notPending(context, next));
  const db = services.pg.db;
  const userId = session.user.id;
  const code = String(form.get("code") ?? "").trim();
  if (form.get("intent") === "enrol") {
    const status = await twoFactorStatus(db, userId);
    if (!status.mustEnrol) throw redirect(`/login/2fa${next ? `?next=${encodeURIComponent(next)}` : ""}`);
    try {
      await confirmDevice(db, userId, Number(form.get("deviceId")), code);
    } catch (error) {
      if (error instanceof TwoFactorError) return data({ error: error.message }, { status: error.status });
      throw error;
    }
  } else {
    const result = await verifySecondFactor(db, userId, code, { clientAddress: clientAddress(request) });
    if (!result.ok) {
      const { message, status } = secondFactorError(result);
      return data({ error: message }, { status });
    }
  }
  const headers = await promoteSession(db, services.config.sessionSecret, request, session.idHash, userId);
  return redirect(target(next, String(form.get("hash") ?? "")), { headers });
}

export default function TwoFactorStep() {
  const { mode, next, email, key } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  // The destination's hash never reaches the server: copied into the form, as on the login page.
  const [hash, setHash] = useState("");
  useEffect(() => setHash(window.location.hash), []);
  const formAction = `/login/2fa${next ? `?next=${encodeURIComponent(next)}` : ""}`;
  return (
    <Center component="main" mih="100vh" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" w={mode === "enrol" ? 460 : 380} radius="md">
        <Form method="post" action={formAction}>
          <Stack>
            <Title order={1} size="h2">
              Two-factor authentication
            </Title>
            <Text c="dimmed" size="sm">
              Signed in as {email}.
            </Text>
            {mode === "enrol" && key ? (
              <>
                <Text size="sm">
                  Two-factor authentication is mandatory. Scan this QR code with an authenticator app, or enter the key by hand, then enter
                  the 6-digit code the app shows.
                </Text>
                <Center>
                  <Image src={key.qrDataUrl} alt="QR code for your authenticator app" w={220} h={220} />
                </Center>
                <Text size="sm">
                  Key:{" "}
                  <Code data-testid="totp-secret" style={{ wordBreak: "break-all" }}>
                    {key.secret}
                  </Code>
                </Text>
                <input type="hidden" name="intent" value="enrol" />
                <input type="hidden" name="deviceId" value={key.id} />
              </>
            ) : (
              <>
                <Text size="sm">Enter the 6-digit code from your authenticator app, or one of your recovery codes.</Text>
                <input type="hidden" name="intent" value="verify" />
              </>
            )}
            {actionData?.error ? (
              <Alert color="red" role="alert">
                {actionData.error}
              </Alert>
            ) : null}
            <TextInput
              name="code"
              label={mode === "enrol" ? "Code from the app" : "Code"}
              autoComplete="one-time-code"
              autoFocus
              required
              maxLength={32}
              spellCheck={false}
              autoCapitalize="off"
            />
            <CsrfField />
            <input type="hidden" name="next" value={next ?? ""} />
            <input type="hidden" name="hash" value={hash} />
            <Group justify="space-between">
              <Anchor href="/logout" size="sm">
                Cancel
              </Anchor>
              <Button type="submit" loading={navigation.state === "submitting"}>
                {mode === "enrol" ? "Confirm and continue" : "Verify"}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </Center>
  );
}
