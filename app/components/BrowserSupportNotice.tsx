import { Alert } from "@mantine/core";
import { useMatches, useRouteLoaderData } from "@remix-run/react";
import { INCOMPATIBLE_BROWSER_MESSAGE, needsModernBrowser } from "~/lib/browser-support";
import type { loader as rootLoader } from "~/root";

/**
 * The incompatible-browser warning (shell §5), only on screens that declare they need a modern
 * browser (route handle `needsModernBrowser`): pages that work in any browser, such as the public
 * Looking Glass or the login, do not warn text browsers for nothing.
 */
export function BrowserSupportNotice() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const matches = useMatches();
  if (!root || root.browserSupported || !needsModernBrowser(matches.map((m) => m.handle))) return null;
  return (
    <Alert color="yellow" mb="md" role="status" data-testid="browser-warning">
      {INCOMPATIBLE_BROWSER_MESSAGE}
    </Alert>
  );
}
