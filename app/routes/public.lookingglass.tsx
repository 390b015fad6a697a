import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { BusyNotice } from "~/components/BusyNotice";
import { loadPublicLookingGlass } from "~/features/lookingglass/public-page.server";
import { PublicLookingGlassError, PublicLookingGlassView } from "~/features/lookingglass/ui/PublicLookingGlassView";
import { refreshMeta } from "~/features/lookingglass/url-state";
import { busyAnswerOf } from "~/lib/busy";
import { WITHOUT_APP_SCRIPTS_HANDLE } from "~/lib/page-scripts";
import { sharedPageHeaders } from "~/server/public-page-cache.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.title} Looking Glass` : "Looking Glass" },
  // Ping/traceroute jobs still running: the page without JavaScript reads them again shortly.
  ...refreshMeta(data?.page.refreshUrl),
];

export const headers = sharedPageHeaders;

/**
 * Server-rendered HTML and CSS with the page's own small script, not the app's runtime: the page is
 * complete without JavaScript, and anyone may open it on any link (docs/decisions/014).
 */
export const handle = WITHOUT_APP_SCRIPTS_HANDLE;

/**
 * The public Looking Glass in the analytics deployment: open to anyone, no login, while the site
 * setting public_looking_glass_enabled is on (404 otherwise). Only public vantage points and the
 * public columns; the GET form and this loader make it work completely without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return loadPublicLookingGlass(request);
}

export default function PublicLookingGlass() {
  return <PublicLookingGlassView data={useLoaderData<typeof loader>()} />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  // A 404 is never a busy answer (busyAnswerOf wants 429/503), so the order of the checks does not matter.
  if (busyAnswerOf(error)) return <BusyNotice error={error} />;
  return <PublicLookingGlassError error={error} />;
}
