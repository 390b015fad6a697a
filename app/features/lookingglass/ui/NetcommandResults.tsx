/**
 * Ping and traceroute results (spec §2 "Result screens"): one block per vantage point headed
 * 'vantage point (ip) to destination'; a spinner while the job is PENDING, STARTED or RETRY, the
 * result text on FAILURE, otherwise the result preformatted as the router printed it.
 */
import { Alert, Code, Group, Loader, Paper, Stack, Text, Title } from "@mantine/core";
import { CopyAction } from "~/components/CopyAction";
import { isJobRunning, netcommandHeading } from "~/lib/netcommand-client";

export type NetcommandBlockData = { vantagePoint: string; ip: string; destination: string; state: string; result: string };

export function NetcommandResults({ blocks }: { blocks: readonly NetcommandBlockData[] }) {
  return (
    <Stack gap="md" data-testid="netcommand-results">
      {blocks.map((block) => (
        <Paper key={block.vantagePoint} withBorder p="sm">
          <Group justify="space-between" mb="xs" wrap="nowrap" align="flex-start">
            <Title order={5}>{netcommandHeading(block.vantagePoint, block.ip, block.destination)}</Title>
            {!isJobRunning(block.state) && block.result ? (
              <CopyAction
                value={() => block.result}
                label="Copy"
                ariaLabel={`Copy the output of ${netcommandHeading(block.vantagePoint, block.ip, block.destination)}`}
              />
            ) : null}
          </Group>
          {isJobRunning(block.state) ? (
            <Group gap="xs">
              <Loader size="sm" />
              <Text size="sm" c="dimmed">
                {block.state}
              </Text>
            </Group>
          ) : block.state === "FAILURE" ? (
            <Alert color="red" variant="light">
              {block.result}
            </Alert>
          ) : (
            <Code block>{block.result}</Code>
          )}
        </Paper>
      ))}
    </Stack>
  );
}
