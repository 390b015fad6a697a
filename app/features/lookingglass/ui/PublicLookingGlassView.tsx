import { isRouteErrorResponse } from "@remix-run/react";
import { NotFoundPage, StartupErrorPage } from "~/components/ErrorPages";
import type { PublicLookingGlassData } from "../public-page.server";
import { PUBLIC_LOOKING_GLASS_PATH } from "../url-state";
import { LookingGlassScreen } from "./LookingGlassScreen";
import { PublicLayout } from "./PublicLayout";

/** The public Looking Glass: the screen shared with the private page, in the deployment's own branded frame. */
export function PublicLookingGlassView({ data }: { data: PublicLookingGlassData }) {
  const { page, style, asNameOfDeployment, currentPage } = data;
  return (
    <PublicLayout style={style} asNameOfDeployment={asNameOfDeployment}>
      <LookingGlassScreen
        page={page}
        path={PUBLIC_LOOKING_GLASS_PATH}
        exportPath="/api/lookingglass/export/"
        currentPage={currentPage}
        rna={null}
      />
    </PublicLayout>
  );
}

/** Not found while the public Looking Glass is switched off; any other failure is the application's error page. */
export function PublicLookingGlassError({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return <StartupErrorPage kind="application" debug={error instanceof Error ? `${error.name}: ${error.message}` : String(error)} />;
}
