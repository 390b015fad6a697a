import type { LoaderFunctionArgs } from "@remix-run/node";
import { checkHealth } from "~/server/health.server";
import { getServices } from "~/server/services.server";

/** 200 when PostgreSQL and ClickHouse both answer, 503 naming the one that does not. */
export async function loader(_: LoaderFunctionArgs) {
  const health = await checkHealth(await getServices());
  return Response.json(health, { status: health.status === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
