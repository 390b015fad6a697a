import { Button, Checkbox, Fieldset, Paper, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { Form } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { FormProblem, useFormReset, type FormErrors } from "~/components/EditForms";
import { describePermission, featureFlagsByEffect, groupedPermissions, unbuiltPermissions } from "~/lib/permission-catalogue";
import type { UsersScreen } from "../users-screen.server";

/** What the form shows: the values typed when its post was refused, else the stored ones (lists one per line). */
export type AccountFormState = { values: Record<string, string>; errors: FormErrors };

const listOf = (text: string | undefined) => new Set((text ?? "").split("\n").filter(Boolean));

function FieldError({ message }: { message?: string }) {
  return message ? (
    <Text size="sm" c="red" role="alert">
      {message}
    </Text>
  ) : null;
}

/**
 * A checkbox the actor may not change is shown disabled; when it is on, a hidden field keeps it on
 * (a disabled box is not posted). Plain checkboxes: the browser posts them and a form reset restores them.
 */
function Box({
  name,
  value,
  label,
  description,
  checked,
  locked,
}: {
  name: string;
  value: string;
  label: string;
  description?: string;
  checked: boolean;
  locked: boolean;
}) {
  return (
    <>
      <Checkbox name={name} value={value} label={label} description={description} defaultChecked={checked} disabled={locked} />
      {locked && checked ? <input type="hidden" name={name} value={value} /> : null}
    </>
  );
}

/** A grid of grant boxes: "Title (CODE)" with its description, on or locked as the callbacks say. */
function Boxes({
  name,
  items,
  isOn,
  isLocked,
}: {
  name: string;
  items: { code: string; title: string; description: string }[];
  isOn: (code: string) => boolean;
  isLocked: (code: string) => boolean;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
      {items.map((item) => (
        <Box
          key={item.code}
          name={name}
          value={item.code}
          label={`${item.title} (${item.code})`}
          description={item.description}
          checked={isOn(item.code)}
          locked={isLocked(item.code)}
        />
      ))}
    </SimpleGrid>
  );
}

/** Adds an account (no `id`: an invitation is mailed) or edits account `id`. */
export function AccountForm({
  data,
  id,
  state,
  action,
  stored,
  viaGroups,
  emailLocked = null,
}: {
  data: UsersScreen;
  id: number | null;
  state: AccountFormState;
  action: string;
  /** The stored grants (an account keeps what it has even where the actor could not grant it). */
  stored: { permissions: string[]; feature_flags: string[]; is_staff: boolean; is_superuser: boolean; self: boolean };
  viaGroups: { code: string; group: string }[];
  /** Why the actor may not change this account's e-mail address (the field is read-only), or null. */
  emailLocked?: string | null;
}) {
  const { values, errors } = state;
  const ref = useFormReset();
  const permissions = listOf(values.permissions);
  const flags = listOf(values.feature_flags);
  const memberOf = listOf(values.groups);
  const holds = new Set([...data.actorPermissions]);
  const flagsOn = new Set(data.actorFlags);
  const had = new Set(stored.permissions);
  const hadFlags = new Set(stored.feature_flags);
  const viaGroup = new Map<string, string[]>();
  for (const g of viaGroups) viaGroup.set(g.code, [...(viaGroup.get(g.code) ?? []), g.group]);
  const permissionOn = (code: string) => permissions.has(code);
  const permissionLocked = (code: string) => !data.isSuperuser && !holds.has(code) && !had.has(code);
  const flagOn = (code: string) => flags.has(code);
  const flagLocked = (code: string) => !data.isSuperuser && !flagsOn.has(code) && !hadFlags.has(code);
  const unbuilt = unbuiltPermissions();
  const flagGroups = featureFlagsByEffect();
  const title = id ? "Edit the account" : "Add a user";
  return (
    <Paper withBorder p="md">
      <Form ref={ref} method="post" action={action} aria-label={title} data-tour={id === null ? "user-form" : undefined}>
        <CsrfField />
        <input type="hidden" name="intent" value={id ? "update" : "create"} />
        {id ? <input type="hidden" name="id" value={id} /> : null}
        <Stack>
          <Title order={3} size="h4">
            {title}
          </Title>
          {id ? null : (
            <Text size="sm">
              The new user is mailed an invitation with a link to choose a password. The link works once and expires after 72 hours; you can
              send a new one from the account's panel.
            </Text>
          )}
          <FormProblem errors={errors} />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              label="E-mail address"
              type="email"
              required
              maxLength={254}
              name="email"
              autoComplete="off"
              defaultValue={values.email ?? ""}
              readOnly={Boolean(emailLocked)}
              description={
                emailLocked ??
                (id && !stored.self ? "A new address ends the account's sessions and API tokens; the old address is told." : undefined)
              }
              error={errors.email}
            />
            <TextInput
              label="First name"
              maxLength={150}
              name="first_name"
              defaultValue={values.first_name ?? ""}
              error={errors.first_name}
            />
            <TextInput label="Last name" maxLength={150} name="last_name" defaultValue={values.last_name ?? ""} error={errors.last_name} />
          </SimpleGrid>
          <Fieldset legend="Role">
            <Stack gap="xs">
              <Box
                name="is_superuser"
                value="on"
                label="Superuser"
                description="Holds every permission and may make others staff or superuser."
                checked={values.is_superuser === "on"}
                locked={!data.isSuperuser || (stored.self && stored.is_superuser)}
              />
              <Box
                name="is_staff"
                value="on"
                label="Staff"
                description="May manage users and site settings and sees menu items without data."
                checked={values.is_staff === "on"}
                locked={!data.isSuperuser || (stored.self && stored.is_staff)}
              />
              <Box
                name="can_change_own_group"
                value="on"
                label="Can change own group"
                description="Sees the group switcher and may choose their own groups."
                checked={values.can_change_own_group === "on"}
                locked={false}
              />
              {data.isSuperuser ? null : (
                <Text size="xs" c="dimmed">
                  Only superusers make someone staff or superuser, or take it away.
                </Text>
              )}
            </Stack>
          </Fieldset>
          <Fieldset legend="Groups">
            <Text size="xs" c="dimmed" mb="xs">
              A group grants its permissions to its members: you can add someone only to groups whose permissions you hold.
            </Text>
            <FieldError message={errors.groups} />
            {data.groups.length ? (
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                {data.groups.map((g) => (
                  <Checkbox key={g} name="groups" value={g} label={g} defaultChecked={memberOf.has(g)} />
                ))}
              </SimpleGrid>
            ) : (
              <Text size="sm">There are no groups.</Text>
            )}
          </Fieldset>
          <Fieldset legend="Permissions" data-tour={id === null ? "user-permissions" : undefined}>
            <Text size="xs" c="dimmed" mb="xs">
              You can grant only what you hold yourself; what the account already has stays unless you untick it.
            </Text>
            <FieldError message={errors.permissions} />
            <Stack gap="md">
              {groupedPermissions().map((group) => (
                <div key={group.key} role="group" aria-labelledby={`perm-group-${group.key}`}>
                  <Text fw={600} size="sm" id={`perm-group-${group.key}`}>
                    {group.title}
                  </Text>
                  <Text size="xs" c="dimmed" mb={4}>
                    {group.explanation}
                  </Text>
                  <Boxes
                    name="permissions"
                    items={group.permissions.map((p) => {
                      const groupsGranting = viaGroup.get(p.code);
                      const via = groupsGranting ? ` Also granted by the group ${groupsGranting.join(", ")}.` : "";
                      return { ...p, description: `${p.explanation}${via}` };
                    })}
                    isOn={permissionOn}
                    isLocked={permissionLocked}
                  />
                </div>
              ))}
              {unbuilt.length ? (
                // Granted and kept as usual, so an account is ready the day the tool arrives; said apart so nobody
                // looks for a screen that is not there.
                <div role="group" aria-labelledby="perm-group-unbuilt">
                  <Text fw={600} size="sm" id="perm-group-unbuilt">
                    For tools this version does not have
                  </Text>
                  <Text size="xs" c="dimmed" mb={4}>
                    These grant nothing yet; an account keeps them for a later version.
                  </Text>
                  <Boxes
                    name="permissions"
                    items={unbuilt.map((p) => ({ ...p, description: describePermission(p.code).explanation }))}
                    isOn={permissionOn}
                    isLocked={permissionLocked}
                  />
                </div>
              ) : null}
            </Stack>
          </Fieldset>
          <Fieldset legend="Feature flags">
            <FieldError message={errors.feature_flags} />
            <Boxes
              name="feature_flags"
              items={flagGroups.effective.map((f) => ({ ...f, description: f.explanation }))}
              isOn={flagOn}
              isLocked={flagLocked}
            />
            {flagGroups.inert.length ? (
              <div role="group" aria-labelledby="flag-group-inert">
                <Text fw={600} size="sm" mt="sm" id="flag-group-inert">
                  Without effect in this version
                </Text>
                <Boxes
                  name="feature_flags"
                  items={flagGroups.inert.map((f) => ({ ...f, description: f.reason }))}
                  isOn={flagOn}
                  isLocked={flagLocked}
                />
              </div>
            ) : null}
          </Fieldset>
          <Button type="submit" w="fit-content">
            {id ? "Save the account" : "Add the user and send the invitation"}
          </Button>
        </Stack>
      </Form>
    </Paper>
  );
}
