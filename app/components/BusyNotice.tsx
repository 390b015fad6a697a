import { Alert, Anchor, Stack, Text, Title } from "@mantine/core";
import { useLocation } from "@remix-run/react";
import { busyAnswerOf, retryIn } from "~/lib/busy";

/**
 * A screen whose queries were refused (too many at once, server busy) or ran past the time limit:
 * says so and when to try again, with a plain link that reloads the same address (works without
 * JavaScript). A query past its limit of rows says how to narrow it instead: the same query would
 * stop again. Returns null for any other error, so error boundaries fall through to their own page.
 */
export function BusyNotice({ error }: { error: unknown }) {
  const location = useLocation();
  const busy = busyAnswerOf(error);
  if (!busy) return null;
  const timedOut = busy.code === "query_timeout";
  if (busy.code === "query_too_broad")
    return (
      <Stack gap="sm" py="md" data-testid="busy-notice">
        <Title order={1}>The query is too broad</Title>
        <Alert color="yellow" role="alert">
          <Text>{busy.detail}</Text>
        </Alert>
      </Stack>
    );
  return (
    <Stack gap="sm" py="md" data-testid="busy-notice">
      <Title order={1}>{timedOut ? "The query took too long" : "The server is busy"}</Title>
      <Alert color="yellow" role="alert">
        <Text>{busy.detail}</Text>
        {timedOut || !busy.detail.includes(retryIn(busy.retryAfterSeconds)) ? <Text>{retryIn(busy.retryAfterSeconds)}</Text> : null}
        <Anchor href={location.pathname + location.search}>Try again</Anchor>
      </Alert>
    </Stack>
  );
}
