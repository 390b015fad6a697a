/**
 * The private Looking Glass page's loader (PRIVATE_LOOKING_GLASS): every vantage point, every
 * column, and the link to the Raw Network Analyzer where the user may open it (with the VRFs of the
 * vantage points' routers, which scope it).
 */
import { isToolBuilt } from "~/lib/routes";
import { listRouterVrfs } from "~/features/inventory/inventory.server";
import { tablesWithoutData } from "~/server/auth/guard.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { loadLookingGlassPage } from "./page.server";
import { parsePlainTableState } from "./plain-table";

export async function loadPrivateLookingGlass(services: Services, user: UserContext, request: Request) {
  const url = new URL(request.url);
  const page = await loadLookingGlassPage(services, { variant: "private", url, request, user });
  // 'Show in RNA' leads to the Raw Network Analyzer: offered once that tool exists.
  const mayOpenRna = isToolBuilt("/rna") && user.permissions.includes("RAW_NETWORK_ANALYZER");
  // The VRFs of the vantage points' routers (only those the user may read): a route of a VRF's table
  // scopes its RNA filters to that VRF's flows (columns.ts rnaFilter).
  const rna = mayOpenRna
    ? {
        rawFlowsEmpty: (await tablesWithoutData(services)).has("flows_raw"),
        vrfs: await listRouterVrfs(services, [...new Set(page.vantagePoints.map((vp) => vp.router))]),
      }
    : null;
  return { page, rna, tableState: parsePlainTableState(url.searchParams, "private") };
}

export type PrivateLookingGlassData = Awaited<ReturnType<typeof loadPrivateLookingGlass>>;
