import { Badge, Button, Card, Group, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { CsrfField } from "~/components/CsrfField";
import { formatDateLong, safeTimezone } from "~/lib/date-format";
import { readProtectedForm, requireUser } from "~/server/auth/guard.server";
import { getUserSettings } from "~/server/settings/user-settings.server";
import { deleteNotification, listNotifications, updateNotifications } from "~/server/notifications/notifications.server";

export const meta: MetaFunction = () => [{ title: "Notifications · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request);
  const showArchived = new URL(request.url).searchParams.get("archived") === "1";
  const [notifications, settings] = await Promise.all([
    listNotifications(services.pg.db, user.id, { includeArchived: showArchived }),
    getUserSettings(services.pg.db, user.id),
  ]);
  return { notifications, showArchived, timezone: safeTimezone(settings.timezone) };
}

const Intent = z.object({
  id: z.coerce.number().int().positive(),
  intent: z.enum(["read", "unread", "archive", "delete"]),
});

/** The page's buttons: one form per action, so they work without JavaScript. */
export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireUser(request);
  const form = await readProtectedForm(request);
  const parsed = Intent.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: "Unknown notification action." };
  const { id, intent } = parsed.data;
  if (intent === "delete") await deleteNotification(services.pg.db, user.id, id);
  else
    await updateNotifications(services.pg.db, user.id, [
      intent === "archive" ? { id, is_archived: true } : { id, is_read: intent === "read" },
    ]);
  const url = new URL(request.url);
  return redirect(`/notifications${url.searchParams.get("archived") === "1" ? "?archived=1" : ""}`);
}

function ActionButton({ id, intent, label }: { id: number; intent: string; label: string }) {
  return (
    <Form method="post" style={{ display: "inline" }}>
      <CsrfField />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="intent" value={intent} />
      <Button type="submit" size="xs" variant="default" color={intent === "delete" ? "red" : undefined}>
        {label}
      </Button>
    </Form>
  );
}

export default function Notifications() {
  const { notifications, showArchived, timezone } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  return (
    <Stack maw={860}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Notifications
        </Title>
        <SegmentedControl
          value={showArchived ? "all" : "inbox"}
          data={[
            {
              value: "inbox",
              label: (
                <Link to="/notifications" style={{ color: "inherit", textDecoration: "none" }}>
                  Inbox
                </Link>
              ),
            },
            {
              value: "all",
              label: (
                <Link to="/notifications?archived=1" style={{ color: "inherit", textDecoration: "none" }}>
                  All, with archived
                </Link>
              ),
            },
          ]}
        />
      </Group>
      {notifications.length === 0 ? <Text c="dimmed">No notifications.</Text> : null}
      {notifications.map((n) => (
        <Card key={n.id} withBorder padding="md" opacity={navigation.state !== "idle" ? 0.7 : 1} data-testid="notification">
          <Group justify="space-between" align="flex-start">
            <Stack gap={4}>
              <Group gap="xs">
                <Text fw={n.is_read ? 400 : 700}>{n.title}</Text>
                {!n.is_read ? <Badge size="xs">unread</Badge> : null}
                {n.is_archived ? (
                  <Badge size="xs" color="gray">
                    archived
                  </Badge>
                ) : null}
              </Group>
              {n.message ? <Text size="sm">{n.message}</Text> : null}
              <Text size="xs" c="dimmed" data-testid="notification-time">
                {formatDateLong(n.created_at, timezone)}
              </Text>
            </Stack>
            <Group gap={6}>
              <ActionButton id={n.id} intent={n.is_read ? "unread" : "read"} label={n.is_read ? "Mark unread" : "Mark read"} />
              {!n.is_archived ? <ActionButton id={n.id} intent="archive" label="Archive" /> : null}
              <ActionButton id={n.id} intent="delete" label="Delete" />
            </Group>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}
