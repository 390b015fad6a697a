import { Alert, Anchor, Button, Code, Group, Stack, Table, Text, Title } from "@mantine/core";
import { Form, Link, useNavigation } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { ScrollBox } from "~/components/EditForms";
import type { ErrorReportsScreen } from "~/server/error-reports.server";

const NOWRAP = { style: { whiteSpace: "nowrap" } } as const;
const NUMBER = { style: { textAlign: "right", whiteSpace: "nowrap" } } as const;

/** The error reports screen: client errors grouped by message, for staff and superusers to follow up and mark as handled. */
export function ErrorReportsView({ data }: { data: ErrorReportsScreen }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const open = data.show === "open";
  return (
    <Stack maw={1200} gap="md">
      <Title order={1} size="h2">
        Error reports
      </Title>
      <Text size="sm">
        Errors the browsers of this installation reported, grouped by message.{" "}
        <Anchor component={Link} to="/site-settings">
          Back to the site settings
        </Anchor>
        .
      </Text>
      <Group gap="md" role="navigation" aria-label="Which reports">
        {open ? (
          <Text fw={700} size="sm" aria-current="page">
            Not handled
          </Text>
        ) : (
          <Anchor component={Link} to="/site-settings/error-reports" size="sm">
            Not handled
          </Anchor>
        )}
        {open ? (
          <Anchor component={Link} to="/site-settings/error-reports?show=handled" size="sm">
            Handled
          </Anchor>
        ) : (
          <Text fw={700} size="sm" aria-current="page">
            Handled
          </Text>
        )}
      </Group>
      {data.notice ? (
        <Alert color="green" role="status" data-testid="error-reports-notice">
          {data.notice}
        </Alert>
      ) : null}
      {data.groups.length === 0 ? (
        <Text data-testid="error-reports-empty">{open ? "No error reports waiting to be handled." : "No handled error reports."}</Text>
      ) : (
        <>
          {data.total > data.groups.length ? (
            <Text size="sm" c="dimmed">
              {`The ${data.groups.length} messages seen last of ${data.total}.`}
            </Text>
          ) : null}
          <ScrollBox label="Error reports">
            <Table striped miw={900} data-testid="error-reports-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Message</Table.Th>
                  <Table.Th {...NUMBER}>Reports</Table.Th>
                  <Table.Th {...NUMBER}>Users</Table.Th>
                  <Table.Th>First seen ({data.timezone})</Table.Th>
                  <Table.Th>Last seen ({data.timezone})</Table.Th>
                  <Table.Th>URL paths</Table.Th>
                  <Table.Th>Release</Table.Th>
                  <Table.Th>{open ? "Action" : "Handled"}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.groups.map((g) => (
                  <Table.Tr key={g.message} data-testid="error-report-group">
                    <Table.Td style={{ maxWidth: 420, overflowWrap: "anywhere" }}>
                      <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
                        {g.message}
                      </Text>
                      {g.latestStacktrace ? (
                        <details>
                          <summary>
                            <Text span size="xs">
                              Stack trace of the last report
                            </Text>
                          </summary>
                          <Code block style={{ maxHeight: 240, overflow: "auto" }}>
                            {g.latestStacktrace}
                          </Code>
                        </details>
                      ) : null}
                    </Table.Td>
                    <Table.Td {...NUMBER}>{g.count}</Table.Td>
                    <Table.Td {...NUMBER}>{g.users}</Table.Td>
                    <Table.Td {...NOWRAP}>{g.firstSeen}</Table.Td>
                    <Table.Td {...NOWRAP}>{g.lastSeen}</Table.Td>
                    <Table.Td style={{ overflowWrap: "anywhere" }}>{g.paths.length ? g.paths.join(", ") : "none given"}</Table.Td>
                    <Table.Td {...NOWRAP}>{g.releases.join(", ")}</Table.Td>
                    <Table.Td>
                      {open ? (
                        <Form method="post">
                          <CsrfField />
                          <input type="hidden" name="intent" value="handled" />
                          <input type="hidden" name="message" value={g.message} />
                          <Button
                            type="submit"
                            size="xs"
                            variant="light"
                            disabled={busy}
                            aria-label={`Mark as handled: ${g.message.slice(0, 80)}`}
                          >
                            Mark as handled
                          </Button>
                        </Form>
                      ) : (
                        <Text size="sm">{g.handled}</Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollBox>
        </>
      )}
    </Stack>
  );
}
