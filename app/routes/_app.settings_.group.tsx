import { Alert, Anchor, Stack, Title } from "@mantine/core";
import { data, redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { MESSAGES } from "~/lib/messages";
import { readProtectedForm, requireUser, safeNext } from "~/server/auth/guard.server";
import { parseGroupList, setOwnGroups } from "~/server/settings/groups.server";
import { SettingsError } from "~/server/settings/user-settings.server";

/**
 * POST /settings/group: the header's group switcher. Success: back to the page it came from (a
 * reload) — or { ok: true } for the script, which reloads the page itself. Failure: the spec's
 * "The application failed to set the Group." (a toast with JavaScript, this page without).
 */
export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireUser(request);
  const form = await readProtectedForm(request);
  const back = safeNext(String(form.get("back") ?? "")) ?? "/";
  const viaScript = form.get("mode") === "fetch";
  try {
    await setOwnGroups(services.pg.db, user, parseGroupList(form.getAll("groups").map(String)));
  } catch (error) {
    if (error instanceof SettingsError) {
      return data(
        { ok: false as const, error: MESSAGES.groupSwitchFailed, reason: error.errors[0]?.message ?? error.message, back },
        { status: error.status },
      );
    }
    throw error;
  }
  if (viaScript) return { ok: true as const };
  return redirect(back);
}

export async function loader({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return null;
}

export const meta: MetaFunction = () => [{ title: "Group · flowlens" }];

export default function GroupResult() {
  const result = useActionData<typeof action>();
  const failed = result && !result.ok ? result : null;
  return (
    <Stack maw={640}>
      <Title order={1} size="h2">
        Group
      </Title>
      {failed ? (
        <Alert color="red" role="alert" title={failed.error}>
          {failed.reason}
        </Alert>
      ) : (
        <Alert color="blue">Use the group switcher in the header to change your group.</Alert>
      )}
      <Anchor component={Link} to={failed?.back ?? "/settings"}>
        Back
      </Anchor>
    </Stack>
  );
}
