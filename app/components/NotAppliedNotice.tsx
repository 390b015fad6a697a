/**
 * The notice of a tool screen whose address asked for values it could not apply (docs/architecture.md
 * §9a step 2: params.ts falls back to the default and keeps the reason): one line per value.
 */
import { Alert, Stack, Text } from "@mantine/core";

export function NotAppliedNotice({ notices, testId }: { notices: readonly string[]; testId: string }) {
  if (!notices.length) return null;
  return (
    <Alert color="blue" title="Not applied as asked" data-testid={testId}>
      <Stack gap={2}>
        {notices.map((n) => (
          <Text key={n} size="sm">
            {n}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}
