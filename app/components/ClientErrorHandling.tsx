import { Button, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useEffect } from "react";
import { chunkFailureOf, chunkFailureText, watchChunkLoads, type ChunkFailure } from "~/lib/chunk-load";
import { installErrorReporting } from "~/lib/error-reporter";
import { MESSAGES } from "~/lib/messages";

/** One notice however many files fail: the same reload fixes them all. */
const CHUNK_NOTICE_ID = "chunk-load-failed";

export function ChunkFailureMessage({ failure }: { failure: ChunkFailure }) {
  return (
    <Stack gap="xs" data-testid="chunk-load-failed">
      <Text size="sm">{MESSAGES.chunkLoading}</Text>
      <Text size="sm" style={{ wordBreak: "break-all" }}>
        {chunkFailureText(failure)}
      </Text>
      <div>
        <Button size="xs" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </div>
    </Stack>
  );
}

function showChunkFailure(failure: ChunkFailure) {
  notifications.show({
    id: CHUNK_NOTICE_ID,
    color: "red",
    title: "Loading chunk failed",
    message: <ChunkFailureMessage failure={failure} />,
    autoClose: false,
  });
}

// Remix may mount the document shell again (an error boundary at the root): install once per page.
let installed = false;

/**
 * The browser's error handling of the whole app, installed once from the document shell (root.tsx),
 * in the browser only (an effect): error reports of uncaught errors and unhandled rejections
 * (error-reporter.ts), and the chunk-load notice for scripts and stylesheets that fail or hang
 * (chunk-load.ts), including Vite's 'vite:preloadError'. Renders nothing.
 */
export function ClientErrorHandling() {
  useEffect(() => {
    if (installed) return;
    installed = true;
    const onChunkError = (error: unknown) => {
      const failure = chunkFailureOf(error);
      if (failure) showChunkFailure(failure);
    };
    const stopReporting = installErrorReporting(window, { onChunkError });
    const stopWatching = watchChunkLoads(document, showChunkFailure);
    // Vite's event for a failed preload of a dynamic import; its payload is the error. The import
    // still rejects afterwards (no preventDefault), so the part that needed it shows its own failure.
    const onPreloadError = (event: Event) => onChunkError((event as Event & { payload?: unknown }).payload);
    window.addEventListener("vite:preloadError", onPreloadError);
    return () => {
      installed = false;
      stopReporting();
      stopWatching();
      window.removeEventListener("vite:preloadError", onPreloadError);
    };
  }, []);
  return null;
}
