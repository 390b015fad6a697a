import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadPrivateLookingGlass } from "~/features/lookingglass/private-page.server";
import { PrivateLookingGlassView } from "~/features/lookingglass/ui/PrivateLookingGlassView";
import { refreshMeta } from "~/features/lookingglass/url-state";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";
import { MODERN_BROWSER_HANDLE } from "~/lib/browser-support";

const PATH = "/lookingglass";

/** Charts, pickers and tables need a supported browser: the incompatible-browser warning shows here. */
export const handle = MODERN_BROWSER_HANDLE;

// Ping/traceroute jobs of a deep link still running: the page reads them again shortly.
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: "Looking Glass · flowlens" },
  ...refreshMeta(data?.page.refreshUrl),
];

/** The URL state is answered here too, so a shared link shows its results before JavaScript loads. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  return loadPrivateLookingGlass(services, user, request);
}

export default function PrivateLookingGlass() {
  return <PrivateLookingGlassView data={useLoaderData<typeof loader>()} path={PATH} />;
}
