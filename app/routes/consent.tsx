import { Alert, Button, Center, Group, List, Paper, Stack, Text, Title } from "@mantine/core";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { recordConsent, withdrawConsent } from "~/server/auth/consent.server";
import { getRequestContext, loginRedirect, readProtectedForm, safeNext } from "~/server/auth/guard.server";
import { destroySession } from "~/server/auth/session.server";
import { log } from "~/server/log.server";

export const meta: MetaFunction = () => [{ title: "Data protection consent · flowlens" }];

/**
 * The GDPR consent page (shell §4, §6): the only page a logged-in user without consent can reach
 * (requireUser sends them here). Accept records the consent and continues to `next`; Decline logs out.
 */
async function loggedInContext(request: Request) {
  const context = await getRequestContext(request);
  const { session } = context;
  if (session.status === "PENDING_2FA") throw redirect("/login");
  if (session.status !== "LOGGED_IN" || !session.user) throw loginRedirect(request);
  return { ...context, user: session.user };
}

/** Where to continue after consenting: a local path, never this page again. */
function continueTo(value: string | null | undefined): string | null {
  const next = safeNext(value);
  return next && !/^\/consent(?:[/?#]|$)/.test(next) ? next : null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await loggedInContext(request);
  const next = continueTo(new URL(request.url).searchParams.get("next"));
  if (user.hasConsented) throw redirect(next ?? "/");
  return { next, firstName: user.firstName };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readProtectedForm(request);
  const { services, session, user } = await loggedInContext(request);
  const next = continueTo(String(form.get("next") ?? ""));
  const { db } = services.pg;
  const intent = form.get("intent");
  if (intent !== "accept" && intent !== "decline" && intent !== "withdraw")
    return data({ error: "Choose to consent or to decline." }, { status: 400 });
  if (intent === "accept") {
    await recordConsent(db, user.id);
    log.info(`user #${user.id} gave the GDPR consent`);
    throw redirect(next ?? "/");
  }
  // Declining, or withdrawing an earlier consent (from the settings page): no processing without
  // consent, so the session ends here; the next login asks again.
  if (intent === "withdraw") {
    await withdrawConsent(db, user.id);
    log.info(`user #${user.id} withdrew the GDPR consent; session ended`);
  }
  const headers = await destroySession(db, services.config.sessionSecret, request, session.idHash);
  throw redirect("/login", { headers });
}

export default function Consent() {
  const { next, firstName } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const intent = navigation.formData?.get("intent");
  return (
    <Center mih="100vh" bg="gray.0" p="md">
      <Paper withBorder shadow="sm" p="xl" maw={640} radius="md" component="main">
        <Form method="post" action={`/consent${next ? `?next=${encodeURIComponent(next)}` : ""}`}>
          <Stack>
            <Title order={1} size="h2">
              Data protection consent
            </Title>
            <Text>
              {firstName ? `Welcome, ${firstName}. ` : ""}Before you can use flowlens we need your consent to process personal data about
              you, as described below (General Data Protection Regulation, Art. 6(1)(a)).
            </Text>
            <Title order={4}>What we process</Title>
            <List size="sm" spacing={4}>
              <List.Item>Your account data: name, e-mail address, permissions, group memberships and settings.</List.Item>
              <List.Item>
                Session and security data: login times, the network address and browser of each session, login attempts.
              </List.Item>
              <List.Item>
                How you use the application: the tools and queries you open, notifications, and error reports sent by your browser.
              </List.Item>
              <List.Item>Messages you send to support.</List.Item>
            </List>
            <Title order={4}>Why</Title>
            <Text size="sm">
              To provide the analytics service, keep your account secure, investigate errors and answer your requests. The data is not used
              for advertising and not shared outside the operator of this installation.
            </Text>
            <Title order={4}>Your rights</Title>
            <Text size="sm">
              You can withdraw your consent at any time in your settings; withdrawing ends your access until you consent again. You can ask
              for a copy of your data, have it corrected, or delete your account. Declining here logs you out.
            </Text>
            <Alert color="blue" variant="light">
              Without your consent you cannot use flowlens.
            </Alert>
            <CsrfField />
            <input type="hidden" name="next" value={next ?? ""} />
            <Group justify="flex-end">
              <Button type="submit" name="intent" value="decline" variant="default" disabled={busy} loading={busy && intent === "decline"}>
                Decline and log out
              </Button>
              <Button type="submit" name="intent" value="accept" disabled={busy} loading={busy && intent === "accept"}>
                I consent
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </Center>
  );
}
