// The site settings form's default query field: a text area people can read (its label and the fields it takes),
// what was typed kept after a refused save, and the reason shown at the field.
import { MantineProvider } from "@mantine/core";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SiteForm } from "~/features/settings/ui/SiteForm";
import type { SiteSettingsForm } from "~/server/settings/site-settings.server";

const SITE: SiteSettingsForm = {
  mandatory_2fa: false,
  welcome_page_enabled: false,
  clickhouse_db_version: "",
  autocomplete_min_lengths: { primary_as: 1, secondary_as: 1, application: 2, infrastructure: 2 },
  as_name_of_deployment: "",
  enable_user_self_signup: false,
  rna_default_query: { range: "LAST_6_HOURS", aggregationPrefixes: { v4: 24 } },
  public_looking_glass_enabled: false,
};

function render(errors: Record<string, string>, submitted: Record<string, string> | null): string {
  const element = (
    <SiteForm
      site={SITE}
      autocompleteKeys={["primary_as", "secondary_as", "application", "infrastructure"]}
      errors={errors}
      submitted={submitted}
      busy={false}
    />
  );
  const router = createMemoryRouter([{ path: "/", element }]);
  return renderToString(
    <MantineProvider>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
}

/** The text area of rna_default_query and the texts its aria-describedby points at. */
function defaultQueryField(html: string) {
  const textarea = /<textarea[^>]*name="rna_default_query"[^>]*>([^<]*)<\/textarea>/.exec(html);
  expect(textarea).not.toBeNull();
  const describedBy = (/aria-describedby="([^"]*)"/.exec(textarea![0])?.[1] ?? "").split(" ").filter(Boolean);
  const described = describedBy.map((id) => new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html)?.[1] ?? "");
  const unescape = (t: string) =>
    t
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&amp;/g, "&");
  return { tag: textarea![0], value: unescape(textarea![1]), described: described.map(unescape) };
}

describe("the site settings form's default query", () => {
  it("shows the stored value as JSON and says which fields it takes", () => {
    const field = defaultQueryField(render({}, null));
    expect(JSON.parse(field.value)).toEqual(SITE.rna_default_query);
    expect(field.described.join(" ")).toMatch(/columns .*aggregationPrefixes .*filters .*filterExpression .*range .*sort/);
    expect(field.tag).not.toContain('aria-invalid="true"');
  });

  it("keeps what was typed after a refused save and shows the reason at the field", () => {
    const typed = '{"range": "LAST_30_DAYS"}';
    const reason = "range: choose one of LAST_30_MINUTES, LAST_1_HOUR (raw flows are kept 7 days).";
    const field = defaultQueryField(render({ rna_default_query: reason }, { rna_default_query: typed }));
    expect(field.value).toBe(typed);
    expect(field.tag).toContain('aria-invalid="true"');
    expect(field.described).toContain(reason);
  });
});
