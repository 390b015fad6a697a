import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { BusyNotice } from "~/components/BusyNotice";
import { NotFoundPage, StartupErrorPage } from "~/components/ErrorPages";
import { LookingGlassScreen } from "~/features/lookingglass/ui/LookingGlassScreen";
import { loadPublicLookingGlass } from "~/features/lookingglass/public-page.server";
import { PublicLayout } from "~/features/lookingglass/ui/PublicLayout";
import { busyAnswerOf } from "~/lib/busy";
import { PAGE_CACHE_HEADER } from "~/server/public-page-cache.server";
import { PUBLIC_LOOKING_GLASS_PATH, refreshMeta } from "~/features/lookingglass/url-state";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.title} Looking Glass` : "Looking Glass" },
  // Ping/traceroute jobs still running: the page without JavaScript reads them again shortly.
  ...refreshMeta(data?.page.refreshUrl),
];

/**
 * The public Looking Glass in the analytics deployment: open to anyone, no login, while the site
 * setting public_looking_glass_enabled is on (404 otherwise). Only public vantage points and the
 * public columns; the GET form and this loader make it work completely without JavaScript.
 */
/** The root's cookies, and the loader's word on whether anonymous visitors may share the page. */
export const headers: HeadersFunction = ({ loaderHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  const shared = loaderHeaders.get(PAGE_CACHE_HEADER);
  if (shared) headers.set(PAGE_CACHE_HEADER, shared);
  return headers;
};

export async function loader({ request }: LoaderFunctionArgs) {
  return loadPublicLookingGlass(request);
}

export default function PublicLookingGlass() {
  const { page, style, asNameOfDeployment, currentPage } = useLoaderData<typeof loader>();
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

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (busyAnswerOf(error)) return <BusyNotice error={error} />;
  return <StartupErrorPage kind="application" debug={error instanceof Error ? `${error.name}: ${error.message}` : String(error)} />;
}
