import { isRouteErrorResponse } from "@remix-run/react";
import { useMemo } from "react";
import { NotFoundPage, StartupErrorPage } from "~/components/ErrorPages";
import { useNonce } from "~/lib/nonce";
import type { PublicLookingGlassData } from "../public-page.server";
import { statusLabel } from "../status";
import { PUBLIC_LOOKING_GLASS_PATH } from "../url-state";
import { LookingGlassScreen } from "./LookingGlassScreen";
import { publicPageScript } from "./public-page-script";
import { PublicLayout } from "./PublicLayout";

/**
 * The public Looking Glass: the screen shared with the private page, in the deployment's own
 * branded frame. Its route does not hydrate (WITHOUT_APP_SCRIPTS_HANDLE): the server's HTML and
 * the page's own small script (public-page-script.ts) are all a visitor loads.
 */
export function PublicLookingGlassView({ data }: { data: PublicLookingGlassData }) {
  const { page, style, asNameOfDeployment, tableState } = data;
  const nonce = useNonce();
  const script = useMemo(
    () =>
      publicPageScript(page.progressTimeoutSeconds, {
        IDLE: statusLabel("IDLE", "public"),
        PENDING: statusLabel("PENDING", "public"),
        ABORTED: statusLabel("ABORTED", "public"),
      }),
    [page.progressTimeoutSeconds],
  );
  return (
    <PublicLayout style={style} asNameOfDeployment={asNameOfDeployment}>
      <LookingGlassScreen
        page={page}
        path={PUBLIC_LOOKING_GLASS_PATH}
        exportPath="/api/lookingglass/export/"
        tableState={tableState}
        rna={null}
        ownScript
      />
      {/* After the form and results it works on, so they exist when it runs. */}
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: script }} />
    </PublicLayout>
  );
}

/** Not found while the public Looking Glass is switched off; any other failure is the application's error page. */
export function PublicLookingGlassError({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return <StartupErrorPage kind="application" debug={error instanceof Error ? `${error.name}: ${error.message}` : String(error)} />;
}
