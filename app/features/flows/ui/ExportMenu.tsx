import { Button, Group, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { MESSAGES } from "~/lib/messages";
import { EXPORT_FORMATS, type ExportFormat } from "~/lib/export-files";

export type ExportBlock = "empty" | "pivoted" | null;

/** The export endpoint's URL for the screen's search params and one format (csv, the endpoint's default, needs none). */
export function exportHref(search: string, format: ExportFormat, scope: string | null): string {
  const params = new URLSearchParams(search);
  if (scope) params.set("scope", scope);
  if (format === "csv") params.delete("format");
  else params.set("format", format);
  return `/api/flows/export?${params}`;
}

const testId = (format: ExportFormat) => `${format}-export`;

const label = (format: ExportFormat) => format.toUpperCase();

/**
 * The export of the table (csv, xls, xlsx) and of the chart (png, svg) as plain download links, so
 * it works without JavaScript. Blocked exports (spec shell §2, §5):
 * - pivoted table: every format disabled, the reason as a tooltip;
 * - empty table: the reason shown as text; with JavaScript a click gives the warning toast with
 *   the export's title.
 */
export function ExportMenu({ search, scope, blocked }: { search: string; scope: string | null; blocked: ExportBlock }) {
  if (blocked === "pivoted") {
    return (
      <Group gap={6} title={MESSAGES.exportWhilePivoted} data-testid="export-menu" data-blocked="pivoted" style={{ cursor: "not-allowed" }}>
        <Text size="sm">Export:</Text>
        {EXPORT_FORMATS.map((f) => (
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
      <Group gap={6} data-testid="export-menu" data-blocked="empty">
        <Text size="sm">Export:</Text>
        {EXPORT_FORMATS.map((f) => (
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
    <Group gap={6} data-testid="export-menu">
      <Text size="sm">Export:</Text>
      {EXPORT_FORMATS.map((f) => (
        <Button
          key={f}
          component="a"
          href={exportHref(search, f, scope)}
          download
          size="compact-xs"
          variant="light"
          data-testid={testId(f)}
          title={f === "png" || f === "svg" ? "The chart as an image" : "The table"}
        >
          {label(f)}
        </Button>
      ))}
    </Group>
  );
}
