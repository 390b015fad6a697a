import { Anchor, Button, Group, TextInput } from "@mantine/core";
import { Form, Link } from "@remix-run/react";
import { useFormReset } from "~/components/EditForms";
import { filterableColumns, rnaSearch } from "../params";
import type { RnaScreen } from "../screen.server";
import { READABLE_ERROR } from "./field-styles";
import { HiddenFields } from "./hidden-fields";
import { headerText } from "./RnaTable";

/**
 * The '>' / '<' filters of the shown numeric columns (spec shell §2, §5) as a GET form. They apply
 * to the whole query, every page, not only to the rows on screen; a value that cannot apply shows
 * the spec's message on its field.
 */
export function RnaColumnFilters({ data, path }: { data: RnaScreen; path: string }) {
  const ref = useFormReset();
  const columns = filterableColumns(data.catalogue).filter((c) => data.params.columns.includes(c.id));
  if (!columns.length) return null;
  const owned = [...columns.map((c) => c.id as string), "after"];
  const active = data.params.numeric.length > 0 || Object.keys(data.params.numericErrors).length > 0;
  return (
    <Form method="get" action={path} aria-label="Filter the columns" data-testid="rna-column-filters" ref={ref}>
      <HiddenFields search={rnaSearch(data.params, data.timezone)} owned={owned} />
      <Group align="flex-start" gap="sm" wrap="wrap">
        {columns.map((c) => (
          <TextInput
            key={c.id}
            label={headerText(c, data.timezone)}
            name={c.id}
            defaultValue={data.params.numericText[c.id] ?? ""}
            placeholder={c.kind === "measure" ? "> 1M" : "> 1023"}
            description="> or < and a number"
            error={data.params.numericErrors[c.id]}
            styles={READABLE_ERROR}
            size="xs"
            w={{ base: "100%", xs: 170 }}
          />
        ))}
        <Group gap="xs" mt={{ base: 0, xs: 38 }}>
          <Button type="submit" size="compact-sm" variant="default">
            Filter
          </Button>
          {active ? (
            <Anchor component={Link} to={`${path}?${rnaSearch(data.params, data.timezone, { without: ["numeric"] })}`} size="sm">
              Clear column filters
            </Anchor>
          ) : null}
        </Group>
      </Group>
    </Form>
  );
}
