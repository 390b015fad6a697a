import { Alert, Anchor, Button, Group, NativeSelect, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { Form, Link, useNavigation } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { UPLOAD_FIELD } from "../mrt-upload";
import type { MrtUploadResult } from "../mrt-upload.server";
import type { RoutingDataScreen } from "../routing-data-screen.server";
import type { CommunityLabelActionResult } from "../community-labels-screen.server";
import { CommunityLabelsSection } from "./CommunityLabelsSection";
import type { RpkiActionResult } from "../rpki/roa-upload.server";
import { RpkiSection } from "../rpki/ui/RpkiSection";
import type { PeeringDbActionResult } from "../peeringdb/upload.server";
import { PeeringDbSection } from "../peeringdb/ui/PeeringDbSection";

function Summary({ summary }: { summary: MrtUploadResult["summary"] }) {
  if (!summary) return null;
  const rows: [string, string | number][] = [
    ["File", summary.fileName],
    ["Vantage point", summary.vantagePoint],
    ["Compression", summary.compression ?? "none"],
    ["MRT records", summary.records],
    ["Prefixes", summary.prefixes],
    ["Announcements", summary.announcements],
    ["Withdrawals", summary.withdrawals],
    ["State changes", summary.stateChanges],
    [
      "Skipped records",
      `${summary.skipped}${
        Object.keys(summary.skippedReasons).length
          ? ` (${Object.entries(summary.skippedReasons)
              .map(([k, v]) => `${k}: ${v}`)
              .join(", ")})`
          : ""
      }`,
    ],
    ["Errors", summary.errors],
    ["Rows written", summary.rowsWritten],
    ["Time", `${summary.seconds.toFixed(1)} s`],
  ];
  return (
    <Paper withBorder p="md" data-testid="import-summary">
      <Stack gap="xs">
        {summary.stoppedEarly ? (
          <Alert color="yellow" title="The file ended early">
            {summary.stoppedEarly} The records before it were imported.
          </Alert>
        ) : (
          <Alert color="green">The file was imported.</Alert>
        )}
        <Table>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w={200}>{label}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {summary.errorMessages.length ? (
          <Stack gap={2}>
            {summary.errorMessages.map((m, i) => (
              <Text key={i} size="sm" c="red">
                {m}
              </Text>
            ))}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** The result of the screen's POST: the MRT upload's, the community labels' (`intent`), the RPKI section's (`rpki`) or the PeeringDB section's (`peeringdb`). */
export type RoutingDataResult =
  MrtUploadResult | CommunityLabelActionResult | Pick<RpkiActionResult, "rpki"> | Pick<PeeringDbActionResult, "peeringdb">;

/**
 * The routing data screen: the MRT import (what it does, the upload form, then the import's summary
 * or why it was refused), then the community labels, then the RPKI section, then the PeeringDB section.
 */
export function RoutingDataView({ data, result }: { data: RoutingDataScreen; result: RoutingDataResult | undefined }) {
  const { vantagePoints: vps } = data;
  const labelResult = result && "intent" in result ? result : null;
  const rpkiResult = result && "rpki" in result ? result.rpki : undefined;
  const peeringDbResult = result && "peeringdb" in result ? result.peeringdb : undefined;
  const upload = result && !("intent" in result) && !("rpki" in result) && !("peeringdb" in result) ? result : undefined;
  const navigation = useNavigation();
  return (
    <Stack maw={900}>
      <Title order={1} size="h2">
        Routing data
      </Title>
      <Text size="sm">
        Import MRT files (RFC 6396: TABLE_DUMP_V2 RIB dumps and BGP4MP updates, plain, gzip or bzip2) into the routing history of a vantage
        point; the Looking Glass and the Control Plane answer from it. Large files are streamed; for files of several hundred MB the command
        line is quicker: <code>npm run rib:import -- --vantage-point KEY FILE…</code>.{" "}
        <Anchor component={Link} to="/site-settings">
          Back to the site settings
        </Anchor>
      </Text>
      {vps.length === 0 ? <Alert color="yellow">There are no vantage points yet: add one before importing routing data.</Alert> : null}
      {/* The fields come before the file: the server reads them first and checks them before decoding anything. */}
      <Form method="post" encType="multipart/form-data" aria-label="Import routing data">
        <CsrfField />
        <Paper withBorder p="md">
          <Group align="flex-end">
            <NativeSelect
              label="Vantage point"
              name="vantagePoint"
              required
              data={vps.map((v) => ({ value: v.key, label: `${v.key} — ${v.router}, ${v.city}` }))}
              w={280}
            />
            {/* A plain file input: it works without JavaScript, which Mantine's FileInput (a button over a hidden input) does not. */}
            <label>
              <Text size="sm" fw={500} span display="block">
                MRT file
              </Text>
              <input type="file" name={UPLOAD_FIELD} required />
            </label>
            <Button type="submit" loading={navigation.state === "submitting" && navigation.formEncType === "multipart/form-data"}>
              Import
            </Button>
          </Group>
        </Paper>
      </Form>
      {upload?.error ? (
        <Alert color="red" title="Not imported" data-testid="import-error">
          {upload.error}
        </Alert>
      ) : null}
      {upload?.summary ? <Summary summary={upload.summary} /> : null}
      <CommunityLabelsSection data={data.communityLabels} result={labelResult} />
      <RpkiSection data={data.rpki} result={rpkiResult} />
      <PeeringDbSection data={data.peeringdb} result={peeringDbResult} />
    </Stack>
  );
}
