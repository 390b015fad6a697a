import { Button, Group, Stack, Table, Text, Textarea } from "@mantine/core";
import { Form } from "@remix-run/react";
import { CsrfField } from "./CsrfField";
import { ScrollBox, useFormReset } from "./EditForms";

/** At most this many problems are listed; the rest are counted. */
const PROBLEMS_SHOWN = 200;

/**
 * The bulk imports' form (mappings, contracts): a CSV file or pasted lines posted as multipart with the
 * intent "import", so it works without JavaScript; a refused import keeps the pasted lines and lists its
 * problems by line under the form.
 */
export function CsvImportForm({
  action,
  label,
  pasted,
  error,
  problems,
  problemsTestId,
}: {
  action: string;
  /** The form's accessible name. */
  label: string;
  pasted: string;
  error: string | undefined;
  problems: readonly { line: number; message: string }[];
  problemsTestId: string;
}) {
  const ref = useFormReset();
  return (
    <>
      <Form method="post" encType="multipart/form-data" ref={ref} action={action} aria-label={label}>
        <CsrfField />
        <input type="hidden" name="intent" value="import" />
        <Stack gap="xs" maw={760}>
          <label>
            <Text size="sm" fw={500} span>
              CSV file{" "}
            </Text>
            <input type="file" name="file" accept=".csv,text/csv,text/plain" />
          </label>
          <Textarea
            name="csv"
            label="Or paste the lines"
            autosize={false}
            rows={5}
            spellCheck={false}
            defaultValue={pasted}
            error={error}
          />
          <Group>
            <Button type="submit" size="sm">
              Import
            </Button>
          </Group>
        </Stack>
      </Form>
      {problems.length ? (
        <ScrollBox label="Import problems">
          <Table data-testid={problemsTestId} miw={500} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Line</Table.Th>
                <Table.Th scope="col">Problem</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {problems.slice(0, PROBLEMS_SHOWN).map((p, i) => (
                <Table.Tr key={i}>
                  <Table.Td>{p.line}</Table.Td>
                  <Table.Td>{p.message}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {problems.length > PROBLEMS_SHOWN ? <Text size="sm">… and {problems.length - PROBLEMS_SHOWN} more.</Text> : null}
        </ScrollBox>
      ) : null}
    </>
  );
}
