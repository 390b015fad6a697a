/**
 * The browser's entry: Remix's default (hydrate the document in a transition), with one change to how React's
 * recoverable errors are told. React error 421 — a Suspense boundary still hydrating (the Sankey chart while its
 * code arrives) received an update, so React drew that boundary again in the browser — is expected behaviour of
 * the lazily loaded charts, not a fault: it is not reported. Every other recoverable error (a hydration mismatch)
 * goes on as React would report it, to the page's error handler and from there to the staff's error reports.
 */
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

/** React's minified error 421 (and its development text). */
const SUSPENSE_UPDATED_WHILE_HYDRATING = /Minified React error #421|received an update before it finished hydrating/;

function onRecoverableError(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  if (SUSPENSE_UPDATED_WHILE_HYDRATING.test(message)) return;
  if (typeof window.reportError === "function") window.reportError(error);
  else console.error(error);
}

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
    { onRecoverableError },
  );
});
