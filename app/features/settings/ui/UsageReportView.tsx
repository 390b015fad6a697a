import { Anchor, Code, Group, Stack, Table, Text, Title } from "@mantine/core";
import { Link } from "@remix-run/react";
import { ScrollBox } from "~/components/EditForms";
import type { UsageReportScreen } from "~/server/usage-report.server";

const NUMBER = { style: { textAlign: "right", whiteSpace: "nowrap" } } as const;

/** The usage screen: per week, the screens and named actions used, with events and distinct users. */
export function UsageReportView({ data }: { data: UsageReportScreen }) {
  return (
    <Stack maw={1000} gap="md">
      <Title order={1} size="h2">
        Usage
      </Title>
      <Text size="sm">
        Which screens and actions were used, per week (weeks start on Monday, UTC). Only users who gave their consent are counted; events
        are kept {data.retentionDays} days.{" "}
        <Anchor component={Link} to="/site-settings">
          Back to the site settings
        </Anchor>
        .
      </Text>
      <Group gap="md" role="navigation" aria-label="How many weeks">
        {data.choices.map((n) => {
          const label = n === 1 ? "This week" : `Last ${n} weeks`;
          return n === data.weeks ? (
            <Text key={n} fw={700} size="sm" aria-current="page">
              {label}
            </Text>
          ) : (
            <Anchor key={n} component={Link} to={`/site-settings/usage?weeks=${n}`} size="sm">
              {label}
            </Anchor>
          );
        })}
      </Group>
      {data.report.length === 0 ? (
        <Text data-testid="usage-empty">Nothing was used in these weeks, or no user has given consent to the tracking.</Text>
      ) : (
        data.report.map((week) => (
          <Stack key={week.week} gap="xs" data-testid="usage-week" data-week={week.week}>
            <Title order={2} size="h4">
              {week.label}
            </Title>
            <ScrollBox label={`Usage in the ${week.label.toLowerCase()}`}>
              <Table striped miw={640}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Screen or action</Table.Th>
                    <Table.Th>Tracked as</Table.Th>
                    <Table.Th {...NUMBER}>Uses</Table.Th>
                    <Table.Th {...NUMBER}>Users</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {week.targets.map((t) => (
                    <Table.Tr key={t.target} data-testid="usage-row">
                      <Table.Td>{t.label}</Table.Td>
                      <Table.Td>
                        <Code>{t.target}</Code>
                      </Table.Td>
                      <Table.Td {...NUMBER}>{t.events}</Table.Td>
                      <Table.Td {...NUMBER}>{t.users}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollBox>
          </Stack>
        ))
      )}
    </Stack>
  );
}
