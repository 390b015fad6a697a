import { Alert, Anchor, Stack, Text, Title } from "@mantine/core";
import { Link, useNavigation } from "@remix-run/react";
import { MESSAGES } from "~/lib/messages";
import type { SiteSettingsActionResult, SiteSettingsScreen } from "~/server/settings/site-settings-screen.server";
import { DefaultStyleForm } from "./DefaultStyleForm";
import { LegalTextsForm } from "./LegalTextsForm";
import { SiteForm } from "./SiteForm";

/** The site settings screen: the default style, then the site settings and legal texts for staff and superusers. */
export function SiteSettingsView({ data, result }: { data: SiteSettingsScreen; result: SiteSettingsActionResult | undefined }) {
  const { role, site, legal, style, savedMessage, fonts, autocompleteKeys } = data;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <Stack maw={900} gap="lg">
      <Title order={1} size="h2">
        Site settings
      </Title>
      {role === "admin" ? (
        <Text size="sm">
          Routing data for the Looking Glass and the Control Plane:{" "}
          <Anchor component={Link} to="/site-settings/routing-data">
            import MRT files
          </Anchor>
          . Routers, interfaces and vantage points:{" "}
          <Anchor component={Link} to="/site-settings/inventory">
            the network inventory
          </Anchor>
          . Flow collector listeners and exporters:{" "}
          <Anchor component={Link} to="/site-settings/data-sources">
            data sources
          </Anchor>
          . Errors the browsers reported:{" "}
          <Anchor component={Link} to="/site-settings/error-reports">
            error reports
          </Anchor>
          . Which screens are used:{" "}
          <Anchor component={Link} to="/site-settings/usage">
            usage
          </Anchor>
          . Messages users sent:{" "}
          <Anchor component={Link} to="/site-settings/support-messages">
            support messages
          </Anchor>
          .
        </Text>
      ) : null}
      {savedMessage ? (
        <Alert color="green" role="status" data-testid="site-settings-saved">
          {savedMessage}
        </Alert>
      ) : null}
      {role === "moderator" ? (
        <Text size="sm" c="dimmed">
          As a moderator you set the site's default names and colours. Users may keep a personal style that only they see.
        </Text>
      ) : null}
      <DefaultStyleForm
        key={JSON.stringify(style) + JSON.stringify(result?.intent === "style" ? result.values : null)}
        style={style}
        admin={role === "admin"}
        fonts={fonts}
        errors={result?.intent === "style" ? result.errors : {}}
        submitted={result?.intent === "style" ? result.values : null}
        busy={busy}
      />
      {site ? (
        <SiteForm
          key={JSON.stringify(site) + JSON.stringify(result?.intent === "site" ? result.values : null)}
          site={site}
          autocompleteKeys={autocompleteKeys}
          errors={result?.intent === "site" ? result.errors : {}}
          submitted={result?.intent === "site" ? result.values : null}
          busy={busy}
        />
      ) : null}
      {legal ? (
        <LegalTextsForm
          key={JSON.stringify(legal) + JSON.stringify(result?.intent === "legal" ? result.values : null)}
          stored={legal}
          errors={result?.intent === "legal" ? result.errors : {}}
          submitted={result?.intent === "legal" ? result.values : null}
          busy={busy}
        />
      ) : null}
      <Anchor component={Link} to="/settings" size="sm">
        Back to your settings
      </Anchor>
    </Stack>
  );
}

/** The answer to users who are neither moderators, staff nor superusers (a 403). */
export function SiteSettingsForbidden() {
  return (
    <Stack maw={640}>
      <Title order={1} size="h2">
        Site settings
      </Title>
      <Alert color="red" role="alert">
        {MESSAGES.permissionDenied}
      </Alert>
      <Anchor component={Link} to="/settings">
        Back to your settings
      </Anchor>
    </Stack>
  );
}
