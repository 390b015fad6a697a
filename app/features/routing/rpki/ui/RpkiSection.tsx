import { Alert, Button, Code, Group, List, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { Form, useNavigation } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { ScrollBox } from "~/components/EditForms";
import { ROA_UPLOAD_FIELD } from "../forms";
import type { RpkiActionResult } from "../roa-upload.server";
import type { RpkiSectionData } from "../rpki-screen.server";

const NOWRAP = { style: { whiteSpace: "nowrap" } } as const;
const NUMBER = { style: { textAlign: "right", whiteSpace: "nowrap" } } as const;

function ImportSummary({ summary }: { summary: NonNullable<RpkiActionResult["rpki"]["summary"]> }) {
  const rows: [string, string][] = [
    ["File", summary.fileName],
    ["Format", summary.formatLabel],
    ["Entries", summary.entries.toLocaleString("en-US")],
    [
      "VRPs stored",
      `${summary.vrps.toLocaleString("en-US")} (${summary.ipv4.toLocaleString("en-US")} IPv4, ${summary.ipv6.toLocaleString("en-US")} IPv6)`,
    ],
    ["Repeated entries", summary.duplicates.toLocaleString("en-US")],
    ["VRPs of the previous file", summary.replaced.toLocaleString("en-US")],
    ["Time", `${summary.seconds.toFixed(1)} s`],
  ];
  return (
    <Paper withBorder p="md" data-testid="rpki-import-summary">
      <Stack gap="xs">
        <Alert color="green">The ROA file was imported: its VRPs replace those of the previous file.</Alert>
        <Table>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w={220}>{label}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}

function RtrState({ rtr }: { rtr: NonNullable<RpkiSectionData["rtr"]> }) {
  const lines = [
    rtr.expired ? "Expired: no successful refresh within the expire interval; its VRPs are not used." : null,
    rtr.connected ? "Connected" : "Not connected",
    rtr.version,
    rtr.session,
    rtr.lastSuccess ? `Last End of Data: ${rtr.lastSuccess}` : "No End of Data received yet",
    rtr.intervals,
    rtr.lastError ? `Last error${rtr.lastError.at ? ` (${rtr.lastError.at})` : ""}: ${rtr.lastError.text}` : null,
  ].filter((l): l is string => Boolean(l));
  return (
    <List size="sm" listStyleType="none" spacing={0}>
      {lines.map((l) => (
        <List.Item key={l}>{l}</List.Item>
      ))}
    </List>
  );
}

/**
 * The RPKI section of the routing data screen: the VRP sources with their state, the upload of a
 * VRP file (a plain multipart form: `intent` first, then the CSRF field, then the file), and the
 * removal of the file's VRPs.
 */
export function RpkiSection({ data, result }: { data: RpkiSectionData; result: RpkiActionResult["rpki"] | undefined }) {
  const navigation = useNavigation();
  const sending = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <Stack gap="sm" component="section" aria-labelledby="rpki-heading" data-testid="rpki-section">
      <Title order={2} size="h3" id="rpki-heading">
        RPKI
      </Title>
      <Text size="sm">
        The Looking Glass shows for every route whether its origin AS may announce its prefix (route origin validation, RFC 6811): Valid,
        Invalid or Not found. It validates against validated ROA payloads (VRPs) from a file your relying party software exports
        (rpki-client <Code>-j</Code>, Routinator <Code>--format json</Code> or <Code>csv</Code>, the RIPE validator&apos;s CSV) and from an
        RTR cache (<Code>RPKI_RTR_CACHE</Code>, docs/operations.md section 4a); both together when both are there. The command line does the
        same import: <Code>npm run rpki:import -- FILE</Code>.
      </Text>
      {data.anyInUse ? (
        <Text size="sm" data-testid="rpki-in-use">
          {data.inUse} VRPs are in use.
        </Text>
      ) : (
        <Alert color="yellow" data-testid="rpki-in-use">
          No VRPs are loaded: the Looking Glass shows &quot;No ROA data&quot; in its RPKI column.
        </Alert>
      )}
      <ScrollBox label="VRP sources">
        <Table striped miw={640} data-testid="rpki-sources">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Source</Table.Th>
              <Table.Th {...NUMBER}>VRPs</Table.Th>
              <Table.Th>Last change ({data.timezone})</Table.Th>
              <Table.Th>State</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr>
              <Table.Td>ROA file</Table.Td>
              <Table.Td {...NUMBER}>{data.file?.vrps ?? "0"}</Table.Td>
              <Table.Td {...NOWRAP}>{data.file?.updated ?? "—"}</Table.Td>
              <Table.Td>
                {data.file?.fileName
                  ? `${data.file.fileName}, imported by ${data.file.importedBy ?? "unknown"}`
                  : data.file?.updated
                    ? `Removed by ${data.file.importedBy ?? "unknown"}`
                    : "No file imported"}
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>{data.rtr?.cache ? `RTR cache ${data.rtr.cache}` : "RTR cache"}</Table.Td>
              <Table.Td {...NUMBER}>{data.rtr?.vrps ?? "0"}</Table.Td>
              <Table.Td {...NOWRAP}>{data.rtr?.updated ?? "—"}</Table.Td>
              <Table.Td>
                {data.rtr ? (
                  <RtrState rtr={data.rtr} />
                ) : (
                  <Text size="sm">
                    None configured: set <Code>RPKI_RTR_CACHE=host:port</Code> and restart (on server stores the worker).
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </ScrollBox>
      <Form method="post" encType="multipart/form-data" aria-label="Import a ROA file">
        {/* intent first: the server reads it before the rest of the upload. */}
        <input type="hidden" name="intent" value="rpki-import" />
        <CsrfField />
        <Paper withBorder p="md">
          <Group align="flex-end">
            <label>
              <Text size="sm" fw={500} span display="block">
                ROA file (JSON or CSV, at most {data.maxFileMegabytes} MB)
              </Text>
              <input type="file" name={ROA_UPLOAD_FIELD} required accept=".json,.csv,application/json,text/csv,text/plain" />
            </label>
            <Button type="submit" loading={sending("rpki-import")}>
              Import ROAs
            </Button>
          </Group>
        </Paper>
      </Form>
      {result?.error ? (
        <Alert color="red" title="Not imported" data-testid="rpki-import-error">
          <Text size="sm">{result.error}</Text>
          {result.problems.length ? (
            <List size="sm" mt="xs" data-testid="rpki-import-problems">
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
      {result?.summary ? <ImportSummary summary={result.summary} /> : null}
      {result?.intent === "rpki-clear" && result.removed !== null ? (
        <Alert color="green" data-testid="rpki-clear-result">
          {`The file's ${result.removed.toLocaleString("en-US")} VRPs were removed.`}
        </Alert>
      ) : null}
      {data.file?.hasVrps ? (
        <Form method="post" aria-label="Remove the ROA file's VRPs">
          <input type="hidden" name="intent" value="rpki-clear" />
          <CsrfField />
          <Button type="submit" variant="default" color="red" loading={sending("rpki-clear")}>
            Remove the file&apos;s VRPs
          </Button>
        </Form>
      ) : null}
    </Stack>
  );
}
