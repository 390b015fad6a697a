import { Button, Checkbox, Group, SimpleGrid, Text, Tooltip } from "@mantine/core";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { MESSAGES } from "~/lib/messages";
import { COLUMNS_PARAM, rnaSearch } from "../params";
import type { RnaScreen } from "../screen.server";
import { HiddenFields } from "./hidden-fields";
import { headerText } from "./RnaTable";

/**
 * The column picker: a GET form in a details element, so it works without JavaScript. An empty
 * choice is refused (spec shell §5: "Column picker needs at least one column selected"): with
 * JavaScript the button stays disabled with the reason as its tooltip; without, the empty hidden
 * field tells the server the picker was sent with nothing ticked, and it says so.
 */
export function RnaColumnPicker({ data, path }: { data: RnaScreen; path: string }) {
  const hydrated = useHydrated();
  const [ticked, setTicked] = useState(() => new Set<string>(data.params.columns));
  const empty = hydrated && ticked.size === 0;
  return (
    <details data-testid="rna-column-picker">
      <summary style={{ cursor: "pointer" }}>
        <Text component="span" size="sm">
          Columns ({data.params.columns.length} of {data.catalogue.length})
        </Text>
      </summary>
      <Form method="get" action={path} aria-label="Select a column">
        {/* The sort and the timeseries name shown columns: a new choice starts from the default order. */}
        <HiddenFields search={rnaSearch(data.params, data.timezone)} owned={[COLUMNS_PARAM, "sort", "timeseries", "after"]} />
        <input type="hidden" name={COLUMNS_PARAM} value="" />
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing={4} mt="xs">
          {data.catalogue.map((c) => (
            <Checkbox
              key={c.id}
              name={COLUMNS_PARAM}
              value={c.id}
              label={headerText(c, data.timezone)}
              title={c.description}
              defaultChecked={data.params.columns.includes(c.id)}
              onChange={(e) => {
                const checked = e.currentTarget.checked;
                setTicked((prev) => {
                  const next = new Set(prev);
                  if (checked) next.add(c.id);
                  else next.delete(c.id);
                  return next;
                });
              }}
              size="xs"
            />
          ))}
        </SimpleGrid>
        <Group mt="xs">
          <Tooltip label={MESSAGES.selectAtLeastOneColumn} disabled={!empty}>
            {/* A disabled button fires no pointer events: the wrapper carries the tooltip. */}
            <span>
              <Button type="submit" size="compact-sm" variant="default" disabled={empty} data-testid="rna-columns-apply">
                Show these columns
              </Button>
            </span>
          </Tooltip>
          {empty ? (
            <Text size="xs" c="red">
              {MESSAGES.selectAtLeastOneColumn}
            </Text>
          ) : null}
        </Group>
      </Form>
    </details>
  );
}
