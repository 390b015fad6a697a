import { Title } from "@mantine/core";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LookingGlassScreen } from "~/features/lookingglass/ui/LookingGlassScreen";
import { loadLookingGlassPage } from "~/features/lookingglass/page.server";
import { refreshMeta } from "~/features/lookingglass/url-state";
import { findToolRoute, isToolBuilt } from "~/lib/routes";
import { requireUser, tablesWithoutData } from "~/server/auth/guard.server";
import { MODERN_BROWSER_HANDLE } from "~/lib/browser-support";

const PATH = "/lookingglass";

// Ping/traceroute jobs of a deep link still running: the page reads them again shortly.
/** Charts, pickers and tables need a supported browser: the incompatible-browser warning shows here. */
export const handle = MODERN_BROWSER_HANDLE;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: "Looking Glass · flowlens" },
  ...refreshMeta(data?.page.refreshUrl),
];

/**
 * The private Looking Glass (PRIVATE_LOOKING_GLASS): every vantage point, every column. The URL
 * state is answered here too, so a shared link shows its results before JavaScript loads.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  const url = new URL(request.url);
  const page = await loadLookingGlassPage(services, { variant: "private", url, request, user });
  // 'Show in RNA' leads to the Raw Network Analyzer: offered once that tool exists.
  const mayOpenRna = isToolBuilt("/rna") && user.permissions.includes("RAW_NETWORK_ANALYZER");
  const rna = mayOpenRna ? { rawFlowsEmpty: (await tablesWithoutData(services)).has("flows_raw") } : null;
  return { page, rna, currentPage: Number(url.searchParams.get("page")) || 1 };
}

export default function PrivateLookingGlass() {
  const { page, rna, currentPage } = useLoaderData<typeof loader>();
  return (
    <>
      <Title order={1} size="h2" mb="md">
        Looking Glass
      </Title>
      <LookingGlassScreen page={page} path={PATH} exportPath="/api/lookingglass/export/" currentPage={currentPage} rna={rna} />
    </>
  );
}
