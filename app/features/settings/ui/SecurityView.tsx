import { Alert, Badge, Button, Code, Group, Image, List, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { Form, Link, useNavigation } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import type { SecurityActionResult, SecurityScreen } from "~/server/auth/security-screen.server";

function Intent({ value }: { value: string }) {
  return (
    <>
      <CsrfField />
      <input type="hidden" name="intent" value={value} />
    </>
  );
}

/**
 * The current password or a code, asked by the forms that weaken the account. Plain inputs in the
 * form, so the page works without JavaScript; `idPrefix` keeps the two forms' labels apart.
 */
function IdentityFields({ idPrefix }: { idPrefix: string }) {
  return (
    <Group align="end" gap="sm">
      <TextInput
        id={`${idPrefix}-current-password`}
        name="current_password"
        type="password"
        label="Current password"
        autoComplete="current-password"
        w={240}
      />
      <TextInput
        id={`${idPrefix}-otp-code`}
        name="otp_code"
        label="Or a code"
        description="From your app, or an unused recovery code"
        autoComplete="one-time-code"
        maxLength={32}
        w={260}
      />
    </Group>
  );
}

/** The security screen: two-factor authentication (state, devices, enrolment, the switch), then the recovery codes. */
export function SecurityView({ data, result }: { data: SecurityScreen; result: SecurityActionResult | undefined }) {
  const { mandatory, enabled, devices, unusedRecoveryCodes } = data;
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const message = (forIntents: string[]) =>
    result && forIntents.includes(result.intent) ? (
      <>
        {result.error ? (
          <Alert color="red" role="alert">
            {result.error}
          </Alert>
        ) : null}
        {result.notice ? (
          <Alert color="green" role="status">
            {result.notice}
          </Alert>
        ) : null}
      </>
    ) : null;
  const enrolment = result?.enrolment;
  const active = mandatory || (enabled && devices.length > 0);

  return (
    <Stack maw={820} gap="lg">
      <Title order={1} size="h2">
        Security
      </Title>

      <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="two-factor-title" data-tour="security-2fa">
        <Stack>
          <Group justify="space-between">
            <Title order={3} id="two-factor-title">
              Two-factor authentication
            </Title>
            <Badge color={active ? "green" : "gray"} variant="light" data-testid="two-factor-state">
              {active ? "On" : "Off"}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {mandatory
              ? "Two-factor authentication is mandatory on this site: every login asks for a code from your authenticator app."
              : "With two-factor authentication on, every login asks for a code from your authenticator app after the password."}
          </Text>
          {enrolment ? null : message(["add-device", "delete-device", "enable-2fa", "disable-2fa", "confirm-device"])}

          <Title order={4}>Devices</Title>
          {devices.length === 0 ? (
            <Text size="sm">No device yet.</Text>
          ) : (
            <Table aria-label="Two-factor devices" withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Added</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {devices.map((device) => (
                  <Table.Tr key={device.id}>
                    <Table.Td>{device.name}</Table.Td>
                    <Table.Td>{device.added}</Table.Td>
                    <Table.Td>
                      <Form method="post">
                        <Intent value="delete-device" />
                        <input type="hidden" name="deviceId" value={device.id} />
                        <Button type="submit" size="xs" variant="light" color="red" aria-label={`Delete ${device.name}`}>
                          Delete
                        </Button>
                      </Form>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}

          {enrolment ? (
            <Paper withBorder p="md" radius="sm" bg="gray.0" aria-label="Add a device" data-tour="security-add-device">
              <Form method="post">
                <Stack>
                  <Title order={4}>Add "{enrolment.name}"</Title>
                  <Text size="sm">
                    Scan the QR code with an authenticator app, or enter the key by hand, then enter the 6-digit code the app shows.
                  </Text>
                  <SimpleGrid cols={{ base: 1, sm: 2 }}>
                    <Image src={enrolment.qrDataUrl} alt="QR code for your authenticator app" w={220} h={220} />
                    <Stack gap="xs">
                      <Text size="sm">Key:</Text>
                      <Code data-testid="totp-secret" style={{ wordBreak: "break-all" }}>
                        {enrolment.secret}
                      </Code>
                    </Stack>
                  </SimpleGrid>
                  {message(["add-device", "confirm-device"])}
                  <Intent value="confirm-device" />
                  <input type="hidden" name="deviceId" value={enrolment.id} />
                  <Group align="end">
                    <TextInput name="code" label="Code from the app" autoComplete="one-time-code" required maxLength={7} w={180} />
                    <Button type="submit" loading={busy("confirm-device")}>
                      Confirm device
                    </Button>
                    <Button component={Link} to="/settings/security" variant="subtle">
                      Cancel
                    </Button>
                  </Group>
                </Stack>
              </Form>
            </Paper>
          ) : (
            <Form method="post" data-tour="security-add-device">
              <Intent value="add-device" />
              <Group align="end">
                <TextInput name="name" label="Device name" placeholder="Authenticator" maxLength={64} w={260} />
                <Button type="submit" variant="light" loading={busy("add-device")}>
                  Add device
                </Button>
              </Group>
            </Form>
          )}

          {mandatory ? null : (
            <Form method="post" aria-label={enabled ? "Disable two-factor authentication" : "Enable two-factor authentication"}>
              <Stack gap="xs" align="flex-start">
                <Intent value={enabled ? "disable-2fa" : "enable-2fa"} />
                {enabled ? <IdentityFields idPrefix="disable-2fa" /> : null}
                <Button type="submit" variant={enabled ? "default" : "filled"} loading={busy("enable-2fa") || busy("disable-2fa")}>
                  {enabled ? "Disable two-factor authentication" : "Enable two-factor authentication"}
                </Button>
              </Stack>
            </Form>
          )}
        </Stack>
      </Paper>

      <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="recovery-codes-title" data-tour="security-recovery">
        <Stack>
          <Title order={3} id="recovery-codes-title">
            Recovery codes
          </Title>
          <Text size="sm" c="dimmed">
            A recovery code replaces the code from your app once, for when the device is lost. Generating new codes invalidates the earlier
            ones.
          </Text>
          <Text size="sm" data-testid="recovery-codes-left">
            {unusedRecoveryCodes === 0 ? "You have no unused recovery codes." : `Unused recovery codes: ${unusedRecoveryCodes}.`}
          </Text>
          {result?.recoveryCodes ? (
            <Alert color="yellow" title="Your new recovery codes" role="status">
              <Stack gap="xs">
                <Text size="sm">Store them somewhere safe: they are shown only this once, and each works only once.</Text>
                <List spacing={2} data-testid="recovery-codes">
                  {result.recoveryCodes.map((code) => (
                    <List.Item key={code}>
                      <Code>{code}</Code>
                    </List.Item>
                  ))}
                </List>
              </Stack>
            </Alert>
          ) : null}
          {message(["generate-recovery-codes"])}
          <Form method="post" aria-label="Generate recovery codes">
            <Stack gap="xs" align="flex-start">
              <Intent value="generate-recovery-codes" />
              <IdentityFields idPrefix="recovery-codes" />
              <Button type="submit" variant="light" loading={busy("generate-recovery-codes")}>
                Generate recovery codes
              </Button>
            </Stack>
          </Form>
        </Stack>
      </Paper>
    </Stack>
  );
}
