import { Anchor, Code, Stack, Table, Text, Title } from "@mantine/core";
import { Link } from "@remix-run/react";
import { useSyncExternalStore } from "react";
import { CopyAction } from "~/components/CopyAction";
import { ScrollBox } from "~/components/EditForms";
import { browserRequestHistory, curlOf, type HistoryEntry } from "~/lib/request-history";

const EMPTY: readonly HistoryEntry[] = [];
const time = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 19);

/**
 * The developer panel: the last 30 API calls this browser tab made (newest first), each with a
 * button that copies it as curl with $FLOWLENS_TOKEN in place of a token. The history lives in the
 * tab's memory: a page opened anew starts with none.
 */
export function RequestHistoryView() {
  const entries = useSyncExternalStore(
    (listener) => browserRequestHistory.subscribe(listener),
    () => browserRequestHistory.list(),
    () => EMPTY,
  );
  return (
    <Stack maw={1200} gap="md">
      <Title order={1} size="h2">
        Request history
      </Title>
      <Text size="sm">
        The last {browserRequestHistory.size} API calls this browser tab made, newest first. Copy one as a curl command: it reads your API
        token from the variable <Code>FLOWLENS_TOKEN</Code> (create one with <Code>POST auth/token/</Code>; it is shown once), e.g.{" "}
        <Code>export FLOWLENS_TOKEN=fl_…</Code>. The CSRF header and cookies are never kept.{" "}
        <Anchor component={Link} to="/settings">
          Back to the settings
        </Anchor>
        .
      </Text>
      <noscript>
        <Text>The request history is kept by the browser&apos;s JavaScript: with JavaScript off no calls are recorded.</Text>
      </noscript>
      {entries.length === 0 ? (
        <Text data-testid="request-history-empty">No API calls recorded in this tab yet. Open a tool and come back here.</Text>
      ) : (
        <ScrollBox label="Request history">
          <Table striped miw={900} data-testid="request-history-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time (UTC)</Table.Th>
                <Table.Th>Call</Table.Th>
                <Table.Th>Method</Table.Th>
                <Table.Th>URL</Table.Th>
                <Table.Th>Body</Table.Th>
                <Table.Th>curl</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => (
                <Table.Tr key={entry.uid} data-testid="request-history-entry">
                  <Table.Td style={{ whiteSpace: "nowrap" }}>{time(entry.timestamp)}</Table.Td>
                  <Table.Td>{entry.verboseName}</Table.Td>
                  <Table.Td>{entry.method}</Table.Td>
                  <Table.Td style={{ overflowWrap: "anywhere" }}>
                    <Code>{entry.url}</Code>
                  </Table.Td>
                  <Table.Td style={{ maxWidth: 360 }}>
                    {entry.body === null ? (
                      "none"
                    ) : (
                      <details>
                        <summary>
                          <Text span size="xs">
                            Show the body
                          </Text>
                        </summary>
                        <Code block style={{ maxHeight: 240, overflow: "auto" }}>
                          {JSON.stringify(entry.body, null, 2)}
                        </Code>
                      </details>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <CopyAction
                      value={() => curlOf(entry, window.location.origin)}
                      label="Copy as curl"
                      ariaLabel={`Copy as curl: ${entry.method} ${entry.url}`}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      )}
    </Stack>
  );
}
