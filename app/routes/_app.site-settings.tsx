import {
  Alert,
  Anchor,
  Box,
  Button,
  Checkbox,
  Divider,
  Group,
  Input,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, isRouteErrorResponse, useActionData, useLoaderData, useNavigation, useRouteError } from "@remix-run/react";
import { useState } from "react";
import { CsrfField } from "~/components/CsrfField";
import { StylePreview, type StyleColours } from "~/components/StylePreview";
import { isHexColor } from "~/lib/colors";
import { LEGAL_PAGES, LEGAL_TEXT_MAX } from "~/lib/legal-pages";
import { MESSAGES } from "~/lib/messages";
import { readProtectedForm, requireUser } from "~/server/auth/guard.server";
import { getLegalTexts, updateLegalTexts, validateLegalTexts, type LegalTexts } from "~/server/settings/legal-pages.server";
import {
  AUTOCOMPLETE_KEYS,
  ensureDefaultStyle,
  FONTS,
  getSiteSettingsForm,
  LOGO_MAX_BYTES,
  siteSettingsRole,
  styleToJson,
  updateDefaultStyle,
  updateSiteSettings,
  validateSiteSettings,
  validateStylePatch,
  type StyleJson,
} from "~/server/settings/site-settings.server";
import { SettingsError } from "~/server/settings/user-settings.server";

/**
 * /site-settings: staff and superusers edit every site setting and the whole default style;
 * moderators the default style's names and colours (shell §6). Anyone else gets a 403.
 */

export const meta: MetaFunction = () => [{ title: "Site settings · flowlens" }];

const SAVED: Record<string, string> = {
  site: "The site settings were saved.",
  style: "The default style was saved. Users without a personal style see it now.",
  legal: "The imprint and the privacy policy were saved.",
};

async function requireSiteRole(request: Request) {
  const context = await requireUser(request);
  const role = siteSettingsRole(context.user);
  if (!role) throw data({ detail: MESSAGES.permissionDenied }, { status: 403 });
  return { ...context, role };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, role } = await requireSiteRole(request);
  const db = services.pg.db;
  const style = styleToJson(await ensureDefaultStyle(db));
  const saved = new URL(request.url).searchParams.get("saved");
  return {
    role,
    fonts: [...FONTS],
    autocompleteKeys: [...AUTOCOMPLETE_KEYS],
    site: role === "admin" ? await getSiteSettingsForm(db) : null,
    legal: role === "admin" ? await getLegalTexts(db) : null,
    style,
    savedMessage: saved ? (SAVED[saved] ?? null) : null,
  };
}

type ActionResult = { intent: "site" | "style" | "legal"; errors: Record<string, string>; values: Record<string, string> };

const MAX_FOOTER_ROWS = 20;

export async function action({ request }: ActionFunctionArgs) {
  const { services, user, role } = await requireSiteRole(request);
  const db = services.pg.db;
  const form = await readProtectedForm(request);
  const intent = String(form.get("intent") ?? "");
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string" && key !== "csrfmiddlewaretoken") values[key] = value;

  /** The forms only staff and superusers may save: check, validate, store, then back with `saved=<intent>`. */
  async function saveAsAdmin<T>(
    form: "site" | "legal",
    checked: { values: T | null; errors: Record<string, string> },
    store: (clean: T) => Promise<unknown>,
  ) {
    if (role !== "admin") throw data({ detail: MESSAGES.permissionDenied }, { status: 403 });
    if (!checked.values) return data<ActionResult>({ intent: form, errors: checked.errors, values }, { status: 400 });
    await store(checked.values);
    return redirect(`/site-settings?saved=${form}`);
  }
  if (intent === "site") return saveAsAdmin("site", validateSiteSettings(values), (clean) => updateSiteSettings(db, user, clean));
  if (intent === "legal") return saveAsAdmin("legal", validateLegalTexts(values), (clean) => updateLegalTexts(db, user, clean));

  if (intent === "style") {
    const raw: Record<string, unknown> = {
      name: values.name ?? "",
      company_name: values.company_name ?? "",
      color_primary: values.color_primary ?? "",
      color_secondary: values.color_secondary ?? "",
      color_tertiary: values.color_tertiary ?? "",
    };
    if (role === "admin") {
      raw.font = values.font ?? "default";
      raw.branded_footer = values.branded_footer ?? "";
      const logo = form.get("company_logo");
      if (values.remove_logo) raw.company_logo = null;
      else if (logo && typeof logo !== "string" && logo.size > 0) {
        if (logo.size > LOGO_MAX_BYTES) raw.company_logo = new Uint8Array(LOGO_MAX_BYTES + 1);
        else raw.company_logo = new Uint8Array(await logo.arrayBuffer());
      }
      const links: { text: string; link: string }[] = [];
      const rowErrors: Record<string, string> = {};
      for (let i = 0; i < MAX_FOOTER_ROWS; i++) {
        const text = (values[`footer_text_${i}`] ?? "").trim();
        const link = (values[`footer_link_${i}`] ?? "").trim();
        if (!text && !link) continue;
        links.push({ text, link });
        rowErrors[String(links.length - 1)] = String(i);
      }
      raw.footer_links = links;
      const { patch, errors } = validateStylePatch(raw);
      // Footer errors come back per list index; the form shows them next to its own row.
      const shown: Record<string, string> = {};
      for (const [field, message] of Object.entries(errors)) {
        const m = /^footer_links\.(\d+)\.(text|link)$/.exec(field);
        shown[m ? `footer_${m[2]}_${rowErrors[m[1]]}` : field] = message;
      }
      if (Object.keys(shown).length) return data<ActionResult>({ intent, errors: shown, values }, { status: 400 });
      await updateDefaultStyle(db, user, patch);
      return redirect("/site-settings?saved=style");
    }
    const { patch, errors } = validateStylePatch(raw);
    if (Object.keys(errors).length) return data<ActionResult>({ intent, errors, values }, { status: 400 });
    try {
      await updateDefaultStyle(db, user, patch);
    } catch (error) {
      if (error instanceof SettingsError) throw data({ detail: error.message }, { status: error.status });
      throw error;
    }
    return redirect("/site-settings?saved=style");
  }
  return data<ActionResult>({ intent: "site", errors: { intent: "Unknown action." }, values }, { status: 400 });
}

export default function SiteSettingsPage() {
  const { role, site, legal, style, savedMessage, fonts, autocompleteKeys } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
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

/** The texts of the public /imprint and /privacy-policy pages (staff and superusers). */
function LegalTextsForm({
  stored,
  errors,
  submitted,
  busy,
}: {
  stored: LegalTexts;
  errors: Record<string, string>;
  submitted: Record<string, string> | null;
  busy: boolean;
}) {
  return (
    <Paper withBorder p="md" radius="md">
      <Form method="post" action="/site-settings" aria-label="Imprint and privacy policy">
        <CsrfField />
        <input type="hidden" name="intent" value="legal" />
        <Stack>
          <Title order={2} size="h3">
            Imprint and privacy policy
          </Title>
          <Text size="sm">
            The texts of the public pages the footer links to. Plain text: a blank line starts a new paragraph, a line starting with &quot;#
            &quot; is a heading, lines starting with &quot;- &quot; make a list. HTML is shown as written, not interpreted.
          </Text>
          {Object.values(LEGAL_PAGES).map((page) => (
            <Textarea
              key={page.field}
              name={page.field}
              label={
                <>
                  {page.title} (<Anchor href={page.path}>{page.path}</Anchor>)
                </>
              }
              autosize
              minRows={4}
              maxLength={LEGAL_TEXT_MAX}
              defaultValue={submitted ? (submitted[page.field] ?? "") : stored[page.field]}
              error={errors[page.field]}
            />
          ))}
          <Group>
            <Button type="submit" loading={busy}>
              Save imprint and privacy policy
            </Button>
          </Group>
        </Stack>
      </Form>
    </Paper>
  );
}

type SiteView = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["site"]>;

function SiteForm({
  site,
  autocompleteKeys,
  errors,
  submitted,
  busy,
}: {
  site: SiteView;
  autocompleteKeys: (keyof SiteView["autocomplete_min_lengths"])[];
  errors: Record<string, string>;
  submitted: Record<string, string> | null;
  busy: boolean;
}) {
  const text = (name: string, stored: string) => (submitted ? (submitted[name] ?? "") : stored);
  const flag = (name: keyof SiteView, stored: boolean) => (submitted ? Boolean(submitted[name]) : stored);
  return (
    <Paper withBorder p="md" radius="md">
      <Form method="post" action="/site-settings" aria-label="Site settings">
        <CsrfField />
        <input type="hidden" name="intent" value="site" />
        <Stack>
          <Title order={3}>Site</Title>
          {Object.keys(errors).length ? (
            <Alert color="red" role="alert">
              The site settings were not saved: please correct the fields marked below.
            </Alert>
          ) : null}
          <Checkbox
            name="mandatory_2fa"
            label="Two-factor authentication is mandatory for every user"
            defaultChecked={flag("mandatory_2fa", site.mandatory_2fa)}
            error={errors.mandatory_2fa}
          />
          <Checkbox
            name="welcome_page_enabled"
            label="Show the welcome page to delegated users"
            defaultChecked={flag("welcome_page_enabled", site.welcome_page_enabled)}
            error={errors.welcome_page_enabled}
          />
          <Checkbox
            name="enable_user_self_signup"
            label="Visitors may sign up by themselves"
            defaultChecked={flag("enable_user_self_signup", site.enable_user_self_signup)}
            error={errors.enable_user_self_signup}
          />
          <Checkbox
            name="public_looking_glass_enabled"
            label="Public Looking Glass enabled"
            defaultChecked={flag("public_looking_glass_enabled", site.public_looking_glass_enabled)}
            error={errors.public_looking_glass_enabled}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              name="clickhouse_db_version"
              label="ClickHouse database version"
              defaultValue={text("clickhouse_db_version", site.clickhouse_db_version)}
              error={errors.clickhouse_db_version}
            />
            <TextInput
              name="as_name_of_deployment"
              label="AS name of this deployment"
              defaultValue={text("as_name_of_deployment", site.as_name_of_deployment)}
              error={errors.as_name_of_deployment}
            />
          </SimpleGrid>
          <Divider label="Autocomplete: minimum term lengths" labelPosition="left" />
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            {autocompleteKeys.map((key) => (
              <TextInput
                key={key}
                type="number"
                min={0}
                name={`autocomplete_min_lengths.${key}`}
                label={key.replace("_", " ")}
                defaultValue={text(`autocomplete_min_lengths.${key}`, String(site.autocomplete_min_lengths[key]))}
                error={errors[`autocomplete_min_lengths.${key}`]}
              />
            ))}
          </SimpleGrid>
          <Textarea
            name="rna_default_query"
            label="Raw Network Analyzer default query (JSON object)"
            autosize
            minRows={3}
            styles={{ input: { fontFamily: "monospace" } }}
            defaultValue={text("rna_default_query", JSON.stringify(site.rna_default_query, null, 2))}
            error={errors.rna_default_query}
          />
          <Group>
            <Button type="submit" loading={busy}>
              Save site settings
            </Button>
          </Group>
        </Stack>
      </Form>
    </Paper>
  );
}

type Colours = StyleColours;

function DefaultStyleForm({
  style,
  admin,
  fonts,
  errors,
  submitted,
  busy,
}: {
  style: StyleJson;
  admin: boolean;
  fonts: string[];
  errors: Record<string, string>;
  submitted: Record<string, string> | null;
  busy: boolean;
}) {
  const pick = (name: keyof Colours) => submitted?.[name] ?? style[name];
  const [colours, setColours] = useState<Colours>({
    company_name: pick("company_name"),
    color_primary: pick("color_primary"),
    color_secondary: pick("color_secondary"),
    color_tertiary: pick("color_tertiary"),
  });
  const set = (field: keyof Colours) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setColours((c) => ({ ...c, [field]: value }));
  };
  const footerRows = submitted
    ? Array.from({ length: MAX_FOOTER_ROWS }, (_, i) => ({
        text: submitted[`footer_text_${i}`] ?? "",
        link: submitted[`footer_link_${i}`] ?? "",
      })).filter((row, i) => row.text || row.link || i < 2)
    : [...style.footer_links.map((l) => ({ text: l.text, link: l.link })), { text: "", link: "" }, { text: "", link: "" }];
  return (
    <Paper withBorder p="md" radius="md">
      <Form method="post" action="/site-settings" encType={admin ? "multipart/form-data" : undefined} aria-label="Default style">
        <CsrfField />
        <input type="hidden" name="intent" value="style" />
        <Stack>
          <Title order={3}>Default style</Title>
          {Object.keys(errors).length ? (
            <Alert color="red" role="alert">
              The default style was not saved: please correct the fields marked below.
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput name="name" label="Style name" defaultValue={submitted?.name ?? style.name} error={errors.name} maxLength={100} />
            <TextInput
              name="company_name"
              label="Company name"
              value={colours.company_name}
              onChange={set("company_name")}
              error={errors.company_name}
              maxLength={100}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {(["color_primary", "color_secondary", "color_tertiary"] as const).map((field) => (
              <TextInput
                key={field}
                name={field}
                label={{ color_primary: "Primary colour", color_secondary: "Secondary colour", color_tertiary: "Tertiary colour" }[field]}
                value={colours[field]}
                onChange={set(field)}
                error={errors[field]}
                placeholder="#rrggbb"
                maxLength={7}
                leftSection={
                  <Box
                    w={16}
                    h={16}
                    style={{
                      borderRadius: 3,
                      border: "1px solid #ccc",
                      background: isHexColor(colours[field]) ? colours[field] : "transparent",
                    }}
                  />
                }
              />
            ))}
          </SimpleGrid>
          <StylePreview style={colours} />
          {admin ? (
            <>
              <Divider label="Branding (staff and superusers)" labelPosition="left" />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <NativeSelect name="font" label="Font" defaultValue={submitted?.font ?? style.font} data={fonts} error={errors.font} />
                <Checkbox
                  mt="xl"
                  name="branded_footer"
                  label="Branded footer"
                  defaultChecked={submitted ? Boolean(submitted.branded_footer) : style.branded_footer}
                  error={errors.branded_footer}
                />
              </SimpleGrid>
              <Group align="flex-end">
                {style.company_logo ? (
                  <img src={`data:image/png;base64,${style.company_logo}`} alt="Current logo" height={40} />
                ) : (
                  <Text size="sm" c="dimmed">
                    No logo.
                  </Text>
                )}
                <Input.Wrapper label="Company logo (PNG, at most 256 kB)" error={errors.company_logo} id="company_logo">
                  <input id="company_logo" type="file" name="company_logo" accept="image/png" style={{ display: "block", fontSize: 14 }} />
                </Input.Wrapper>
                {style.company_logo ? <Checkbox name="remove_logo" label="Remove the logo" /> : null}
              </Group>
              <Text size="sm" fw={500}>
                Footer links (text and an http(s):// address or a /path; leave both empty to drop a row)
              </Text>
              {errors.footer_links ? (
                <Text size="sm" c="red">
                  {errors.footer_links}
                </Text>
              ) : null}
              {footerRows.map((row, i) => (
                <SimpleGrid key={i} cols={2}>
                  <TextInput
                    name={`footer_text_${i}`}
                    aria-label={`Footer link ${i + 1} text`}
                    placeholder="Text"
                    defaultValue={row.text}
                    error={errors[`footer_text_${i}`]}
                  />
                  <TextInput
                    name={`footer_link_${i}`}
                    aria-label={`Footer link ${i + 1} address`}
                    placeholder="https://… or /path"
                    defaultValue={row.link}
                    error={errors[`footer_link_${i}`]}
                  />
                </SimpleGrid>
              ))}
            </>
          ) : null}
          <Group>
            <Button type="submit" loading={busy}>
              Save default style
            </Button>
          </Group>
        </Stack>
      </Form>
    </Paper>
  );
}

/** 403 for users who are neither moderators, staff nor superusers. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403) {
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
  throw error;
}
