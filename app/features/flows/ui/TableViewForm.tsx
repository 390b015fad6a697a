import { Button, Checkbox, Group, NativeSelect } from "@mantine/core";
import { Form, useLocation, useSubmit } from "@remix-run/react";
import type { TableView } from "../params";

const OWN_PARAMS = new Set(["table", "pivot"]);

/**
 * The table view switch (Aggregated / Detailed, pivot): a small GET form that carries every other
 * search param as hidden fields, so it works without JavaScript (Apply) and, with it, on change.
 */
export function TableViewForm({ table, pivot }: { table: TableView; pivot: boolean }) {
  const location = useLocation();
  const submit = useSubmit();
  const kept = [...new URLSearchParams(location.search)].filter(([k]) => !OWN_PARAMS.has(k));
  return (
    <Form method="get" action={location.pathname} aria-label="Table view" onChange={(e) => submit(e.currentTarget, { method: "get" })}>
      <Group gap="sm" align="flex-end">
        {kept.map(([k, v], i) => (
          <input key={`${k}:${i}`} type="hidden" name={k} value={v} />
        ))}
        <NativeSelect
          label="Table"
          name="table"
          size="xs"
          defaultValue={table}
          data={[
            { value: "aggregated", label: "Aggregated" },
            { value: "detailed", label: "Detailed" },
          ]}
          w={140}
          data-testid="table-view"
        />
        <Checkbox name="pivot" value="1" label="Pivot (detailed)" size="xs" defaultChecked={pivot} mb={6} data-testid="pivot" />
        <Button type="submit" size="xs" variant="default">
          Apply
        </Button>
      </Group>
    </Form>
  );
}
