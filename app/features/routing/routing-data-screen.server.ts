/**
 * The /site-settings/routing-data screen: staff and superusers upload MRT files into the routing
 * history of a vantage point (the same importer as `npm run rib:import`), and keep the community
 * labels the private Looking Glass shows (community-labels-screen.server.ts).
 */
import { data } from "@remix-run/node";
import type { Services } from "~/server/services.server";
import { loadCommunityLabelsSection, saveCommunityLabels } from "./community-labels-screen.server";
import { handleMrtUpload, uploadVantagePoints } from "./mrt-upload.server";

export async function loadRoutingDataScreen(services: Pick<Services, "pg">, request: Request) {
  const [vantagePoints, communityLabels] = await Promise.all([
    uploadVantagePoints(services),
    loadCommunityLabelsSection(services, new URL(request.url)),
  ]);
  return { vantagePoints, communityLabels };
}

export type RoutingDataScreen = Awaited<ReturnType<typeof loadRoutingDataScreen>>;

/** The import's summary, or the reason it was refused with its status (400, or 413 for a file too large). */
export async function importRoutingData(services: Pick<Services, "pg" | "ch" | "config">, request: Request) {
  const result = await handleMrtUpload(request, services);
  return data(result, { status: result.error ? (result.status ?? 400) : 200 });
}

/** A POST of the screen: the MRT upload is the multipart form; the community labels' forms are plain ones with an `intent`. */
export async function routingDataAction(
  services: Pick<Services, "pg" | "ch" | "config">,
  user: { id: number; email: string },
  request: Request,
) {
  if (/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "")) return importRoutingData(services, request);
  return saveCommunityLabels(services, user, request);
}
