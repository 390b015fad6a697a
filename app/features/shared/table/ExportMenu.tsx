import { Button, Group, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { MESSAGES } from "~/lib/messages";
import { EXPORT_FORMATS, type ExportFormat } from "~/lib/export-files";

export type ExportBlock = "empty" | "pivoted" | null;

/**
 * An export endpoint's URL: the screen's search params plus the format (csv, every export
 * endpoint's default, needs none) and any extra parameters the endpoint needs (e.g. a scope).
 */
export function exportHref(endpoint: string, search: string, format: ExportFormat, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(search);
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  if (format === "csv") params.delete("format");
  else params.set("format", format);
  return `${endpoint}?${params}`;
}

const testId = (format: ExportFormat) => `${format}-export`;

const label = (format: ExportFormat) => format.toUpperCase();

/**
 * The export of a tool's table (csv, xls, xlsx) and of its chart (png, svg) as plain download
 * links to the tool's export endpoint (`href` per format), so it works without JavaScript. Blocked exports (spec shell §2, §5):
 * - pivoted table: every format disabled, the reason as a tooltip;
 * - empty table: the reason shown as text; with JavaScript a click gives the warning toast with
 *   the export's title.
 */
export function ExportMenu({
  href,
  blocked,
  imageTitle = "The chart as an image",
  formats = EXPORT_FORMATS,
}: {
  href: (format: ExportFormat) => string;
  blocked: ExportBlock;
  /** What png and svg hold (their tooltip). */
  imageTitle?: string;
  /** The formats offered (a table without a chart offers csv, xls and xlsx). */
  formats?: readonly ExportFormat[];
}) {
  if (blocked === "pivoted") {
    return (
      <Group
        gap={6}
        title={MESSAGES.exportWhilePivoted}
        data-testid="export-menu"
        data-tour="export-menu"
        data-blocked="pivoted"
        style={{ cursor: "not-allowed" }}
      >
        <Text size="sm">Export:</Text>
        {formats.map((f) => (
          <Button key={f} size="compact-xs" variant="light" disabled data-testid={testId(f)}>
            {label(f)}
          </Button>
        ))}
      </Group>
    );
  }
  if (blocked === "empty") {
    const warn = (f: ExportFormat) =>
      notifications.show({ color: "yellow", title: `Export ${label(f)}`, message: MESSAGES.emptyTableExport });
    return (
      <Group gap={6} data-testid="export-menu" data-tour="export-menu" data-blocked="empty">
        <Text size="sm">Export:</Text>
        {formats.map((f) => (
          // data-disabled: looks disabled but still takes the click that explains why (so not aria-disabled either).
          <Button key={f} size="compact-xs" variant="light" data-disabled onClick={() => warn(f)} data-testid={testId(f)}>
            {label(f)}
          </Button>
        ))}
        <Text size="sm" c="dimmed" data-testid="export-empty">
          {MESSAGES.emptyTableExport}
        </Text>
      </Group>
    );
  }
  return (
    <Group gap={6} data-testid="export-menu" data-tour="export-menu">
      <Text size="sm">Export:</Text>
      {formats.map((f) => (
        <Button
          key={f}
          component="a"
          href={href(f)}
          download
          size="compact-xs"
          variant="light"
          data-testid={testId(f)}
          title={f === "png" || f === "svg" ? imageTitle : "The table"}
        >
          {label(f)}
        </Button>
      ))}
    </Group>
  );
}
