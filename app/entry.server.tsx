import { PassThrough } from "node:stream";
import type { EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { bootstrapOrExit } from "~/server/bootstrap.server";

// Open the stores, migrate and (first start) load the demo before the server takes requests:
// server.mjs imports this bundle before it listens, so a bad configuration stops start-up here.
await bootstrapOrExit();

const ABORT_DELAY_MS = 30_000;

/**
 * Every page is rendered completely before it is sent (no out-of-order streaming): the screens
 * must work on low-capability browsers and with JavaScript off, where streamed chunks would stay
 * hidden.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  return new Promise<Response>((resolve, reject) => {
    let failed = false;
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} />,
      {
        onAllReady() {
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          responseHeaders.set("X-Content-Type-Options", "nosniff");
          if (!responseHeaders.has("Referrer-Policy")) responseHeaders.set("Referrer-Policy", "same-origin");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: failed ? 500 : responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          failed = true;
          console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY_MS + 1000);
  });
}
