import { Alert, Anchor, Badge, Button, Group, List, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { Form, Link } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { describeFeatureFlag, describePermission } from "~/lib/permission-catalogue";
import { usersUrl } from "../params";
import type { UsersActionResult, UsersIntent, UsersScreen } from "../users-screen.server";
import { AccountForm } from "./AccountForm";

/** A one-button POST form for one intent on one account. */
export function ActionForm({
  intent,
  id,
  label,
  action,
  color,
}: {
  intent: UsersIntent;
  id: number;
  label: string;
  action: string;
  color?: string;
}) {
  return (
    <Form method="post" action={action} aria-label={label} style={{ display: "inline" }}>
      <CsrfField />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <Button type="submit" size="xs" variant="light" color={color}>
        {label}
      </Button>
    </Form>
  );
}

export function KindBadges({ kinds }: { kinds: string[] }) {
  return (
    <>
      {kinds.map((k) => (
        <Badge
          key={k}
          variant="light"
          color={k === "Deactivated" ? "red" : k === "Invited" ? "yellow" : k === "Delegated" ? "grape" : "blue"}
        >
          {k}
        </Badge>
      ))}
    </>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </div>
  );
}

/** What the account holds, as titles (the read-only view of VIEW_USERS holders and of delegated accounts). */
function Grants({ selected }: { selected: NonNullable<UsersScreen["selected"]> }) {
  const r = selected.record;
  return (
    <Stack gap="xs">
      <Text size="sm">
        <b>Groups:</b> {r.groups.length ? r.groups.join(", ") : "none"}
      </Text>
      <Text size="sm" fw={600}>
        Permissions {r.is_superuser ? "(a superuser holds every permission)" : ""}
      </Text>
      {r.permissions.length || selected.facts.groupPermissions.length ? (
        <List size="sm">
          {r.permissions.map((p) => (
            <List.Item key={p}>
              {describePermission(p).title} ({p}) — {describePermission(p).explanation}
            </List.Item>
          ))}
          {selected.facts.groupPermissions
            .filter((g) => !r.permissions.includes(g.code))
            .map((g) => (
              <List.Item key={`${g.code}-${g.group}`}>
                {describePermission(g.code).title} ({g.code}) — through the group {g.group}
              </List.Item>
            ))}
        </List>
      ) : (
        <Text size="sm">none</Text>
      )}
      <Text size="sm">
        <b>Feature flags:</b> {r.feature_flags.length ? r.feature_flags.map((f) => describeFeatureFlag(f).title).join(", ") : "none"}
      </Text>
    </Stack>
  );
}

export function UserPanel({ data, result }: { data: UsersScreen; result: UsersActionResult | undefined }) {
  const s = data.selected!;
  const r = s.record;
  const here = usersUrl({ q: data.q, sort: data.sort, page: data.page, user: r.id });
  const name = `${r.first_name} ${r.last_name}`.trim();
  const refused = result && result.intent !== "update" && result.intent !== "create" ? result.errors[""] : undefined;
  const formState =
    result && result.intent === "update"
      ? { values: result.values, errors: result.errors }
      : {
          values: {
            email: r.email,
            first_name: r.first_name,
            last_name: r.last_name,
            groups: r.groups.join("\n"),
            permissions: r.permissions.join("\n"),
            feature_flags: r.feature_flags.join("\n"),
            is_staff: r.is_staff ? "on" : "",
            is_superuser: r.is_superuser ? "on" : "",
            can_change_own_group: r.can_change_own_group ? "on" : "",
          },
          errors: {},
        };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="user-panel-title" data-testid="user-panel">
      <Stack>
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={2} size="h3" id="user-panel-title">
              {name || r.email}
            </Title>
            <Text size="sm">{r.email}</Text>
          </div>
          <Anchor component={Link} to={usersUrl({ q: data.q, sort: data.sort, page: data.page })}>
            Close
          </Anchor>
        </Group>
        <Group gap="xs">
          <KindBadges kinds={s.kinds} />
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }}>
          <Fact label={`Last login (${data.timezone})`} value={s.lastLogin} />
          <Fact label={`Created (${data.timezone})`} value={s.created} />
          <Fact label="Password" value={r.password_set ? "chosen" : "not yet: invitation outstanding"} />
          <Fact label="Open sessions" value={String(s.facts.openSessions)} />
          <Fact label="Authenticators" value={String(s.facts.twoFactorDevices)} />
          <Fact label="Recovery codes left" value={String(s.facts.recoveryCodes)} />
        </SimpleGrid>
        {refused ? (
          <Alert color="red" role="alert" data-testid="user-action-problem">
            {refused}
          </Alert>
        ) : null}
        {r.is_delegated ? (
          <Alert color="grape" title="Delegated account">
            Delegated accounts are managed on the{" "}
            {data.delegatedScreen ? (
              <Anchor component={Link} to="/manage-delegated-users">
                Delegated Users
              </Anchor>
            ) : (
              "Delegated Users"
            )}{" "}
            screen, not here.
          </Alert>
        ) : null}
        {s.editable ? (
          <>
            <Group gap="xs">
              {r.is_active ? (
                s.self ? null : (
                  <ActionForm intent="deactivate" id={r.id} action={here} label="Deactivate the account" color="orange" />
                )
              ) : (
                <ActionForm intent="reactivate" id={r.id} action={here} label="Reactivate the account" color="green" />
              )}
              {!s.self ? <ActionForm intent="end-sessions" id={r.id} action={here} label="Log out everywhere" /> : null}
              {s.mayReset ? <ActionForm intent="reset-2fa" id={r.id} action={here} label="Reset two-factor authentication" /> : null}
              {!r.password_set && r.is_active ? (
                <ActionForm intent="resend-invitation" id={r.id} action={here} label="Send a new invitation" />
              ) : null}
              {!s.self ? (
                <Button
                  component={Link}
                  to={usersUrl({ q: data.q, sort: data.sort, page: data.page, user: r.id, confirmDelete: true })}
                  size="xs"
                  variant="light"
                  color="red"
                >
                  Delete the user…
                </Button>
              ) : null}
            </Group>
            {s.confirmDelete ? (
              <Paper withBorder p="sm" bg="var(--mantine-color-red-light)" data-testid="confirm-delete">
                <Stack gap="xs">
                  <Text size="sm" fw={600}>
                    Delete {r.email}?
                  </Text>
                  <Text size="sm">
                    The account, its sessions, API tokens, settings, personal tags and mappings are removed for good. Deactivating keeps
                    them and can be undone.
                  </Text>
                  <Group gap="xs">
                    <ActionForm intent="delete" id={r.id} action={here} label={`Delete ${r.email} for good`} color="red" />
                    <Anchor component={Link} to={here} size="sm">
                      Cancel
                    </Anchor>
                  </Group>
                </Stack>
              </Paper>
            ) : null}
            <AccountForm
              data={data}
              id={r.id}
              action={here}
              state={formState}
              stored={{
                permissions: r.permissions,
                feature_flags: r.feature_flags,
                is_staff: r.is_staff,
                is_superuser: r.is_superuser,
                self: s.self,
              }}
              viaGroups={s.facts.groupPermissions}
              emailLocked={s.emailLocked}
            />
          </>
        ) : (
          <>
            {!r.is_delegated ? (
              <Text size="sm" c="dimmed">
                {data.mayAdminister
                  ? "Only superusers can change the account of a superuser."
                  : "You can read this account; changes are for staff and superusers."}
              </Text>
            ) : null}
            {s.mayReset ? (
              <Group>
                <ActionForm intent="reset-2fa" id={r.id} action={here} label="Reset two-factor authentication" />
              </Group>
            ) : null}
            <Grants selected={s} />
          </>
        )}
      </Stack>
    </Paper>
  );
}
