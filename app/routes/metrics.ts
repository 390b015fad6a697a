import type { LoaderFunctionArgs } from "@remix-run/node";
import { metricsResponse } from "~/server/metrics-endpoint.server";
import { getServices } from "~/server/services.server";

/** The Prometheus scrape: 404 unless METRICS_TOKEN is set, then only with `Authorization: Bearer <token>`. */
export async function loader({ request }: LoaderFunctionArgs) {
  return metricsResponse(request, (await getServices()).config.METRICS_TOKEN);
}
