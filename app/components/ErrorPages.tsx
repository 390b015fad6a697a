import { Anchor, Button, Center, Code, Container, Stack, Text, Title } from "@mantine/core";
import { Link, useLocation } from "@remix-run/react";
import { MESSAGES } from "~/lib/messages";
import type { StartupErrorKind } from "~/lib/startup-error";

const HEADINGS: Record<StartupErrorKind, { title: string; text: string }> = {
  application: { title: "Application error", text: MESSAGES.serverError },
  network: { title: MESSAGES.networkErrorTitle, text: MESSAGES.networkError },
  chunk: { title: "Loading error", text: MESSAGES.chunkLoading },
};

/**
 * Shown when the application cannot start (site settings or feature flags did not load). The
 * Reload button is a plain link to "/", so it works even when scripts failed to load.
 * `interrupted`: a network failure of the running app (the page was served, then a call got no
 * answer) reads shell §8's 'interrupted unexpectedly' instead of 'Could not connect'.
 * "Contact support" is a plain link to the support form (/support?type=BUG; logged-out users log in
 * first), so it too works when scripts failed to load (shell §8: reload or contact support).
 */
export function StartupErrorPage({ kind, debug, interrupted = false }: { kind: StartupErrorKind; debug: string; interrupted?: boolean }) {
  const heading =
    kind === "network" && interrupted ? { title: MESSAGES.networkErrorTitle, text: MESSAGES.networkInterrupted } : HEADINGS[kind];
  return (
    <Container size="sm" py={80} data-testid={`startup-error-${kind}`} role="alert">
      <Stack gap="md">
        <Title order={1}>{heading.title}</Title>
        <Text>{heading.text}</Text>
        <div>
          <Button component="a" href="/">
            Reload
          </Button>
        </div>
        <Anchor href="/support?type=BUG">Contact support</Anchor>
        <details>
          <summary>Debug information</summary>
          <Code block mt="sm">
            {debug}
          </Code>
        </details>
      </Stack>
    </Container>
  );
}

/**
 * A request the server refused (400, 403, 413 …) with its reason. "Try again" reopens the page
 * the form was on (a plain link: works without JavaScript).
 */
export function RequestErrorPage({ status, detail }: { status: number; detail: string }) {
  const location = useLocation();
  return (
    <Container size="sm" py={80} data-testid="request-error">
      <Stack gap="md">
        <Title order={1}>{status === 413 ? "The request is too large" : "The request could not be processed"}</Title>
        <Text>{detail}</Text>
        <div>
          <Button component="a" href={location.pathname + location.search}>
            Try again
          </Button>
        </div>
        <Anchor href="/support?type=BUG">Contact support</Anchor>
      </Stack>
    </Container>
  );
}

export function NotFoundPage() {
  return (
    <Center py={80}>
      <Stack gap="md" maw={640} data-testid="not-found">
        <Title order={1}>{MESSAGES.notFoundTitle}</Title>
        <Text>{MESSAGES.notFoundText}</Text>
        <Anchor component={Link} to="/flow-explorer">
          Back to the Flow Explorer
        </Anchor>
        <Anchor component={Link} to="/support?type=BUG">
          Contact support
        </Anchor>
      </Stack>
    </Center>
  );
}
