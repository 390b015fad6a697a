/**
 * The /site-settings/routing-data screen: staff and superusers upload MRT files into the routing
 * history of a vantage point (the same importer as `npm run rib:import`).
 */
import { data } from "@remix-run/node";
import type { Services } from "~/server/services.server";
import { handleMrtUpload, uploadVantagePoints } from "./mrt-upload.server";

export async function loadRoutingDataScreen(services: Pick<Services, "pg">) {
  return { vantagePoints: await uploadVantagePoints(services) };
}

export type RoutingDataScreen = Awaited<ReturnType<typeof loadRoutingDataScreen>>;

/** The import's summary, or the reason it was refused with its status (400, or 413 for a file too large). */
export async function importRoutingData(services: Pick<Services, "pg" | "ch" | "config">, request: Request) {
  const result = await handleMrtUpload(request, services);
  return data(result, { status: result.error ? (result.status ?? 400) : 200 });
}
