import { Alert, Anchor } from "@mantine/core";
import { busyAnswerOf } from "~/lib/busy";
import { BusyNotice } from "./BusyNotice";

/**
 * What a tool screen's ErrorBoundary shows: the busy notice for a 429/503 of the query limits
 * (wait and retry), otherwise what failed and a link back to the screen's starting point.
 */
export function ToolError({ error, title, path, startLabel }: { error: unknown; title: string; path: string; startLabel: string }) {
  if (busyAnswerOf(error)) return <BusyNotice error={error} />;
  return (
    <Alert color="red" title={`The ${title} could not be shown`}>
      {error instanceof Error ? error.message : "Unexpected error."} Change the options in the address or go back to{" "}
      <Anchor href={path}>{startLabel}</Anchor>.
    </Alert>
  );
}
