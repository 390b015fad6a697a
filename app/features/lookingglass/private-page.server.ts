/**
 * The private Looking Glass page's loader (PRIVATE_LOOKING_GLASS): every vantage point, every
 * column, and the link to the Raw Network Analyzer where the user may open it.
 */
import { isToolBuilt } from "~/lib/routes";
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
  const rna = mayOpenRna ? { rawFlowsEmpty: (await tablesWithoutData(services)).has("flows_raw") } : null;
  return { page, rna, tableState: parsePlainTableState(url.searchParams, "private") };
}

export type PrivateLookingGlassData = Awaited<ReturnType<typeof loadPrivateLookingGlass>>;
