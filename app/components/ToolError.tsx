import { Alert, Anchor } from "@mantine/core";
import { useLocation } from "@remix-run/react";
import { busyAnswerOf } from "~/lib/busy";
import { MESSAGES } from "~/lib/messages";
import { isInterruptedConnection, requestRefusal } from "~/lib/startup-error";
import { BusyNotice } from "./BusyNotice";

/**
 * What a tool screen's ErrorBoundary shows: the busy notice for a 429/503 of the query limits
 * (wait and retry), the network text when the data never arrived, otherwise what failed and a link
 * back to the screen's starting point.
 */
export function ToolError({ error, title, path, startLabel }: { error: unknown; title: string; path: string; startLabel: string }) {
  const location = useLocation();
  if (busyAnswerOf(error)) return <BusyNotice error={error} />;
  // The screen's data did not arrive (a client-side navigation lost its connection): shell §8's network text.
  if (isInterruptedConnection(error))
    return (
      <Alert color="red" title={MESSAGES.networkErrorTitle} data-testid="network-error">
        {MESSAGES.networkInterrupted} <Anchor href={location.pathname + location.search}>Reload the page</Anchor>.
      </Alert>
    );
  return (
    <Alert color="red" title={`The ${title} could not be shown`}>
      {error instanceof Error ? error.message : (requestRefusal(error)?.detail ?? "Unexpected error.")} Change the options in the address or
      go back to <Anchor href={path}>{startLabel}</Anchor>.
    </Alert>
  );
}
