import { Anchor, Button, Group, TextInput } from "@mantine/core";
import { Link } from "@remix-run/react";
import { COLUMN_LABELS } from "../columns";
import { NUMERIC_FILTER_COLUMNS, SEARCH_LABEL, SEARCH_MAX_LENGTH, SEARCH_PARAM, type ControlPlaneTableState } from "../table-state";

/**
 * The table's filters as a GET form (works without JavaScript): a search text and a '>' / '<'
 * filter per numeric column. The rest of the screen's state rides along as hidden fields; a value
 * that cannot apply shows the spec's message on its field.
 */
export function FilterForm({
  action,
  table,
  keep,
  clearHref,
}: {
  action: string;
  table: ControlPlaneTableState;
  keep: [string, string][];
  clearHref: string;
}) {
  const active = table.search !== "" || table.numeric.length > 0 || Object.keys(table.errors).length > 0;
  return (
    <form method="get" action={action} aria-label="Filter the rows" data-testid="cp-filters">
      {keep.map(([name, value], i) => (
        <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
      ))}
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput
          label={SEARCH_LABEL}
          name={SEARCH_PARAM}
          defaultValue={table.typed[SEARCH_PARAM]}
          description="Rows showing this text in any column"
          error={table.errors[SEARCH_PARAM]}
          maxLength={SEARCH_MAX_LENGTH}
          size="xs"
          w={{ base: "100%", xs: 240 }}
        />
        {NUMERIC_FILTER_COLUMNS.map((column) => (
          <TextInput
            key={column}
            label={COLUMN_LABELS[column]}
            name={column}
            defaultValue={table.typed[column]}
            placeholder="> 100"
            description="> or < and a number"
            error={table.errors[column]}
            size="xs"
            w={{ base: "100%", xs: 200 }}
          />
        ))}
        <Group gap="xs" mt={{ base: 0, xs: 38 }}>
          <Button type="submit" size="compact-sm" variant="default">
            Filter
          </Button>
          {active ? (
            <Anchor component={Link} to={clearHref} size="sm" data-testid="cp-clear-filters">
              Clear filters
            </Anchor>
          ) : null}
        </Group>
      </Group>
    </form>
  );
}
