import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { z } from "zod";

// Zod probes whether it may compile validators with `new Function`; the Content-Security-Policy
// forbids eval, so the probe would only add a violation report. Validate without compiling.
z.config({ jitless: true });

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
