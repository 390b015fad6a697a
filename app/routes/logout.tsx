import { Anchor, Button, Center, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { getRequestContext, readProtectedForm } from "~/server/auth/guard.server";
import { isSameOriginRequest } from "~/server/auth/request-origin.server";
import { destroySession } from "~/server/auth/session.server";

export const meta: MetaFunction = () => [{ title: "Log out · flowlens" }];

const NO_PERMISSIONS = "no-permissions";

async function logout(request: Request, reason: string | null) {
  const { services, session } = await getRequestContext(request);
  const headers = await destroySession(services.pg.db, services.config.sessionSecret, request, session.idHash);
  return redirect(reason === NO_PERMISSIONS ? `/login?reason=${NO_PERMISSIONS}` : "/login", { headers });
}

/**
 * GET /logout (shell §2: logs out, then redirects to login). Only requests from the app itself (or
 * a typed address) log out at once; a link on another site gets a one-button confirmation instead,
 * so no page elsewhere can end a user's session. Without a session there is nothing to confirm.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const reason = new URL(request.url).searchParams.get("reason") === NO_PERMISSIONS ? NO_PERMISSIONS : null;
  const { session } = await getRequestContext(request);
  const signedIn = session.status === "LOGGED_IN" || session.status === "PENDING_2FA";
  if (!signedIn || isSameOriginRequest(request)) throw await logout(request, reason);
  return { reason };
}

/** POST /logout: the header's button and the confirmation, both forms with the CSRF field. */
export async function action({ request }: ActionFunctionArgs) {
  let form: FormData;
  try {
    form = await readProtectedForm(request);
  } catch (error) {
    // A post from elsewhere (no valid CSRF field): ask instead of logging out.
    if (error instanceof Response) throw redirect("/logout");
    throw error;
  }
  return logout(request, form.get("reason") === NO_PERMISSIONS ? NO_PERMISSIONS : null);
}

export default function LogoutConfirmation() {
  const { reason } = useLoaderData<typeof loader>();
  return (
    <Center mih="100vh" bg="gray.0" p="md">
      <Paper withBorder shadow="sm" p="xl" maw={480} radius="md" component="main">
        <Form method="post" action="/logout">
          <Stack>
            <Title order={1} size="h2">
              Log out
            </Title>
            <Text>Do you want to log out of flowlens?</Text>
            <CsrfField />
            {reason ? <input type="hidden" name="reason" value={reason} /> : null}
            <Group justify="flex-end">
              <Anchor href="/">Stay logged in</Anchor>
              <Button type="submit">Log out</Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </Center>
  );
}
