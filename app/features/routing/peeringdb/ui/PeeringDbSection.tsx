import { Alert, Button, Code, Group, List, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { Form, useNavigation } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { PEERINGDB_INTENT, PEERINGDB_UPLOAD_FIELD } from "../forms";
import type { PeeringDbSectionData } from "../section.server";
import type { PeeringDbActionResult } from "../upload.server";

const NUMBER = { style: { textAlign: "right", whiteSpace: "nowrap" } } as const;

/**
 * The PeeringDB section of the routing data screen: the current import (dump date, who imported it
 * when, the objects per type), the daily sync's last attempt, and the upload of PeeringDB's JSON (a
 * plain multipart form: `intent` first, then the CSRF field, then the file).
 */
export function PeeringDbSection({ data, result }: { data: PeeringDbSectionData; result: PeeringDbActionResult["peeringdb"] | undefined }) {
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === PEERINGDB_INTENT;
  const { current, sync } = data;
  return (
    <Stack gap="sm" component="section" aria-labelledby="peeringdb-heading" data-testid="peeringdb-section">
      <Title order={2} size="h3" id="peeringdb-heading">
        PeeringDB
      </Title>
      <Text size="sm">
        AS Relations shows what networks declare in PeeringDB (policy, traffic ratio, exchange and facility presence) from the copy imported
        here. Upload PeeringDB&apos;s JSON: a dump holding every type under its key, or one API answer (<Code>{'{"data": [...]}'}</Code>,
        named after its type: net.json, ix.json, netixlan.json …). It replaces the previous import whole; a bad file changes nothing. The
        command line does the same: <Code>npm run peeringdb:import -- FILE</Code>.
      </Text>
      {current ? (
        <Paper withBorder p="md" data-testid="peeringdb-current">
          <Stack gap="xs">
            <Text size="sm">
              {`Dump of ${current.dumpDate ?? "an unknown date"}, imported ${current.importedAt} (${data.timezone}) by ${current.importedBy} from ${current.source}.`}
            </Text>
            <Table maw={420} data-testid="peeringdb-counts">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Objects</Table.Th>
                  <Table.Th {...NUMBER}>Count</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {current.counts.map((c) => (
                  <Table.Tr key={c.kind}>
                    <Table.Td>{c.label}</Table.Td>
                    <Table.Td {...NUMBER}>{c.value}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Text
              size="sm"
              c="dimmed"
            >{`${current.objects} objects in all, with organisations, exchange LANs and prefixes, and contacts.`}</Text>
          </Stack>
        </Paper>
      ) : (
        <Alert color="yellow" data-testid="peeringdb-current">
          No PeeringDB data is imported: AS Relations shows no declared facts.
        </Alert>
      )}
      <Text size="sm" data-testid="peeringdb-sync">
        {sync.url ? (
          <>
            {`Daily sync from ${sync.url}: `}
            {sync.last
              ? `last attempt ${sync.last.at} — ${sync.last.ok ? "succeeded" : "failed"}: ${sync.last.message}.`
              : "no attempt yet."}
          </>
        ) : (
          <>
            No daily sync: set <Code>PEERINGDB_SYNC_URL</Code> to an address of PeeringDB&apos;s JSON the installation can reach, and
            restart.
          </>
        )}
      </Text>
      <Form method="post" encType="multipart/form-data" aria-label="Import PeeringDB data">
        {/* intent first: the server reads it before the rest of the upload. */}
        <input type="hidden" name="intent" value={PEERINGDB_INTENT} />
        <CsrfField />
        <Paper withBorder p="md">
          <Group align="flex-end">
            <label>
              <Text size="sm" fw={500} span display="block">
                PeeringDB JSON file (at most {data.maxFileMegabytes} MB)
              </Text>
              <input type="file" name={PEERINGDB_UPLOAD_FIELD} required accept=".json,application/json" />
            </label>
            <Button type="submit" loading={sending}>
              Import PeeringDB data
            </Button>
          </Group>
        </Paper>
      </Form>
      {result?.error ? (
        <Alert color="red" title="Not imported" data-testid="peeringdb-import-error">
          <Text size="sm">{result.error}</Text>
          {result.problems.length > 1 || (result.problems.length === 1 && !result.error.startsWith(result.problems[0])) ? (
            <List size="sm" mt="xs" data-testid="peeringdb-import-problems">
              {result.problems.map((p, i) => (
                <List.Item key={i}>{p}</List.Item>
              ))}
              {result.problemCount > result.problems.length ? (
                <List.Item>{`… and ${(result.problemCount - result.problems.length).toLocaleString("en-US")} more.`}</List.Item>
              ) : null}
            </List>
          ) : null}
        </Alert>
      ) : null}
      {result?.summary ? (
        <Alert color="green" data-testid="peeringdb-import-summary">
          {`${result.summary.source} was imported in ${result.summary.seconds.toFixed(1)} s: ${result.summary.counts.net.toLocaleString("en-US")} networks, replacing ${result.summary.replaced.toLocaleString("en-US")} objects of the previous import${result.summary.skipped ? ` (${result.summary.skipped.toLocaleString("en-US")} deleted or of other types skipped)` : ""}.`}
        </Alert>
      ) : null}
    </Stack>
  );
}
