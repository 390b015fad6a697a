import { PassThrough } from "node:stream";
import type { EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { busyAnswerOf } from "~/lib/busy";
import { NonceContext } from "~/lib/nonce";
import { RenderOnlyContext } from "~/lib/render-only";
import { renderOnlyValues } from "~/server/request-scope.server";
import { bootstrapOrExit } from "~/server/bootstrap.server";
import { csrfCookieFor, keepPage, PAGE_CACHE_HEADER, PAGE_CACHE_PUBLIC, pageCacheKey } from "~/server/public-page-cache.server";
import { reportPageFailure } from "~/server/page-failure-alert.server";
import { documentPolicy, newNonce } from "~/server/security-headers.server";
import { wireApp } from "~/wiring.server";

// What server.mjs needs from the app: the request scope for the query limits, the security headers
// of every answer, the public page cache it serves before Remix.
export { runInRequestScope } from "~/server/request-scope.server";
export { defaultHeaders } from "~/server/security-headers.server";
export { cachedPage, csrfCookieFor, pageCacheKey } from "~/server/public-page-cache.server";
export { admissionKey, RequestAdmission, tooManyRequests } from "~/server/request-admission.server";
export { getConfig } from "~/server/env.server";

// Hand the features to the kernel, then open the stores, migrate and (first start) load the demo
// before the server takes requests: server.mjs imports this bundle before it listens, so a bad
// configuration stops start-up here.
wireApp();
await bootstrapOrExit();

/**
 * Errors of loaders and actions (Remix's hook): logged as Remix does by default, and an unexpected
 * failure (not a thrown answer, not an abandoned request) raises the team-chat alert.
 */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  console.error(isRouteErrorResponse(error) && (error as { error?: unknown }).error ? (error as { error?: unknown }).error : error);
  void reportPageFailure(error, request);
}

const ABORT_DELAY_MS = 30_000;
const development = process.env.NODE_ENV === "development";

/**
 * Every page is rendered completely before it is sent (no out-of-order streaming): the screens
 * must work on low-capability browsers and with JavaScript off, where streamed chunks would stay
 * hidden.
 */
export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext) {
  const nonce = newNonce();
  const shared = responseHeaders.get(PAGE_CACHE_HEADER) === PAGE_CACHE_PUBLIC && responseStatusCode === 200;
  responseHeaders.delete(PAGE_CACHE_HEADER);
  const cacheKey = shared ? pageCacheKey(request) : null;
  if (cacheKey) {
    const cookie = csrfCookieFor(request);
    if (cookie) responseHeaders.append("Set-Cookie", cookie);
  }
  documentHeaders(responseHeaders, nonce, remixContext);

  return new Promise<Response>((resolve, reject) => {
    let failed = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RenderOnlyContext.Provider value={renderOnlyValues()}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={nonce} />
        </RenderOnlyContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          const body = new PassThrough();
          const status = failed ? 500 : responseStatusCode;
          if (cacheKey && !failed) keepWhenRendered(body, cacheKey, status);
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status }));
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

/**
 * A document's own headers: its Content-Security-Policy with this render's nonce, no caching
 * unless its route chose otherwise, and Retry-After when its queries were refused or timed out
 * (the error boundary then tells the user when to try again). The rest comes from server.mjs.
 */
function documentHeaders(headers: Headers, nonce: string, remixContext: EntryContext) {
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Content-Security-Policy", documentPolicy({ nonce }, development));
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  const errors = Object.values(remixContext.staticHandlerContext.errors ?? {});
  const busy = errors.map(busyAnswerOf).find((answer) => answer !== null);
  if (busy) headers.set("Retry-After", String(busy.retryAfterSeconds));
}

function keepWhenRendered(body: PassThrough, key: string, status: number) {
  const chunks: Buffer[] = [];
  body.on("data", (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
  body.on("end", () => keepPage(key, Buffer.concat(chunks).toString("utf8"), status));
}
