import { Alert, Anchor, Button, Paper, Stack, Text, Title } from "@mantine/core";
import { Form, Link, useNavigation } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import type { SettingsActionResult, SettingsScreen } from "~/server/settings/settings-screen.server";
import { PersonalStyleSection } from "./PersonalStyleSection";
import { PreferencesForm } from "./PreferencesForm";

/**
 * The settings screen: preferences, links to security and site settings, the personal style and
 * consent. Works as plain forms; with JavaScript the thresholds also save themselves (debounced 500 ms, §7/§9).
 */
export function SettingsView({ data, result }: { data: SettingsScreen; result: SettingsActionResult | undefined }) {
  const { personal, siteDefault, savedMessage, canEditSite } = data;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const settingsErrors = result?.intent === "settings" ? result.errors : {};
  const styleErrors = result?.intent === "style" ? result.errors : {};
  const submitted = result?.intent === "settings" ? result.values : {};

  return (
    <Stack maw={900} gap="lg">
      <Title order={1} size="h2">
        Settings
      </Title>
      {savedMessage ? (
        <Alert color="green" role="status" data-testid="settings-saved">
          {savedMessage}
        </Alert>
      ) : null}

      <PreferencesForm
        data={data}
        submitted={submitted}
        errors={settingsErrors}
        busy={busy && navigation.formData?.get("intent") === "settings"}
      />

      <Paper withBorder p="md" radius="md">
        <Stack gap="xs">
          <Title order={3}>Security</Title>
          <Text size="sm">
            Two-factor authentication and recovery codes:{" "}
            <Anchor component={Link} to="/settings/security">
              Two-factor authentication settings
            </Anchor>
          </Text>
          {data.isDeveloper ? (
            <Text size="sm">
              The API calls of this tab, to copy as curl:{" "}
              <Anchor component={Link} to="/settings/request-history">
                Request history
              </Anchor>
            </Text>
          ) : null}
          {canEditSite ? (
            <Text size="sm">
              Site-wide defaults:{" "}
              <Anchor component={Link} to="/site-settings">
                Site settings
              </Anchor>
            </Text>
          ) : null}
        </Stack>
      </Paper>

      <PersonalStyleSection
        personal={personal}
        siteDefault={siteDefault}
        errors={styleErrors}
        submitted={result?.intent === "style" ? result.values : null}
        busy={busy}
      />

      <Paper withBorder p="md" radius="md">
        <Stack gap="xs">
          <Title order={3}>Privacy</Title>
          <Text size="sm">
            flowlens processes your account data and your use of the application only with your consent. Withdrawing it logs you out; you
            will be asked again at your next login.
          </Text>
          <Form method="post" action="/consent">
            <CsrfField />
            <input type="hidden" name="intent" value="withdraw" />
            <Button type="submit" variant="default" color="red">
              Withdraw consent and log out
            </Button>
          </Form>
        </Stack>
      </Paper>
    </Stack>
  );
}
